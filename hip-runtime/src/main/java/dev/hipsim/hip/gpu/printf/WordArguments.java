package dev.hipsim.hip.gpu.printf;

/**
 * printf arguments as the device sends them: one 64-bit word per integer, pointer or (double-promoted) float, and
 * each string inline, NUL-terminated and padded with zeros to a whole number of words.
 */
public final class WordArguments implements CFormat.Arguments {
  private final long[] words;
  private int next;
  private final int end;

  public WordArguments(long[] words, int from, int end) {
    this.words = words;
    this.next = from;
    this.end = end;
  }

  @Override
  public boolean hasNext() {
    return next < end;
  }

  @Override
  public long nextWord() {
    return next < end ? words[next++] : 0;
  }

  @Override
  public byte[] nextString() {
    int start = next;
    byte[] s = stringAt(words, start, end);
    next = Math.min(end, start + (s.length + 8) / 8);
    return s;
  }

  /** The bytes of the NUL-terminated string stored from word {@code start} (little-endian), up to {@code end}. */
  public static byte[] stringAt(long[] words, int start, int end) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (int w = start; w < end; w++) {
      long v = words[w];
      for (int b = 0; b < 8; b++) {
        int c = (int) (v >>> (8 * b)) & 0xff;
        if (c == 0) return out.toByteArray();
        out.write(c);
      }
    }
    return out.toByteArray();
  }
}
