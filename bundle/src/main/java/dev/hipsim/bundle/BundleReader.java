package dev.hipsim.bundle;

import dev.hipsim.bundle.target.EntryId;
import dev.hipsim.bundle.target.EntryIdFormatException;
import dev.hipsim.elf.ByteSource;
import dev.hipsim.elf.ElfFormatException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads clang offload bundles, plain ({@code __CLANG_OFFLOAD_BUNDLE__}) and compressed ({@code CCOB} v1–v3), from
 * any {@link ByteSource}: a whole file, or the {@code .hip_fatbin} section of a host binary, where one bundle per
 * translation unit follows the other.
 *
 * <p>Every count, size and offset read from the input is checked against the data present before it is used, and
 * a compressed bundle's declared size against {@link ReadOptions#maxDecompressedSize()} before anything is
 * allocated. All problems are {@link BundleFormatException}s naming the file offset.
 */
public final class BundleReader {
  public static final String PLAIN_MAGIC = "__CLANG_OFFLOAD_BUNDLE__";
  private static final byte[] PLAIN_MAGIC_BYTES = PLAIN_MAGIC.getBytes(StandardCharsets.US_ASCII);
  private static final byte[] CCOB_MAGIC_BYTES = CompressedHeader.MAGIC.getBytes(StandardCharsets.US_ASCII);
  /** Entry headers are at least 24 bytes (offset, size, ID length). */
  private static final int ENTRY_HEADER = 24;
  private static final int PLAIN_HEADER = 32;
  private static final int MAX_ID_LENGTH = 64 * 1024;
  /** More entries than any real bundle has; keeps a forged count from building millions of records. */
  public static final int MAX_ENTRIES = 1 << 16;
  /** More bundles than any real section holds (librocsparse has 111). */
  public static final int MAX_BUNDLES = 1 << 16;

  private BundleReader() {}

  /** Whether a plain or compressed bundle magic starts at {@code offset}. */
  public static boolean isBundleAt(ByteSource in, long offset) {
    return hasMagic(in, offset, PLAIN_MAGIC_BYTES) || hasMagic(in, offset, CCOB_MAGIC_BYTES);
  }

  /** Whether a plain bundle magic starts at {@code offset}. */
  public static boolean isPlainBundleAt(ByteSource in, long offset) {
    return hasMagic(in, offset, PLAIN_MAGIC_BYTES);
  }

  /**
   * Finds every bundle in {@code [start, start + length)} without decompressing any: each bundle's extent comes
   * from its header (plain: the furthest entry; CCOB v2/v3: the total size; CCOB v1: the end of its compressed
   * stream). Zero padding between bundles is skipped; anything else there is an error.
   */
  public static List<BundleLocation> locate(ByteSource in, long start, long length, ReadOptions options)
      throws BundleFormatException {
    long end = start + length;
    if (start < 0 || length < 0 || end > in.size() || end < start) {
      throw new BundleFormatException(start, "region of " + length + " bytes lies outside the file of "
          + in.size() + " bytes");
    }
    List<BundleLocation> out = new ArrayList<>();
    long at = start;
    while (true) {
      at = skipZeros(in, at, end);
      if (at >= end) break;
      if (out.size() >= MAX_BUNDLES) {
        throw new BundleFormatException(at, "more than " + MAX_BUNDLES + " bundles in one section");
      }
      BundleLocation found = locateOne(in, at, end, out.size(), options);
      out.add(found);
      at = found.offset() + found.length();
    }
    return out;
  }

