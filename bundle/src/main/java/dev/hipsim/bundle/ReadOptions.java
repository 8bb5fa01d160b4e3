package dev.hipsim.bundle;

/**
 * Limits applied while reading untrusted bundles.
 *
 * @param maxDecompressedSize the largest uncompressed payload (and compressed input) a compressed bundle or
 *     OffloadBinary may declare; larger ones fail with {@link DecompressionLimitException} before any allocation
 */
public record ReadOptions(long maxDecompressedSize) {
  /** Java arrays stop a little short of 2 GiB. */
  public static final long HARD_LIMIT = Integer.MAX_VALUE - 16;

  /** 256 MiB: several times the largest compressed bundle seen in ROCm libraries. */
  public static final ReadOptions DEFAULT = new ReadOptions(256L << 20);

  public ReadOptions {
    if (maxDecompressedSize < 0) {
      throw new IllegalArgumentException("maxDecompressedSize must not be negative: " + maxDecompressedSize);
    }
    maxDecompressedSize = Math.min(maxDecompressedSize, HARD_LIMIT);
  }
}
