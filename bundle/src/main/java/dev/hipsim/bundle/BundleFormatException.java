package dev.hipsim.bundle;

import java.io.IOException;

/**
 * An offload bundle, OffloadBinary or fat-binary wrapper is truncated, corrupt or of a kind this reader does not
 * know. The message always names the file offset of the problem and what was wrong there.
 */
public class BundleFormatException extends IOException {
  private static final long serialVersionUID = 1L;
  private final long offset;

  public BundleFormatException(long offset, String problem) {
    super(String.format("at file offset 0x%x: %s", offset, problem));
    this.offset = offset;
  }

  public BundleFormatException(long offset, String problem, Throwable cause) {
    super(String.format("at file offset 0x%x: %s", offset, problem), cause);
    this.offset = offset;
  }

  /** File offset (from the start of the file being read) where the problem was found. */
  public long offset() {
    return offset;
  }
}
