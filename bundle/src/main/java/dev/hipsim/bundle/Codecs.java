package dev.hipsim.bundle;

import io.airlift.compress.zstd.ZstdCompressor;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.zip.Deflater;

/** Compression as the writers need it: zlib streams (java.util.zip) and zstd frames (aircompressor). */
public final class Codecs {
  private Codecs() {}

  /** Compresses {@code input}; {@code level} applies to zlib (0–9), zstd uses aircompressor's fixed level. */
  public static byte[] compress(CompressionMethod method, byte[] input, int level) {
    return method == CompressionMethod.ZLIB ? zlib(input, level) : zstd(input);
  }

  private static byte[] zlib(byte[] input, int level) {
    Deflater deflater = new Deflater(level);
    try {
      deflater.setInput(input);
      deflater.finish();
      ByteArrayOutputStream out = new ByteArrayOutputStream(input.length / 2 + 64);
      byte[] chunk = new byte[64 * 1024];
      while (!deflater.finished()) out.write(chunk, 0, deflater.deflate(chunk));
      return out.toByteArray();
    } finally {
      deflater.end();
    }
  }

  private static byte[] zstd(byte[] input) {
    ZstdCompressor compressor = new ZstdCompressor();
    byte[] out = new byte[compressor.maxCompressedLength(input.length)];
    int n = compressor.compress(input, 0, input.length, out, 0, out.length);
    return Arrays.copyOf(out, n);
  }
}