  /** Finds the extent of the bundle that starts at {@code offset} and must end by {@code limit}. */
  public static BundleLocation locateOne(ByteSource in, long offset, long limit, int index, ReadOptions options)
      throws BundleFormatException {
    if (hasMagic(in, offset, PLAIN_MAGIC_BYTES)) {
      PlainHeader h = readPlainHeader(in, offset, limit, new InFile());
      return new BundleLocation(index, offset, h.extent(), BundleFormat.PLAIN, Optional.empty());
    }
    if (hasMagic(in, offset, CCOB_MAGIC_BYTES)) {
      CompressedHeader h = readCompressedHeader(in, offset, limit);
      long length;
      if (h.version() == 1) {
        long dataAt = offset + h.headerSize();
        long stream = h.method() == CompressionMethod.ZSTD
            ? ZstdFrames.frameLength(in, dataAt, limit)
            : Decompression.zlibStreamLength(in, dataAt, limit - dataAt, h.uncompressedSize(), offset, options);
        length = h.headerSize() + stream;
      } else {
        length = h.declaredTotalSize();
      }
      return new BundleLocation(index, offset, length, BundleFormat.COMPRESSED, Optional.of(h));
    }
    throw new BundleFormatException(offset, "expected an offload bundle here (magic " + PLAIN_MAGIC + " or "
        + CompressedHeader.MAGIC + "), found bytes " + hexPrefix(in, offset, limit));
  }

  /** Reads one bundle found by {@link #locate}: its entries, decompressing it if it is compressed. */
  public static OffloadBundle open(ByteSource in, BundleLocation location, ReadOptions options)
      throws BundleFormatException {
    long offset = location.offset();
    if (location.format() == BundleFormat.PLAIN) {
      PlainHeader h = readPlainHeader(in, offset, offset + location.length(), new InFile());
      return new OffloadBundle(location, in, offset, h.extent(), h.entries(), Optional.empty(), h.warnings());
    }
    CompressedHeader h = location.compression().orElseThrow();
    long dataAt = offset + h.headerSize();
    Decompression.Result r = Decompression.decompress(h.method(), in, dataAt, location.length() - h.headerSize(),
        h.uncompressedSize(), offset, options);
    List<String> warnings = new ArrayList<>();
    if (r.produced() != h.uncompressedSize()) {
      warnings.add("payload decompresses to " + r.produced() + " bytes, not the declared " + h.uncompressedSize());
    }
    long actualHash = md5Low64(r.data(), r.produced());
    boolean hashOk = actualHash == h.storedHash();
    if (!hashOk) {
      warnings.add(String.format("stored hash 0x%016x does not match the payload's MD5 (0x%016x)", h.storedHash(),
          actualHash));
    }
    ByteSource payload = ByteSource.of(java.nio.ByteBuffer.wrap(r.data(), 0, r.produced()));
    InPayload where = new InPayload(offset);
    if (!hasMagic(payload, 0, PLAIN_MAGIC_BYTES)) {
      throw where.error(0, "decompressed payload is not a plain offload bundle (no " + PLAIN_MAGIC + ")");
    }
    PlainHeader plain = readPlainHeader(payload, 0, r.produced(), where);
    warnings.addAll(plain.warnings());
    return new OffloadBundle(location, payload, 0, r.produced(), plain.entries(), Optional.of(hashOk), warnings);
  }

  /** Reads the bundle that starts at {@code offset} (and must end by {@code limit}). */
  public static OffloadBundle read(ByteSource in, long offset, long limit, ReadOptions options)
      throws BundleFormatException {
    return open(in, locateOne(in, offset, limit, 0, options), options);
  }

  /** Reads a whole buffer or file that holds one or more bundles. */
  public static List<OffloadBundle> readAll(ByteSource in, ReadOptions options) throws BundleFormatException {
    List<OffloadBundle> out = new ArrayList<>();
    for (BundleLocation l : locate(in, 0, in.size(), options)) out.add(open(in, l, options));
    return out;
  }

  /** The low 64 bits of the MD5 digest as LLVM stores them: the digest's first eight bytes, little-endian. */
  public static long md5Low64(byte[] data, int length) {
    try {
      MessageDigest md5 = MessageDigest.getInstance("MD5");
      md5.update(data, 0, length);
      byte[] d = md5.digest();
      long v = 0;
      for (int i = 7; i >= 0; i--) v = v << 8 | (d[i] & 0xff);
      return v;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform provides MD5", e);
    }
  }

