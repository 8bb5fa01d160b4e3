package dev.hipsim.bundle;

/**
 * The header of a compressed ({@code CCOB}) bundle.
 *
 * @param version 1, 2 or 3
 * @param method zlib or zstd
 * @param declaredTotalSize the whole compressed bundle's size as its header states it (0 for version 1, which has
 *     no such field)
 * @param uncompressedSize the size of the plain bundle inside
 * @param storedHash the low 64 bits of the MD5 of the plain bundle (little-endian, as written)
 * @param headerSize 20, 24 or 32 bytes
 */
public record CompressedHeader(int version, CompressionMethod method, long declaredTotalSize, long uncompressedSize,
    long storedHash, int headerSize) {

  public static final String MAGIC = "CCOB";

  /** The header size of each version, or -1 for versions this reader does not know. */
  public static int headerSize(int version) {
    switch (version) {
      case 1: return 20;
      case 2: return 24;
      case 3: return 32;
      default: return -1;
    }
  }
}
