package dev.hipsim.bundle.offload;

import dev.hipsim.bundle.BundleFormatException;
import dev.hipsim.bundle.CompressionMethod;
import dev.hipsim.bundle.DecompressionLimitException;
import dev.hipsim.bundle.ReadOptions;
import dev.hipsim.elf.ByteSource;
import dev.hipsim.elf.ElfFormatException;
import io.airlift.compress.zstd.ZstdDecompressor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Reads LLVM OffloadBinaries: one after the other in a section, each starting at a multiple of 8 from the section
 * start. Every offset and count is checked against the binary's size, and a compressed binary's inflated size
 * against {@link ReadOptions#maxDecompressedSize()} before allocation.
 */
public final class OffloadBinaryReader {
  static final int ENTRY_SIZE = 40;
  static final int HEADER_V1_V2 = 32;
  static final int HEADER_V3 = 40;
  private static final int MAX_STRING = 64 * 1024;

  private OffloadBinaryReader() {}

  /** Whether the bytes at {@code offset} start with the OffloadBinary magic. */
  public static boolean isOffloadBinaryAt(ByteSource in, long offset) {
    try {
      return offset >= 0 && in.size() - offset >= 4 && in.s32(offset) == Integer.reverseBytes(OffloadBinary.MAGIC);
    } catch (ElfFormatException e) {
      return false;
    }
  }

  /** Every binary in {@code [start, start + length)}. */
  public static List<OffloadBinary> readAll(ByteSource in, long start, long length, ReadOptions options)
      throws BundleFormatException {
    if (start < 0 || length < 0 || length > in.size() - start) {
      throw new BundleFormatException(start, "region of " + length + " bytes lies outside the file");
    }
    List<OffloadBinary> out = new ArrayList<>();
    long at = 0;
    while (at < length) {
      OffloadBinary b = read(in, start + at, start + length, out.size(), options);
      out.add(b);
      long next = at + b.length();
      at = (next + OffloadBinary.ALIGNMENT - 1) & -OffloadBinary.ALIGNMENT;
    }
    return out;
  }

  /** The binary at {@code offset}, which must end by {@code limit}. */
  public static OffloadBinary read(ByteSource in, long offset, long limit, int index, ReadOptions options)
      throws BundleFormatException {
    try {
      if (limit - offset < HEADER_V1_V2) {
        throw new BundleFormatException(offset, "OffloadBinary header needs 32 bytes, only " + (limit - offset)
            + " present");
      }
      if (!isOffloadBinaryAt(in, offset)) {
        throw new BundleFormatException(offset, "expected an OffloadBinary (magic 10 ff 10 ad)");
      }
      long version = in.u32(offset + 4);
      if (version < 1 || version > 3) {
        throw new BundleFormatException(offset + 4, "unknown OffloadBinary version " + version + " (known: 1–3)");
      }
      int headerSize = version == 3 ? HEADER_V3 : HEADER_V1_V2;
      long size = in.u64(offset + 8);
      if (size < headerSize || size > limit - offset) {
        throw new BundleFormatException(offset + 8, "OffloadBinary size " + Long.toUnsignedString(size)
            + " is not between " + headerSize + " and the " + (limit - offset) + " bytes present");
      }
      long entriesOffset = in.u64(offset + 16);
      long inflated = version == 3 ? in.u64(offset + 32) : 0;
      if (inflated != 0) {
        return readCompressed(in, offset, size, (int) version, entriesOffset, inflated, index, options);
      }
      return parse(in, offset, size, (int) version, index, offset, size, false);
    } catch (ElfFormatException e) {
      throw new BundleFormatException(e.offset(), "OffloadBinary is truncated");
    }
  }

  private static OffloadBinary readCompressed(ByteSource in, long offset, long size, int version, long entriesOffset,
      long inflated, int index, ReadOptions options) throws BundleFormatException, ElfFormatException {
    if (entriesOffset < HEADER_V3 || entriesOffset > size || inflated < entriesOffset) {
      throw new BundleFormatException(offset + 16, "compressed OffloadBinary has entries offset " + entriesOffset
          + " and inflated size " + Long.toUnsignedString(inflated) + ", which do not fit its size " + size);
    }
    if (inflated > options.maxDecompressedSize()) {
      throw new DecompressionLimitException(offset + 32, "inflated OffloadBinary size", inflated,
          options.maxDecompressedSize());
    }
    long compressedLength = size - entriesOffset;
    if (compressedLength > options.maxDecompressedSize()) {
      throw new DecompressionLimitException(offset, "compressed OffloadBinary data", compressedLength,
          options.maxDecompressedSize());
    }
    byte[] compressedBytes = in.bytes(offset + entriesOffset, (int) compressedLength);
    byte[] whole = new byte[(int) inflated];
    ByteBuffer header = in.slice(offset, entriesOffset);
    header.get(whole, 0, (int) entriesOffset);
    int bodyLength = (int) (inflated - entriesOffset);
    boolean zstd = compressedLength >= 4
        && ByteBuffer.wrap(compressedBytes).order(ByteOrder.LITTLE_ENDIAN).getInt(0) == 0xFD2FB528;
    int produced = zstd ? unzstd(compressedBytes, whole, (int) entriesOffset, bodyLength, offset)
        : inflate(compressedBytes, whole, (int) entriesOffset, bodyLength, offset);
    if (produced != bodyLength) {
      throw new BundleFormatException(offset + 32, "compressed OffloadBinary inflates to " + produced
          + " bytes of entries, not the declared " + bodyLength);
    }
    // The restored header describes the uncompressed binary, as LLVM restores it.
    ByteBuffer w = ByteBuffer.wrap(whole).order(ByteOrder.LITTLE_ENDIAN);
    w.putLong(8, inflated);
    w.putLong(32, 0);
    ByteSource body = ByteSource.of(whole);
    OffloadBinary parsed = parse(body, 0, inflated, version, index, offset, size, true);
    return parsed;
  }

  private static int unzstd(byte[] input, byte[] out, int at, int length, long reportAt)
      throws BundleFormatException {
    try {
      return new ZstdDecompressor().decompress(input, 0, input.length, out, at, length);
    } catch (RuntimeException e) {
      throw new BundleFormatException(reportAt, "compressed OffloadBinary: zstd data is corrupt or too large: "
          + e.getMessage());
    }
  }

  private static int inflate(byte[] input, byte[] out, int at, int length, long reportAt)
      throws BundleFormatException {
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(input);
      int produced = 0;
      while (!inflater.finished()) {
        int n = inflater.inflate(out, at + produced, length - produced);
        produced += n;
        if (n == 0 && !inflater.finished()) {
          if (produced == length) {
            if (inflater.inflate(new byte[1]) > 0) {
              throw new BundleFormatException(reportAt, "compressed OffloadBinary inflates past its declared size");
            }
            if (inflater.finished()) break;
          }
          throw new BundleFormatException(reportAt, "compressed OffloadBinary: zlib stream is truncated");
        }
      }
      return produced;
    } catch (DataFormatException e) {
      throw new BundleFormatException(reportAt, "compressed OffloadBinary: zlib data is corrupt: " + e.getMessage());
    } finally {
      inflater.end();
    }
  }

  /**
   * Parses an uncompressed binary of {@code size} bytes at {@code base} of {@code in}; errors name {@code fileOffset}
   * (plus the position, when the binary is the file itself).
   */
  private static OffloadBinary parse(ByteSource in, long base, long size, int version, int index, long fileOffset,
      long fileLength, boolean compressed) throws BundleFormatException, ElfFormatException {
    Errors err = new Errors(compressed, fileOffset, base);
    long entriesOffset = in.u64(base + 16);
    long count = version == 1 ? 1 : in.u64(base + 24);
    if (count < 0 || count > size / ENTRY_SIZE) {
      throw err.at(base + 24, "OffloadBinary declares " + Long.toUnsignedString(count) + " entries, more than "
          + size / ENTRY_SIZE + " could fit");
    }
    if (entriesOffset < 0 || entriesOffset > size || count * ENTRY_SIZE > size - entriesOffset) {
      throw err.at(base + 16, "OffloadBinary entries (" + count + " at offset " + Long.toUnsignedString(entriesOffset)
          + ") run past its size " + size);
    }
    int stringEntrySize = version == 1 ? 16 : 24;
    List<OffloadImage> images = new ArrayList<>((int) count);
    for (int i = 0; i < count; i++) {
      long e = base + entriesOffset + (long) ENTRY_SIZE * i;
      int imageKind = in.u16(e);
      int producer = in.u16(e + 2);
      long flags = in.u32(e + 4);
      long stringOffset = in.u64(e + 8);
      long numStrings = in.u64(e + 16);
      long imageOffset = in.u64(e + 24);
      long imageSize = in.u64(e + 32);
      if (stringOffset < 0 || numStrings < 0 || stringOffset > size
          || numStrings > (size - stringOffset) / stringEntrySize) {
        throw err.at(e + 8, "entry " + i + ": " + Long.toUnsignedString(numStrings) + " strings at offset "
            + Long.toUnsignedString(stringOffset) + " run past the binary's " + size + " bytes");
      }
      if (imageOffset < 0 || imageSize < 0 || imageOffset > size || imageSize > size - imageOffset) {
        throw err.at(e + 24, "entry " + i + ": image of " + Long.toUnsignedString(imageSize) + " bytes at offset "
            + Long.toUnsignedString(imageOffset) + " runs past the binary's " + size + " bytes");
      }
      Map<String, String> strings = new LinkedHashMap<>();
      for (long s = 0; s < numStrings; s++) {
        long se = base + stringOffset + s * stringEntrySize;
        long keyOffset = in.u64(se);
        long valueOffset = in.u64(se + 8);
        String key = cString(in, base, size, keyOffset, se, err);
        String value;
        if (version == 1) {
          value = cString(in, base, size, valueOffset, se + 8, err);
        } else {
          long valueSize = in.u64(se + 16);
          if (valueOffset < 0 || valueSize < 0 || valueOffset > size || valueSize > size - valueOffset
              || valueSize > MAX_STRING) {
            throw err.at(se + 8, "string value of " + Long.toUnsignedString(valueSize) + " bytes at offset "
                + Long.toUnsignedString(valueOffset) + " runs past the binary");
          }
          value = new String(in.bytes(base + valueOffset, (int) valueSize), StandardCharsets.UTF_8);
        }
        strings.put(key, value);
      }
      images.add(new OffloadImage(i, imageKind, producer, flags, Collections.unmodifiableMap(strings), imageOffset,
          imageSize));
    }
    return new OffloadBinary(index, fileOffset, fileLength, version, compressed, images, in, base);
  }

  private static String cString(ByteSource in, long base, long size, long at, long referrer, Errors err)
      throws BundleFormatException, ElfFormatException {
    if (at < 0 || at >= size) {
      throw err.at(referrer, "string offset " + Long.toUnsignedString(at) + " is outside the binary's " + size
          + " bytes");
    }
    long limit = Math.min(size - at, MAX_STRING);
    ByteBuffer view = in.slice(base + at, limit);
    int n = 0;
    while (n < limit && view.get(n) != 0) n++;
    if (n == limit) throw err.at(base + at, "string is not NUL-terminated within the binary");
    byte[] bytes = new byte[n];
    view.get(0, bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /** Names file offsets in errors; inside a decompressed body, the binary's offset and the body position. */
  private record Errors(boolean compressed, long fileOffset, long base) {
    BundleFormatException at(long position, String problem) {
      if (!compressed) return new BundleFormatException(position, problem);
      return new BundleFormatException(fileOffset, String.format("in the decompressed OffloadBinary at offset 0x%x: %s",
          position - base, problem));
    }
  }

  /** Which method a compressed binary uses, for display (LLVM sniffs the zstd magic, else zlib). */
  public static CompressionMethod sniff(byte[] compressed) {
    return compressed.length >= 4 && ByteBuffer.wrap(compressed).order(ByteOrder.LITTLE_ENDIAN).getInt(0) == 0xFD2FB528
        ? CompressionMethod.ZSTD : CompressionMethod.ZLIB;
  }
}
