package dev.hipsim.bundle;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes bundles as clang-offload-bundler lays them out: plain bundles with each entry aligned (HIP uses 4096), and
 * compressed bundles of every version (1, 2, 3) with zlib or zstd, hashed with MD5 like LLVM's.
 */
public final class BundleWriter {
  /** The alignment HIP's driver passes to the bundler ({@code -bundle-align=4096}). */
  public static final int HIP_ALIGNMENT = 4096;
  /** zlib's default level, which the bundler uses for zlib. */
  public static final int ZLIB_DEFAULT_LEVEL = 6;

  private BundleWriter() {}

  /** One entry to write: its ID and contents. */
  public record Input(String id, byte[] contents) {}

  /** A plain bundle: header, then every entry at the next multiple of {@code alignment}, zero-padded. */
  public static byte[] plain(List<Input> entries, int alignment) {
    if (alignment <= 0) throw new IllegalArgumentException("alignment must be positive: " + alignment);
    long headerSize = BundleReader.PLAIN_MAGIC.length() + 8L;
    for (Input e : entries) headerSize += 24L + e.id().getBytes(StandardCharsets.UTF_8).length;
    long[] offsets = new long[entries.size()];
    long at = headerSize;
    for (int i = 0; i < entries.size(); i++) {
      at = alignUp(at, alignment);
      offsets[i] = at;
      at += entries.get(i).contents().length;
    }
    if (at > Integer.MAX_VALUE) throw new IllegalArgumentException("bundle of " + at + " bytes is too large");
    ByteBuffer out = ByteBuffer.allocate((int) at).order(ByteOrder.LITTLE_ENDIAN);
    out.put(BundleReader.PLAIN_MAGIC.getBytes(StandardCharsets.US_ASCII));
    out.putLong(entries.size());
    for (int i = 0; i < entries.size(); i++) {
      byte[] id = entries.get(i).id().getBytes(StandardCharsets.UTF_8);
      out.putLong(offsets[i]).putLong(entries.get(i).contents().length).putLong(id.length).put(id);
    }
    for (int i = 0; i < entries.size(); i++) {
      out.position((int) offsets[i]);
      out.put(entries.get(i).contents());
    }
    return out.array();
  }

  /**
   * A compressed bundle of {@code version} 1, 2 or 3 around {@code plainBundle}. {@code level} is zlib's level
   * (0–9); zstd is written at aircompressor's fixed level, which LLVM reads the same way.
   */
  public static byte[] compressed(byte[] plainBundle, int version, CompressionMethod method, int level) {
    int headerSize = CompressedHeader.headerSize(version);
    if (headerSize < 0) throw new IllegalArgumentException("compressed bundle version must be 1, 2 or 3: " + version);
    byte[] data = Codecs.compress(method, plainBundle, level);
    long total = (long) headerSize + data.length;
    if (version < 3 && (total > 0xffff_ffffL || plainBundle.length > 0xffff_ffffL)) {
      throw new IllegalArgumentException("version " + version + " cannot describe more than 4 GiB");
    }
    ByteBuffer out = ByteBuffer.allocate((int) total).order(ByteOrder.LITTLE_ENDIAN);
    out.put(CompressedHeader.MAGIC.getBytes(StandardCharsets.US_ASCII));
    out.putShort((short) version).putShort((short) method.code());
    long hash = BundleReader.md5Low64(plainBundle, plainBundle.length);
    switch (version) {
      case 1:
        out.putInt(plainBundle.length).putLong(hash);
        break;
      case 2:
        out.putInt((int) total).putInt(plainBundle.length).putLong(hash);
        break;
      default:
        out.putLong(total).putLong(plainBundle.length).putLong(hash);
        break;
    }
    out.put(data);
    return out.array();
  }

  private static long alignUp(long value, long alignment) {
    return (value + alignment - 1) / alignment * alignment;
  }
}
