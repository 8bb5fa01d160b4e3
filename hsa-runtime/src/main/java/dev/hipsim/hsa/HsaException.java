package dev.hipsim.hsa;

/**
 * An HSA call failed: the {@link HsaStatus} ROCr would return, and a message that names what was wrong (the
 * argument, address, symbol or target involved).
 */
public class HsaException extends Exception {
  private static final long serialVersionUID = 1L;

  private final HsaStatus status;
  private final String detail;

  public HsaException(HsaStatus status, String message) {
    super(status.cName() + ": " + message);
    this.status = status;
    this.detail = message;
  }

  public HsaException(HsaStatus status, String message, Throwable cause) {
    super(status.cName() + ": " + message, cause);
    this.status = status;
    this.detail = message;
  }

  /** The message without the status name. */
  public String detail() {
    return detail;
  }

  public HsaStatus status() {
    return status;
  }
}
