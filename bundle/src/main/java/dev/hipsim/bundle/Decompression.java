package dev.hipsim.bundle;

import dev.hipsim.elf.ByteSource;
import dev.hipsim.elf.ElfFormatException;
import io.airlift.compress.zstd.ZstdDecompressor;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * zlib and zstd decompression into a buffer of the size a header declares, refusing sizes over the configured limit
 * before allocating anything.
 */
final class Decompression {
  private Decompression() {}

  /** The payload and how much of the input the compressed stream took. */
  record Result(byte[] data, int produced, long consumed) {}

  /** Checks a declared size against the limit before it is used to allocate. */
  static void checkLimit(long where, String what, long size, ReadOptions options) throws DecompressionLimitException {
    if (size < 0 || size > options.maxDecompressedSize()) {
      throw new DecompressionLimitException(where, what, size < 0 ? Long.MAX_VALUE : size,
          options.maxDecompressedSize());
    }
  }

  /**
   * Decompresses {@code length} bytes at {@code offset} into a buffer of {@code declared} bytes. Output beyond the
   * declared size is an error; less output is returned as it is (the caller decides whether to warn).
   */
  static Result decompress(CompressionMethod method, ByteSource in, long offset, long length, long declared,
      long reportAt, ReadOptions options) throws BundleFormatException {
    checkLimit(reportAt, "declared uncompressed size", declared, options);
    checkLimit(reportAt, "compressed data", length, options);
    byte[] out = new byte[(int) declared];
    return method == CompressionMethod.ZLIB
        ? inflate(view(in, offset, length), out, reportAt)
        : unzstd(copy(in, offset, length), out, reportAt);
  }

  /** Length of the zlib stream at {@code offset} (for version-1 bundles), decompressing into a scratch buffer. */
  static long zlibStreamLength(ByteSource in, long offset, long length, long declared, long reportAt,
      ReadOptions options) throws BundleFormatException {
    checkLimit(reportAt, "declared uncompressed size", declared, options);
    long usable = Math.min(length, options.maxDecompressedSize());
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(view(in, offset, usable));
      byte[] scratch = new byte[64 * 1024];
      long produced = 0;
      while (!inflater.finished()) {
        int n = inflater.inflate(scratch);
        produced += n;
        if (produced > declared) {
          throw new BundleFormatException(reportAt, "zlib data decompresses to more than the declared "
              + declared + " bytes");
        }
        if (n == 0 && !inflater.finished()) {
          if (inflater.needsDictionary()) {
            throw new BundleFormatException(reportAt, "zlib stream needs a preset dictionary");
          }
          if (inflater.needsInput()) {
            throw new BundleFormatException(offset + usable, "zlib stream is truncated (no end of stream)");
          }
        }
      }
      return usable - inflater.getRemaining();
    } catch (DataFormatException e) {
      throw new BundleFormatException(reportAt, "zlib data is corrupt: " + e.getMessage());
    } finally {
      inflater.end();
    }
  }

  private static Result inflate(ByteBuffer input, byte[] out, long reportAt) throws BundleFormatException {
    Inflater inflater = new Inflater();
    try {
      int total = input.remaining();
      inflater.setInput(input);
      int produced = 0;
      while (!inflater.finished()) {
        int n = inflater.inflate(out, produced, out.length - produced);
        produced += n;
        if (n > 0) continue;
        if (inflater.finished()) break;
        if (inflater.needsDictionary()) {
          throw new BundleFormatException(reportAt, "zlib stream needs a preset dictionary");
        }
        if (inflater.needsInput()) {
          throw new BundleFormatException(reportAt, "zlib stream is truncated (no end of stream)");
        }
        if (produced == out.length) {
          byte[] probe = new byte[1];
          if (inflater.inflate(probe) > 0) {
            throw new BundleFormatException(reportAt, "zlib data decompresses to more than the declared "
                + out.length + " bytes");
          }
          if (!inflater.finished() && inflater.needsInput()) {
            throw new BundleFormatException(reportAt, "zlib stream is truncated (no end of stream)");
          }
        }
      }
      return new Result(out, produced, total - inflater.getRemaining());
    } catch (DataFormatException e) {
      throw new BundleFormatException(reportAt, "zlib data is corrupt: " + e.getMessage());
    } finally {
      inflater.end();
    }
  }

  private static Result unzstd(byte[] input, byte[] out, long reportAt) throws BundleFormatException {
    int produced;
    try {
      produced = new ZstdDecompressor().decompress(input, 0, input.length, out, 0, out.length);
    } catch (RuntimeException e) {
      // aircompressor reports malformed input (and output that would overflow the declared size) this way.
      throw new BundleFormatException(reportAt, "zstd data is corrupt or larger than the declared " + out.length
          + " bytes: " + e.getMessage());
    }
    return new Result(out, produced, input.length);
  }

  private static ByteBuffer view(ByteSource in, long offset, long length) throws BundleFormatException {
    try {
      return in.slice(offset, length);
    } catch (ElfFormatException e) {
      throw new BundleFormatException(e.offset(), "compressed data runs past the end of the file");
    }
  }

  private static byte[] copy(ByteSource in, long offset, long length) throws BundleFormatException {
    ByteBuffer view = view(in, offset, length);
    byte[] bytes = new byte[(int) length];
    view.get(bytes);
    return bytes;
  }
}