  // ------------------------------------------------------------------------------------------- internals

  /** Turns a position in the data being parsed into an error naming a file offset. */
  private interface Where {
    BundleFormatException error(long position, String problem);
  }

  /** Parsing the file itself: positions are file offsets. */
  private static final class InFile implements Where {
    @Override
    public BundleFormatException error(long position, String problem) {
      return new BundleFormatException(position, problem);
    }
  }

  /** Parsing a decompressed payload: the error names the compressed bundle's file offset and the payload offset. */
  private record InPayload(long bundleOffset) implements Where {
    @Override
    public BundleFormatException error(long position, String problem) {
      return new BundleFormatException(bundleOffset,
          String.format("in the decompressed payload at offset 0x%x: %s", position, problem));
    }
  }

  private record PlainHeader(List<BundleEntry> entries, long extent, List<String> warnings) {}

  private static PlainHeader readPlainHeader(ByteSource in, long base, long limit, Where where)
      throws BundleFormatException {
    try {
      long available = limit - base;
      if (available < PLAIN_HEADER) {
        throw where.error(base, "bundle header needs 32 bytes, only " + available + " present");
      }
      long count = in.u64(base + 24);
      long room = (available - PLAIN_HEADER) / ENTRY_HEADER;
      if (count < 0 || count > room) {
        throw where.error(base + 24, "bundle declares " + Long.toUnsignedString(count)
            + " entries, but there is room for at most " + room);
      }
      if (count > MAX_ENTRIES) {
        throw where.error(base + 24, "bundle declares " + count + " entries (more than " + MAX_ENTRIES + ")");
      }
      List<BundleEntry> entries = new ArrayList<>((int) count);
      List<String> warnings = new ArrayList<>();
      Set<String> seen = new HashSet<>();
      long at = base + PLAIN_HEADER;
      long[] fieldAt = new long[(int) count];
      for (int i = 0; i < count; i++) {
        if (limit - at < ENTRY_HEADER) throw where.error(at, "entry " + i + " header runs past the data");
        long offset = in.u64(at);
        long size = in.u64(at + 8);
        long idLength = in.u64(at + 16);
        fieldAt[i] = at;
        at += ENTRY_HEADER;
        if (idLength < 0 || idLength > limit - at || idLength > MAX_ID_LENGTH) {
          throw where.error(at - 8, "entry " + i + " ID length " + Long.toUnsignedString(idLength)
              + " runs past the data (" + (limit - at) + " bytes left)");
        }
        String id = new String(in.bytes(at, (int) idLength), StandardCharsets.UTF_8);
        at += idLength;
        if (offset < 0 || size < 0 || offset > available || size > available - offset) {
          throw where.error(fieldAt[i], String.format("entry %d (%s) of %s bytes at bundle offset 0x%s runs past"
              + " the %d bytes available", i, id, Long.toUnsignedString(size), Long.toUnsignedString(offset, 16),
              available));
        }
        if (!seen.add(id)) warnings.add("entry ID " + id + " appears more than once");
        entries.add(new BundleEntry(i, id, parse(id), offset, size));
      }
      long headerEnd = at - base;
      long extent = headerEnd;
      for (BundleEntry e : entries) {
        if (e.offset() < headerEnd && e.size() > 0) {
          throw where.error(fieldAt[e.index()], String.format("entry %d (%s) at bundle offset 0x%x overlaps the"
              + " bundle header, which ends at 0x%x", e.index(), e.id(), e.offset(), headerEnd));
        }
        extent = Math.max(extent, e.offset() + e.size());
      }
      return new PlainHeader(entries, extent, warnings);
    } catch (ElfFormatException e) {
      throw where.error(e.offset(), "bundle header is truncated");
    }
  }

