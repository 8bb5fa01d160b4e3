package dev.hipsim.hip.gpu.printf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.hipsim.hip.nativelib.NativeTools;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Device printf formatting against glibc's printf on the same values, and fixed cases. */
class CFormatTest {
  private static final String[] STRINGS = {"", "hip", "hello, world", "x", "a longer string of text", "tab\there"};

  private static String format(String fmt, long... words) {
    return new String(CFormat.format(fmt.getBytes(StandardCharsets.ISO_8859_1), new TestArguments(words)),
        StandardCharsets.ISO_8859_1);
  }

  /** Arguments as words; a string argument is an index into STRINGS (as in printf_reference.c). */
  private record TestArguments(long[] words, int[] next) implements CFormat.Arguments {
    TestArguments(long[] words) {
      this(words, new int[1]);
    }

    @Override
    public boolean hasNext() {
      return next[0] < words.length;
    }

    @Override
    public long nextWord() {
      return words[next[0]++];
    }

    @Override
    public byte[] nextString() {
      return STRINGS[(int) Long.remainderUnsigned(nextWord(), STRINGS.length)].getBytes(StandardCharsets.ISO_8859_1);
    }
  }

  @Test
  void fixedCases() {
    assertThat(format("block %d of %d: int=%d hex=0x%x float=%.3f str=%s char=%c long=%ld\n", 2, 4,
        -84L & 0xffff_ffffL, 0xbef1, Double.doubleToRawLongBits(3.0), 1, 'C', 1234567890123L))
        .isEqualTo("block 2 of 4: int=-84 hex=0xbef1 float=3.000 str=hip char=C long=1234567890123\n");
    assertThat(format("lane %u says %d%%\n", 2, 100)).isEqualTo("lane 2 says 100%\n");
    assertThat(format("%5.1f|%-6d|%06.2f|%+d|% d", Double.doubleToRawLongBits(2.25), 42,
        Double.doubleToRawLongBits(-1.5), 7, 7)).isEqualTo("  2.2|42    |-01.50|+7| 7");
    assertThat(format("%g %g %g %e", Double.doubleToRawLongBits(100000), Double.doubleToRawLongBits(1e6),
        Double.doubleToRawLongBits(0.0001), Double.doubleToRawLongBits(0))).isEqualTo("100000 1e+06 0.0001 0.000000e+00");
    assertThat(format("%a %A", Double.doubleToRawLongBits(1.5), Double.doubleToRawLongBits(-0.0)))
        .isEqualTo("0x1.8p+0 -0X0P+0");
    assertThat(format("%p %p", 0, 0xdeadbeefL)).isEqualTo("(nil) 0xdeadbeef");
    assertThat(format("%f %F", Double.doubleToRawLongBits(Double.NaN), Double.doubleToRawLongBits(
        Double.NEGATIVE_INFINITY))).isEqualTo("nan -INF");
    // Arguments running out end the output, as CLR's printf service stops.
    assertThat(format("a=%d b=%d", 1)).isEqualTo("a=1 b=");
    // An incomplete specifier is printed as it stands.
    assertThat(format("100%", 1)).isEqualTo("100%");
  }

