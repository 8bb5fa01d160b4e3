package dev.hipsim.hip.gpu.printf;

import dev.hipsim.bundle.metadata.PrintfFormat;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The buffered printf of {@code hidden_printf_buffer}: the device reserves records with {@code __printf_alloc} in a
 * buffer whose first two words are the bytes used and the buffer's size, and the runtime prints them after the
 * dispatch, with the format strings of the code object's {@code amdhsa.printf} metadata. Two record layouts exist:
 * <ul>
 *   <li>HIP's ({@code 0:0:HASH,FORMAT} metadata, clang {@code -mprintf-kind=buffered}): a control word (bit 0
 *   stderr, bit 1 constant format, bits 2..31 the record's size), the format's 64-bit MD5 hash or the format itself
 *   inline, then one 8-byte word per argument and strings inline, padded to 8 bytes;</li>
 *   <li>OpenCL's ({@code ID:N:S1:…:SN:FORMAT}): the 32-bit printf ID, then each argument in its metadata size.</li>
 * </ul>
 */
public final class BufferedPrintf {
  /** Bytes before the first record: the used-bytes counter and the size. */
  public static final int HEADER = 8;
  private static final Pattern SHORT_HASH = Pattern.compile("([0-9a-f]{1,15}),");

  private final Map<Long, String> byHash = new HashMap<>();
  private final Map<Long, PrintfFormat> byId = new HashMap<>();

  public BufferedPrintf(List<PrintfFormat> formats) {
    for (PrintfFormat f : formats) {
      if (f.hipHash().isPresent()) {
        byHash.put(Long.parseUnsignedLong(f.hipHash().get(), 16), f.format());
        continue;
      }
      // LLVM writes the hash without leading zeros; the metadata decoder only splits 16-digit ones.
      Matcher m = SHORT_HASH.matcher(f.format());
      if (f.argumentSizes().isEmpty() && f.id() == 0 && m.lookingAt()) {
        byHash.put(Long.parseUnsignedLong(m.group(1), 16), f.format().substring(m.end()));
      } else {
        byId.put(f.id(), f);
      }
    }
  }

  public boolean isEmpty() {
    return byHash.isEmpty() && byId.isEmpty();
  }

  /**
   * Prints the records in {@code data} (the buffer's bytes from offset {@link #HEADER}, {@code used} of them).
   * Returns the number of records printed; a record that cannot be read ends the walk (the rest is lost, as with a
   * corrupt buffer on hardware) and is reported through {@code problems}.
   */
  public int print(ByteBuffer data, int used, PrintfSink sink, java.util.function.Consumer<String> problems) {
    ByteBuffer b = data.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int pos = 0;
    int count = 0;
    while (pos + 4 <= used) {
      int at = pos;
      if (!byHash.isEmpty()) {
        int control = b.getInt(at);
        int size = control >>> 2;
        if (size < 4 || at + size > used) {
          problems.accept(String.format("printf buffer record at offset %d has size %d (buffer holds %d bytes)",
              at, size, used));
          return count;
        }
        boolean constant = (control & 2) != 0;
        String format;
        int args;
        if (constant) {
          long hash = b.getLong(at + 4);
          format = byHash.get(hash);
          if (format == null) {
            problems.accept(String.format("printf buffer record at offset %d names format hash %x, which the code "
                + "object's amdhsa.printf does not list", at, hash));
            pos += size;
            continue;
          }
          args = at + 12;
        } else {
          byte[] inline = cString(b, at + 4, at + size);
          format = new String(inline, StandardCharsets.ISO_8859_1);
          args = at + 4 + ((inline.length + 8) & ~7);
        }
        long[] words = new long[Math.max(0, (at + size - args) / 8)];
        for (int i = 0; i < words.length; i++) words[i] = b.getLong(args + 8 * i);
        sink.write((control & 1) != 0, CFormat.format(format.getBytes(StandardCharsets.ISO_8859_1),
            new WordArguments(words, 0, words.length)));
        pos += size;
      } else {
        int id = b.getInt(at);
        PrintfFormat f = byId.get(id & 0xffff_ffffL);
        if (f == null) {
          problems.accept(String.format("printf buffer record at offset %d has printf ID %d, which the code "
              + "object's amdhsa.printf does not list", at, id));
          return count;
        }
        int p = at + 4;
        long[] words = new long[f.argumentSizes().size()];
        for (int i = 0; i < words.length; i++) {
          int s = f.argumentSizes().get(i);
          if (p + s > used) {
            problems.accept("printf buffer record at offset " + at + " is cut short");
            return count;
          }
          words[i] = s >= 8 ? b.getLong(p) : s == 4 ? b.getInt(p) & 0xffff_ffffL : s == 2 ? b.getShort(p) & 0xffff
              : b.get(p) & 0xff;
          p += (s + 3) & ~3;
        }
        sink.write(false, CFormat.format(f.format().getBytes(StandardCharsets.ISO_8859_1),
            new SizedArguments(words, f.argumentSizes())));
        pos = p;
      }
      count++;
    }
    return count;
  }

  private static byte[] cString(ByteBuffer b, int from, int end) {
    int n = 0;
    while (from + n < end && b.get(from + n) != 0) n++;
    byte[] s = new byte[n];
    b.get(from, s);
    return s;
  }

  /** OpenCL-style arguments: 4-byte floats are widened to double for the float conversions. */
  private static final class SizedArguments implements CFormat.Arguments {
    private final long[] words;
    private final List<Integer> sizes;
    private int next;

    SizedArguments(long[] words, List<Integer> sizes) {
      this.words = words;
      this.sizes = sizes;
    }

    @Override
    public boolean hasNext() {
      return next < words.length;
    }

    @Override
    public long nextWord() {
      return next < words.length ? words[next++] : 0;
    }

    @Override
    public double nextDouble() {
      int i = next;
      long w = nextWord();
      return i < sizes.size() && sizes.get(i) == 4 ? Float.intBitsToFloat((int) w) : Double.longBitsToDouble(w);
    }

    @Override
    public byte[] nextString() {
      long w = nextWord();
      byte[] s = new byte[8];
      int n = 0;
      while (n < 8 && ((w >>> (8 * n)) & 0xff) != 0) {
        s[n] = (byte) (w >>> (8 * n));
        n++;
      }
      return java.util.Arrays.copyOf(s, n);
    }
  }
}