  private static Optional<EntryId> parse(String id) {
    try {
      return Optional.of(EntryId.parse(id));
    } catch (EntryIdFormatException e) {
      return Optional.empty();
    }
  }

  private static CompressedHeader readCompressedHeader(ByteSource in, long offset, long limit)
      throws BundleFormatException {
    try {
      if (limit - offset < 8) throw new BundleFormatException(offset, "compressed bundle header is truncated");
      int version = in.u16(offset + 4);
      int methodCode = in.u16(offset + 6);
      int headerSize = CompressedHeader.headerSize(version);
      if (headerSize < 0) {
        throw new BundleFormatException(offset + 4, "unknown compressed bundle version " + version
            + " (known: 1, 2, 3)");
      }
      CompressionMethod method = CompressionMethod.ofCode(methodCode).orElseThrow(() -> new BundleFormatException(
          offset + 6, "unknown compression method " + methodCode + " (known: 0 zlib, 1 zstd)"));
      if (limit - offset < headerSize) {
        throw new BundleFormatException(offset, "compressed bundle version " + version + " needs a " + headerSize
            + "-byte header, only " + (limit - offset) + " bytes present");
      }
      long total;
      long uncompressed;
      long hash;
      switch (version) {
        case 1:
          total = 0;
          uncompressed = in.u32(offset + 8);
          hash = in.u64(offset + 12);
          break;
        case 2:
          total = in.u32(offset + 8);
          uncompressed = in.u32(offset + 12);
          hash = in.u64(offset + 16);
          break;
        default:
          total = in.u64(offset + 8);
          uncompressed = in.u64(offset + 16);
          hash = in.u64(offset + 24);
          break;
      }
      if (version >= 2 && (total < headerSize || total > limit - offset)) {
        throw new BundleFormatException(offset + 8, "compressed bundle declares a total size of "
            + Long.toUnsignedString(total) + " bytes; between " + headerSize + " and " + (limit - offset)
            + " are possible here");
      }
      if (uncompressed < 0) {
        throw new BundleFormatException(offset + (version == 3 ? 16 : 8), "declared uncompressed size "
            + Long.toUnsignedString(uncompressed) + " is impossible");
      }
      return new CompressedHeader(version, method, total, uncompressed, hash, headerSize);
    } catch (ElfFormatException e) {
      throw new BundleFormatException(e.offset(), "compressed bundle header is truncated");
    }
  }

  private static boolean hasMagic(ByteSource in, long offset, byte[] magic) {
    if (offset < 0 || in.size() - offset < magic.length) return false;
    try {
      for (int i = 0; i < magic.length; i++) {
        if (in.u8(offset + i) != (magic[i] & 0xff)) return false;
      }
      return true;
    } catch (ElfFormatException e) {
      return false;
    }
  }

  /** The first non-zero byte at or after {@code at} (or {@code end}); scans views of the data, not single reads. */
  private static long skipZeros(ByteSource in, long at, long end) throws BundleFormatException {
    try {
      while (at < end) {
        int chunk = (int) Math.min(end - at, 1 << 16);
        java.nio.ByteBuffer view = in.slice(at, chunk);
        int i = 0;
        while (i + 8 <= chunk && view.getLong(i) == 0) i += 8;
        while (i < chunk && view.get(i) == 0) i++;
        if (i < chunk) return at + i;
        at += chunk;
      }
      return end;
    } catch (ElfFormatException e) {
      throw new BundleFormatException(at, "cannot read between bundles: " + e.getMessage());
    }
  }

  private static String hexPrefix(ByteSource in, long offset, long limit) {
    StringBuilder s = new StringBuilder();
    try {
      for (long i = offset; i < Math.min(limit, offset + 8); i++) s.append(String.format("%02x ", in.u8(i)));
    } catch (ElfFormatException e) {
      s.append("(unreadable)");
    }
    return s.toString().trim();
  }
}