  /** Random conversions, formatted by hipsim and by the C library of this machine, must agree byte for byte. */
  @Test
  void agreesWithTheHostCLibrary() throws Exception {
    String cc = NativeTools.compiler();
    Path out = Paths.get("target/test-native").toAbsolutePath();
    Files.createDirectories(out);
    Path exe = out.resolve("printf_reference");
    NativeTools.Run built = NativeTools.run(List.of(cc, "-std=gnu11", "-O1", "-Wno-format-security",
        "-Wno-format-nonliteral", "-o", exe.toString(), NativeTools.testSources().resolve("printf_reference.c")
            .toString()), Map.of(), 60);
    assumeTrue(built.exitCode() == 0, "the reference program does not build: " + built);
    Random random = new Random(20260708);
    List<String> formats = new ArrayList<>();
    List<long[]> words = new ArrayList<>();
    StringBuilder input = new StringBuilder();
    for (int i = 0; i < 4000; i++) {
      String fmt = randomSpec(random);
      long[] w = randomWords(random, fmt);
      formats.add(fmt);
      words.add(w);
      input.append(fmt);
      for (long x : w) input.append('\t').append(Long.toHexString(x));
      input.append('\n');
    }
    Path in = Files.createTempFile("printf", ".in");
    try {
      Files.writeString(in, input.toString(), StandardCharsets.ISO_8859_1);
      NativeTools.Run r = NativeTools.run(List.of("sh", "-c", exe + " < " + in), Map.of(), 60);
      assertThat(r.exitCode()).as(r.stderr()).isZero();
      String[] expected = r.stdout().split("\u001e", -1);
      assertThat(expected.length - 1).isEqualTo(formats.size());
      for (int i = 0; i < formats.size(); i++) {
        assertThat(format(formats.get(i), words.get(i))).as("printf(\"%s\", %s)", formats.get(i),
            java.util.Arrays.toString(words.get(i))).isEqualTo(expected[i]);
      }
    } finally {
      Files.deleteIfExists(in);
    }
  }

  private static String randomSpec(Random r) {
    StringBuilder sb = new StringBuilder(r.nextInt(4) == 0 ? "x=" : "");
    sb.append('%');
    String flags = "-+ #0";
    for (int i = 0; i < r.nextInt(3); i++) sb.append(flags.charAt(r.nextInt(flags.length())));
    int width = r.nextInt(4);
    if (width == 1) sb.append(1 + r.nextInt(25));
    if (width == 2) sb.append('*');
    int precision = r.nextInt(4);
    if (precision == 1) sb.append('.').append(r.nextInt(20));
    if (precision == 2) sb.append(".*");
    if (precision == 3 && r.nextBoolean()) sb.append('.');
    String conversions = "diouxXcspfFeEgGaA";
    char c = conversions.charAt(r.nextInt(conversions.length()));
    if ("diouxX".indexOf(c) >= 0) {
      String[] lengths = {"", "", "h", "hh", "l", "ll", "z", "j"};
      sb.append(lengths[r.nextInt(lengths.length)]);
    }
    sb.append(c);
    if (r.nextInt(4) == 0) sb.append(" end");
    return sb.toString();
  }

  private static long[] randomWords(Random r, String fmt) {
    List<Long> w = new ArrayList<>();
    int stars = (int) fmt.chars().filter(ch -> ch == '*').count();
    for (int i = 0; i < stars; i++) w.add((long) (r.nextInt(41) - 20));
    char c = fmt.charAt(fmt.lastIndexOf('%') + 1 + (fmt.substring(fmt.lastIndexOf('%') + 1).length()
        - fmt.substring(fmt.lastIndexOf('%') + 1).replaceAll("^[-+ #0-9.*hlzj]*", "").length()));
    long v;
    if ("fFeEgGaA".indexOf(c) >= 0) {
      double[] specials = {0.0, -0.0, 1.0, 0.5, 2.5, 1e-5, 123456.789, 1e300, 5e-324, Double.MIN_NORMAL, 0.1, 1e15,
          999999.5, 9.5, 0.000123456};
      double d = r.nextInt(3) == 0 ? specials[r.nextInt(specials.length)] : (r.nextDouble() - 0.5)
          * Math.pow(10, r.nextInt(40) - 20);
      if (r.nextInt(30) == 0) d = r.nextBoolean() ? Double.NaN : Double.POSITIVE_INFINITY;
      if (r.nextInt(5) == 0) d = -d;
      v = Double.doubleToRawLongBits(d);
    } else if (c == 's') {
      v = r.nextInt(STRINGS.length);
    } else if (c == 'c') {
      v = 32 + r.nextInt(95);
    } else {
      long[] specials = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE, 255, 65535,
          0xdeadbeefL};
      v = r.nextInt(3) == 0 ? specials[r.nextInt(specials.length)] : r.nextLong() >> r.nextInt(64);
    }
    w.add(v);
    return w.stream().mapToLong(Long::longValue).toArray();
  }
}
