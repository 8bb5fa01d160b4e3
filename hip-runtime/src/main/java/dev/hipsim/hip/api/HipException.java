package dev.hipsim.hip.api;

/**
 * A HIP call fails with a specific error code. Implementations throw it from deep inside the runtime; the dispatcher
 * returns {@link #error()} to the program (and records it as the thread's last error) without printing anything,
 * because a failing HIP call is the program's business, not an internal fault.
 */
public class HipException extends Exception {
  private static final long serialVersionUID = 1L;
  private final HipError error;

  public HipException(HipError error, String message) {
    super(message);
    this.error = error;
  }

  public HipException(HipError error) {
    this(error, error.description());
  }

  public HipError error() {
    return error;
  }
}
