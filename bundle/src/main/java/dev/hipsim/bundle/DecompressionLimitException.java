package dev.hipsim.bundle;

/**
 * A compressed bundle declares (or would need) more memory than {@link ReadOptions#maxDecompressedSize()} allows:
 * refused before anything is allocated, so a decompression bomb is an error and never an OutOfMemoryError.
 */
public final class DecompressionLimitException extends BundleFormatException {
  private static final long serialVersionUID = 1L;
  private final long requested;
  private final long limit;

  public DecompressionLimitException(long offset, String what, long requested, long limit) {
    super(offset, String.format("%s of %d bytes exceeds the limit of %d bytes (raise it with --max-decompressed)",
        what, requested, limit));
    this.requested = requested;
    this.limit = limit;
  }

  public long requested() {
    return requested;
  }

  public long limit() {
    return limit;
  }
}
