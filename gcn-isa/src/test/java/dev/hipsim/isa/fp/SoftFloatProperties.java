package dev.hipsim.isa.fp;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** SoftFloat against the BigDecimal reference, in every format, rounding direction and denormal mode. */
class SoftFloatProperties {
  private static final int[] FORMATS = {FpFormat.F16, FpFormat.BF16, FpFormat.F32, FpFormat.F64};

  @Provide
  Arbitrary<long[]> operands() {
    return Arbitraries.of(0, 1, 2, 3).flatMap(f -> Combinators.combine(FpGen.bits(f), FpGen.bits(f),
        FpGen.bits(f), FpGen.modes()).as((a, b, c, m) -> new long[] {f, a, b, c, m}));
  }

  /** Operands whose product nearly cancels the addend: exercises the 128-bit alignment and jamming. */
  @Provide
  Arbitrary<long[]> cancelling() {
    return Arbitraries.of(0, 1, 2, 3).flatMap(f -> Combinators.combine(FpGen.bits(f), FpGen.bits(f),
        Arbitraries.integers().between(-3, 3), FpGen.modes()).as((a, b, nudge, m) -> {
          long c = 0;
          if (!RefFloat.isNaN(f, a) && !RefFloat.isNaN(f, b) && !RefFloat.isInf(f, a) && !RefFloat.isInf(f, b)) {
            Dyadic p = RefFloat.value(f, a).multiply(RefFloat.value(f, b)).negate();
            if (p.signum() != 0) c = RefFloat.round(f, p, RefFloat.RNE, false, false) + nudge;
          }
          return new long[] {f, a, b, c, m};
        }));
  }

  @Property(tries = 6000)
  void addMatchesReference(@ForAll("operands") long[] t) {
    int f = (int) t[0];
    int mode = (int) t[4];
    assertThat(hex(SoftFloat.add(f, t[1], t[2], mode))).as("f%d %x + %x mode %x", f, t[1], t[2], mode)
        .isEqualTo(hex(RefFloat.add(f, t[1], t[2], mode)));
  }

  @Property(tries = 6000)
  void mulMatchesReference(@ForAll("operands") long[] t) {
    int f = (int) t[0];
    int mode = (int) t[4];
    assertThat(hex(SoftFloat.mul(f, t[1], t[2], mode))).as("f%d %x * %x mode %x", f, t[1], t[2], mode)
        .isEqualTo(hex(RefFloat.mul(f, t[1], t[2], mode)));
  }

  @Property(tries = 6000)
  void fmaMatchesReference(@ForAll("operands") long[] t) {
    checkFma(t);
  }

  @Property(tries = 4000)
  void fmaWithCancellationMatchesReference(@ForAll("cancelling") long[] t) {
    checkFma(t);
  }

  private static void checkFma(long[] t) {
    int f = (int) t[0];
    int mode = (int) t[4];
    assertThat(hex(SoftFloat.fma(f, t[1], t[2], t[3], mode)))
        .as("f%d fma(%x, %x, %x) mode %x", f, t[1], t[2], t[3], mode)
        .isEqualTo(hex(RefFloat.fma(f, t[1], t[2], t[3], mode)));
  }

  @Property(tries = 6000)
  void conversionsMatchReference(@ForAll("operands") long[] t, @ForAll @IntRange(min = 0, max = 3) int to) {
    int f = (int) t[0];
    int mode = (int) t[4];
    assertThat(hex(SoftFloat.convert(f, t[1], to, mode))).as("f%d->f%d %x mode %x", f, to, t[1], mode)
        .isEqualTo(hex(RefFloat.convert(f, t[1], to, mode)));
  }

  /** In the default mode the f32 and f64 paths must agree with Java's own IEEE arithmetic. */
  @Property(tries = 3000)
  void nearestEvenAgreesWithJava(@ForAll float a, @ForAll float b, @ForAll double x, @ForAll double y) {
    int mode = FpMode.DEFAULT;
    float sum = a + b;
    if (!Float.isNaN(sum)) {
      assertThat((int) SoftFloat.add(FpFormat.F32, bits(a), bits(b), mode)).isEqualTo(Float.floatToRawIntBits(sum));
      assertThat((int) SoftFloat.mul(FpFormat.F32, bits(a), bits(b), mode))
          .isEqualTo(Float.floatToRawIntBits(a * b));
    }
    double prod = x * y;
    if (!Double.isNaN(prod)) {
      assertThat(SoftFloat.mul(FpFormat.F64, Double.doubleToRawLongBits(x), Double.doubleToRawLongBits(y), mode))
          .isEqualTo(Double.doubleToRawLongBits(prod));
      double fma = Math.fma(x, y, (double) a);
      if (!Double.isNaN(fma)) {
        assertThat(SoftFloat.fma(FpFormat.F64, Double.doubleToRawLongBits(x), Double.doubleToRawLongBits(y),
            Double.doubleToRawLongBits(a), mode)).isEqualTo(Double.doubleToRawLongBits(fma));
      }
    }
  }

  /** Half.fromDouble (the f16 fast paths' final rounding) against the reference, across the half range. */
  @Property(tries = 4000)
  void halfFromDoubleRoundsToNearestEven(@ForAll double x, @ForAll @IntRange(min = -30, max = 17) int scale) {
    if (Double.isNaN(x) || Double.isInfinite(x)) return;
    double v = Math.scalb(Math.abs(x) < 1e-300 ? x : x / Math.scalb(1.0, Math.getExponent(x)), scale);
    long expected = v == 0 ? (Double.doubleToRawLongBits(v) < 0 ? 0x8000 : 0)
        : RefFloat.round(FpFormat.F16, Dyadic.of(v), RefFloat.RNE, false, false);
    assertThat((long) Half.fromDouble(v)).as("%s", v).isEqualTo(expected);
  }

  private static long bits(float f) {
    return Float.floatToRawIntBits(f) & 0xffffffffL;
  }

  private static String hex(long v) {
    return Long.toHexString(v);
  }

  static {
    assert FORMATS.length == 4;
  }
}
