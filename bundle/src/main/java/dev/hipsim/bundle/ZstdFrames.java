package dev.hipsim.bundle;

import dev.hipsim.elf.ByteSource;
import dev.hipsim.elf.ElfFormatException;

/**
 * Finds where a zstd frame ends without decompressing it (RFC 8878 frame and block headers), for version-1
 * compressed bundles, which do not record their own size.
 */
final class ZstdFrames {
  static final int MAGIC = 0xFD2FB528;
  private static final int MAX_BLOCK = 128 * 1024;

  private ZstdFrames() {}

  /** Length in bytes of the zstd frame at {@code offset}, which must end before {@code limit}. */
  static long frameLength(ByteSource in, long offset, long limit) throws BundleFormatException {
    try {
      if (limit - offset < 6 || in.s32(offset) != MAGIC) {
        throw new BundleFormatException(offset, "compressed payload is not a zstd frame");
      }
      int descriptor = in.u8(offset + 4);
      if ((descriptor & 0x08) != 0) {
        throw new BundleFormatException(offset + 4, "zstd frame header has its reserved bit set");
      }
      int sizeFlag = descriptor >>> 6;
      boolean singleSegment = (descriptor & 0x20) != 0;
      boolean checksum = (descriptor & 0x04) != 0;
      int dictionaryIdSize = new int[] {0, 1, 2, 4}[descriptor & 3];
      int contentSizeBytes = new int[] {singleSegment ? 1 : 0, 2, 4, 8}[sizeFlag];
      long at = offset + 5 + (singleSegment ? 0 : 1) + dictionaryIdSize + contentSizeBytes;
      while (true) {
        if (at + 3 > limit) throw new BundleFormatException(at, "zstd frame is truncated (block header missing)");
        int header = in.u8(at) | in.u8(at + 1) << 8 | in.u8(at + 2) << 16;
        boolean last = (header & 1) != 0;
        int type = (header >>> 1) & 3;
        int size = header >>> 3;
        if (type == 3) throw new BundleFormatException(at, "zstd block of the reserved type 3");
        if (size > MAX_BLOCK) {
          throw new BundleFormatException(at, "zstd block of " + size + " bytes exceeds the 128 KiB maximum");
        }
        long contentLength = type == 1 ? 1 : size;
        at += 3 + contentLength;
        if (at > limit) throw new BundleFormatException(at - contentLength, "zstd block runs past the data");
        if (last) break;
      }
      if (checksum) at += 4;
      if (at > limit) throw new BundleFormatException(at - 4, "zstd frame checksum is missing");
      return at - offset;
    } catch (ElfFormatException e) {
      throw new BundleFormatException(e.offset(), "zstd frame is truncated");
    }
  }
}
