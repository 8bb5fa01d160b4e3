package dev.hipsim.bundle.offload;

import dev.hipsim.bundle.Codecs;
import dev.hipsim.bundle.CompressionMethod;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes OffloadBinaries laid out as LLVM's {@code OffloadBinary::write} does: header, entries, string entries,
 * string table, then the images at a multiple of 8, the whole padded to 8. Version 1 is what LLVM 22 writes;
 * versions 2 and 3 add an entry count and sized strings, and version 3 optional compression.
 */
public final class OffloadBinaryWriter {
  private OffloadBinaryWriter() {}

  /** One image to write. */
  public record ImageInput(ImageKind kind, ImageProducer producer, long flags, Map<String, String> strings,
      byte[] image) {}

  /** An uncompressed binary of {@code version} 1 (exactly one image), 2 or 3. */
  public static byte[] write(int version, List<ImageInput> images) {
    if (version < 1 || version > 3) throw new IllegalArgumentException("version must be 1, 2 or 3: " + version);
    if (images.isEmpty() || version == 1 && images.size() != 1) {
      throw new IllegalArgumentException("version " + version + " cannot hold " + images.size() + " images");
    }
    int headerSize = version == 3 ? OffloadBinaryReader.HEADER_V3 : OffloadBinaryReader.HEADER_V1_V2;
    int stringEntrySize = version == 1 ? 16 : 24;

    // String table: a leading NUL, then each distinct string once, NUL-terminated.
    ByteArrayOutputStream table = new ByteArrayOutputStream();
    table.write(0);
    Map<String, Integer> positions = new LinkedHashMap<>();
    int totalStrings = 0;
    long imagesSize = 0;
    for (ImageInput img : images) {
      for (Map.Entry<String, String> kv : img.strings().entrySet()) {
        for (String s : List.of(kv.getKey(), kv.getValue())) {
          positions.computeIfAbsent(s, k -> {
            int at = table.size();
            table.writeBytes(k.getBytes(StandardCharsets.UTF_8));
            table.write(0);
            return at;
          });
        }
        totalStrings++;
      }
      imagesSize += img.image().length;
    }
    long entriesSize = (long) OffloadBinaryReader.ENTRY_SIZE * images.size();
    long stringTableAt = headerSize + entriesSize + (long) stringEntrySize * totalStrings;
    long imagesAt = align8(stringTableAt + table.size());
    long size = align8(imagesAt + imagesSize);
    if (size > Integer.MAX_VALUE) throw new IllegalArgumentException("binary of " + size + " bytes is too large");

    ByteBuffer out = ByteBuffer.allocate((int) size).order(ByteOrder.LITTLE_ENDIAN);
    out.putInt(Integer.reverseBytes(OffloadBinary.MAGIC)).putInt(version).putLong(size).putLong(headerSize);
    out.putLong(version == 1 ? OffloadBinaryReader.ENTRY_SIZE : images.size());
    if (version == 3) out.putLong(0);
    long stringEntryAt = headerSize + entriesSize;
    long imageAt = imagesAt;
    for (ImageInput img : images) {
      out.putShort((short) img.kind().code()).putShort((short) img.producer().code()).putInt((int) img.flags());
      out.putLong(stringEntryAt).putLong(img.strings().size()).putLong(imageAt).putLong(img.image().length);
      stringEntryAt += (long) stringEntrySize * img.strings().size();
      imageAt += img.image().length;
    }
    for (ImageInput img : images) {
      for (Map.Entry<String, String> kv : img.strings().entrySet()) {
        out.putLong(stringTableAt + positions.get(kv.getKey()));
        out.putLong(stringTableAt + positions.get(kv.getValue()));
        if (version > 1) out.putLong(kv.getValue().getBytes(StandardCharsets.UTF_8).length);
      }
    }
    out.put(table.toByteArray());
    out.position((int) imagesAt);
    for (ImageInput img : images) out.put(img.image());
    return out.array();
  }

  /**
   * A version-3 binary whose entries (everything after the header) are compressed, as LLVM's
   * {@code OffloadBinary::write(…, Params)} does; the result is padded to 8 bytes beyond its {@code Size}.
   */
  public static byte[] writeCompressed(List<ImageInput> images, CompressionMethod method) {
    byte[] plain = write(3, images);
    int headerSize = OffloadBinaryReader.HEADER_V3;
    byte[] body = new byte[plain.length - headerSize];
    System.arraycopy(plain, headerSize, body, 0, body.length);
    byte[] packed = Codecs.compress(method, body, 6);
    long size = headerSize + packed.length;
    ByteBuffer out = ByteBuffer.allocate((int) align8(size)).order(ByteOrder.LITTLE_ENDIAN);
    out.put(plain, 0, headerSize);
    out.putLong(8, size);
    out.putLong(32, plain.length);
    out.position(headerSize);
    out.put(packed);
    return out.array();
  }

  /** Several binaries one after the other, each at a multiple of 8, as they lie in {@code .llvm.offloading}. */
  public static byte[] concatenate(List<byte[]> binaries) {
    List<byte[]> parts = new ArrayList<>(binaries);
    long total = 0;
    for (byte[] b : parts) total = align8(total + b.length);
    ByteBuffer out = ByteBuffer.allocate((int) total);
    long at = 0;
    for (byte[] b : parts) {
      out.position((int) at);
      out.put(b);
      at = align8(at + b.length);
    }
    return out.array();
  }

  private static long align8(long v) {
    return (v + 7) & -8L;
  }
}
