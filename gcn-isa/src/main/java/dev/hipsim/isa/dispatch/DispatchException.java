package dev.hipsim.isa.dispatch;

/**
 * A dispatch could not run to completion: a bad packet or descriptor, a memory fault, an instruction the device
 * cannot execute, a trap, or the watchdog. Subclasses carry where it happened.
 */
public class DispatchException extends Exception {
  private static final long serialVersionUID = 1L;

  public DispatchException(String message) {
    super(message);
  }

  public DispatchException(String message, Throwable cause) {
    super(message, cause);
  }
}
