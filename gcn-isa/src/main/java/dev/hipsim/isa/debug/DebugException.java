package dev.hipsim.isa.debug;

/** A debugger request that cannot be carried out; the message says why, in terms the user can act on. */
public final class DebugException extends Exception {
  private static final long serialVersionUID = 1L;

  public DebugException(String message) {
    super(message);
  }
}
