package dev.hipsim.isa.alu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.fp.Dyadic;
import dev.hipsim.isa.fp.Fp8;
import dev.hipsim.isa.fp.FpGen;
import dev.hipsim.isa.fp.FpMode;
import dev.hipsim.isa.fp.Half;
import dev.hipsim.isa.fp.RefFloat;
import java.math.BigDecimal;
import java.math.RoundingMode;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** V_CMP predicates and classes, OMOD/CLAMP, and the V_CVT family against independent references. */
class CompareModifierConvertProperties {
  @Provide
  Arbitrary<long[]> ops() {
    return Arbitraries.of(0, 2, 3).flatMap(f -> Combinators.combine(FpGen.bits(f), FpGen.bits(f), FpGen.modes())
        .as((a, b, m) -> new long[] {f, a, b, m}));
  }

  /** Reference for every predicate: Java's own IEEE comparisons on doubles (exact for all three formats). */
  static double asDouble(int f, long bits) {
    if (RefFloat.isNaN(f, bits)) return Double.NaN;
    if (RefFloat.isInf(f, bits)) return RefFloat.isNeg(f, bits) ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    return f == 3 ? Double.longBitsToDouble(bits) : RefFloat.value(f, bits).toDouble();
  }

  @Property(tries = 3000)
  void comparePredicatesMatchIeeeComparisons(@ForAll("ops") long[] t) {
    int f = (int) t[0];
    int m = (int) t[3];
    double a = asDouble(f, RefFloat.in(f, t[1], m));
    double b = asDouble(f, RefFloat.in(f, t[2], m));
    boolean[] expected = {false, a < b, a == b, a <= b, a > b, a < b || a > b, a >= b, a == a && b == b,
        a != a || b != b, !(a >= b), !(a < b || a > b), !(a > b), !(a <= b), !(a == b), !(a < b), true};
    for (int p = 0; p < 16; p++) {
      assertThat(FloatOps.compare(f, p, t[1], t[2], m)).as("pred %d f%d %x %x", p, f, t[1], t[2])
          .isEqualTo(expected[p]);
    }
  }

  @Property(tries = 3000)
  void classMaskSelectsExactlyOneClass(@ForAll("ops") long[] t) {
    int f = (int) t[0];
    long a = t[1];
    int expected;
    int man = RefFloat.man(f);
    if (RefFloat.isNaN(f, a)) {
      expected = (a & (1L << (man - 1))) == 0 ? 0 : 1;
    } else {
      double d = asDouble(f, a);
      boolean neg = RefFloat.isNeg(f, a);
      double minNormal = f == 0 ? 0x1p-14 : f == 2 ? 0x1p-126 : Double.MIN_NORMAL;
      if (Double.isInfinite(d)) {
        expected = neg ? 2 : 9;
      } else if (d == 0) {
        expected = neg ? 5 : 6;
      } else if (Math.abs(d) < minNormal) {
        expected = neg ? 4 : 7;
      } else {
        expected = neg ? 3 : 8;
      }
    }
    for (int bit = 0; bit < 10; bit++) {
      assertThat(FloatOps.cmpClass(f, a, 1 << bit)).isEqualTo(bit == expected);
    }
    assertThat(FloatOps.cmpClass(f, a, 0x3ff)).isTrue();
  }

  // ---- OMOD and CLAMP

  @Property(tries = 3000)
  void outputModifiersScaleThenClamp(@ForAll("ops") long[] t, @ForAll @IntRange(min = 0, max = 3) int omod,
      @ForAll boolean clamp) {
    int f = (int) t[0];
    int m = (int) t[3];
    long a = t[1];
    long got = f == 0 ? OutputMods.f16((int) a, omod, clamp, m)
        : f == 2 ? OutputMods.f32((int) a, omod, clamp, m) & 0xffffffffL : OutputMods.f64(a, omod, clamp, m);
    long r = a;
    boolean active = omod != 0 && !RefFloat.ieee(m) && RefFloat.flushOut(m, f);
    if (active && !RefFloat.isNaN(f, r) && !RefFloat.isInf(f, r)) {
      Dyadic v = RefFloat.value(f, r);
      if (v.signum() == 0 || RefFloat.isSubnormal(f, r)) {
        r = 0;
      } else {
        Dyadic scaled = v.scale(omod == 3 ? -1 : omod);
        r = RefFloat.round(f, scaled, RefFloat.rm(m, f), true, RefFloat.saturate(m, f));
      }
    }
    if (clamp) {
      long one = (long) RefFloat.bias(f) << RefFloat.man(f);
      if (RefFloat.isNaN(f, r)) {
        r = FpMode.dx10Clamp(m) ? 0 : r;
      } else if (RefFloat.isNeg(f, r)) {
        r = 0;
      } else if (RefFloat.isInf(f, r) || RefFloat.value(f, r).compareTo(Dyadic.of(1, 0)) > 0) {
        r = one;
      }
    }
    assertThat(got).as("f%d %x omod %d clamp %s mode %x", f, a, omod, clamp, m).isEqualTo(r);
  }

  @Example
  void omodIsIgnoredInIeeeModeOrWithOutputDenormals() {
    int two = Float.floatToRawIntBits(2f);
    int ieeeMode = FpMode.of(0, 0, 0, 0, true, true);
    int denormMode = FpMode.of(0, 0, 3, 3, true, false);
    int flushMode = FpMode.of(0, 0, 0, 0, true, false);
    assertThat(OutputMods.f32(two, OutputMods.OMOD_MUL4, false, ieeeMode)).isEqualTo(two);
    assertThat(OutputMods.f32(two, OutputMods.OMOD_MUL4, false, denormMode)).isEqualTo(two);
    assertThat(Float.intBitsToFloat(OutputMods.f32(two, OutputMods.OMOD_MUL4, false, flushMode))).isEqualTo(8f);
    assertThat(Float.intBitsToFloat(OutputMods.f32(two, OutputMods.OMOD_DIV2, true, flushMode))).isEqualTo(1f);
  }

  // ---- conversions

  @Property(tries = 3000)
  void integerToFloatRoundsPerMode(@ForAll int x, @ForAll("modesArb") int m) {
    Dyadic v = Dyadic.of(x, 0);
    long expected = x == 0 ? 0 : RefFloat.round(2, v, RefFloat.rm(m, 2), false, false);
    assertThat(Convert.f32FromI32(x, m) & 0xffffffffL).isEqualTo(expected);
    long u = x & 0xffffffffL;
    long expectedU = u == 0 ? 0 : RefFloat.round(2, Dyadic.of(u, 0), RefFloat.rm(m, 2), false, false);
    assertThat(Convert.f32FromU32(x, m) & 0xffffffffL).isEqualTo(expectedU);
    assertThat(Double.longBitsToDouble(Convert.f64FromI32(x))).isEqualTo((double) x);
    assertThat(Double.longBitsToDouble(Convert.f64FromU32(x))).isEqualTo((double) u);
    short s = (short) x;
    long expectedH = s == 0 ? 0 : RefFloat.round(0, Dyadic.of(s, 0), RefFloat.rm(m, 0), false,
        RefFloat.saturate(m, 0));
    assertThat((long) Convert.f16FromI16(x, m)).isEqualTo(expectedH);
  }

  @Provide
  Arbitrary<Integer> modesArb() {
    return FpGen.modes();
  }

  static long saturated(Dyadic v, RoundingMode how, long min, long max) {
    BigDecimal r = v.roundToInteger(how).toBigDecimal();
    if (r.compareTo(BigDecimal.valueOf(min)) < 0) return min;
    if (r.compareTo(BigDecimal.valueOf(max)) > 0) return max;
    return r.longValueExact();
  }

  @Property(tries = 3000)
  void floatToIntegerTruncatesAndSaturates(@ForAll("ops") long[] t) {
    int f = (int) t[0];
    int m = (int) t[3];
    long a = RefFloat.in(f, t[1], m);
    long expI;
    long expU;
    long expFloor;
    if (RefFloat.isNaN(f, a)) {
      expI = expU = expFloor = 0;
    } else if (RefFloat.isInf(f, a)) {
      boolean neg = RefFloat.isNeg(f, a);
      expI = neg ? Integer.MIN_VALUE : Integer.MAX_VALUE;
      expU = neg ? 0 : 0xffffffffL;
      expFloor = expI;
    } else {
      Dyadic v = RefFloat.value(f, a);
      expI = saturated(v, RoundingMode.DOWN, Integer.MIN_VALUE, Integer.MAX_VALUE);
      expU = saturated(v, RoundingMode.DOWN, 0, 0xffffffffL);
      expFloor = saturated(v, RoundingMode.FLOOR, Integer.MIN_VALUE, Integer.MAX_VALUE);
    }
    if (f == 2) {
      assertThat((long) Convert.i32FromF32((int) t[1], m)).isEqualTo(expI);
      assertThat(Convert.u32FromF32((int) t[1], m) & 0xffffffffL).isEqualTo(expU);
      assertThat((long) Convert.flrI32FromF32((int) t[1], m)).isEqualTo(expFloor);
    } else if (f == 3) {
      assertThat((long) Convert.i32FromF64(t[1], m)).isEqualTo(expI);
      assertThat(Convert.u32FromF64(t[1], m) & 0xffffffffL).isEqualTo(expU);
    } else {
      long e16 = RefFloat.isNaN(f, a) ? 0 : RefFloat.isInf(f, a) ? (RefFloat.isNeg(f, a) ? -32768 : 32767)
          : saturated(RefFloat.value(f, a), RoundingMode.DOWN, -32768, 32767);
      assertThat((long) Convert.i16FromF16((int) t[1], m)).isEqualTo(e16);
    }
  }

  /** V_CVT_RPI: floor(x + 0.5) on the exact value. */
  @Property(tries = 2000)
  void rpiRoundsHalvesUp(@ForAll float x) {
    if (Float.isNaN(x) || Math.abs(x) > 1e9f) return;
    long expected = new BigDecimal(x).add(new BigDecimal("0.5")).setScale(0, RoundingMode.FLOOR).longValueExact();
    assertThat((long) Convert.rpiI32FromF32(Float.floatToRawIntBits(x), FpMode.DEFAULT)).isEqualTo(expected);
  }

  @Property(tries = 3000)
  void floatToFloatConversions(@ForAll("ops") long[] t) {
    int f = (int) t[0];
    int m = (int) t[3];
    long a = t[1];
    if (f == 2) {
      assertThat((long) Convert.f16FromF32((int) a, m)).isEqualTo(RefFloat.convert(2, a, 0, m));
      assertThat(Convert.f64FromF32((int) a, m)).isEqualTo(RefFloat.convert(2, a, 3, m));
      int rtzMode = m | 0xc; // f16 rounds toward zero
      long lo = RefFloat.convert(2, a, 0, rtzMode);
      assertThat(Convert.pkrtzF16FromF32((int) a, (int) a, m) & 0xffffffffL).isEqualTo(lo << 16 | lo);
    } else if (f == 3) {
      assertThat(Convert.f32FromF64(a, m) & 0xffffffffL).isEqualTo(RefFloat.convert(3, a, 2, m));
    } else {
      assertThat(Convert.f32FromF16((int) a, m) & 0xffffffffL).isEqualTo(RefFloat.convert(0, a, 2, m));
    }
  }

  @Property(tries = 1000)
  void normalizedConversions(@ForAll float x, @ForAll float y) {
    int m = FpMode.DEFAULT;
    int r = Convert.pknormI16FromF32(Float.floatToRawIntBits(x), Float.floatToRawIntBits(y), m);
    assertThat((short) r).isEqualTo((short) snormRef(x));
    assertThat((short) (r >>> 16)).isEqualTo((short) snormRef(y));
    int u = Convert.pknormU16FromF32(Float.floatToRawIntBits(x), Float.floatToRawIntBits(y), m);
    assertThat(u & 0xffff).isEqualTo(unormRef(x));
    assertThat(u >>> 16).isEqualTo(unormRef(y));
  }

  static int snormRef(float x) {
    if (Float.isNaN(x)) return 0;
    BigDecimal c = new BigDecimal(Math.max(-1f, Math.min(1f, x)));
    return c.multiply(BigDecimal.valueOf(32767)).setScale(0, RoundingMode.HALF_EVEN).intValueExact();
  }

  static int unormRef(float x) {
    if (Float.isNaN(x)) return 0;
    BigDecimal c = new BigDecimal(Math.max(0f, Math.min(1f, x)));
    return c.multiply(BigDecimal.valueOf(65535)).setScale(0, RoundingMode.HALF_EVEN).intValueExact();
  }

  @Example
  void smallIntegerPacking() {
    assertThat(Convert.pkU16FromU32(70000, 5)).isEqualTo(5 << 16 | 0xffff);
    assertThat(Convert.pkI16FromI32(-40000, 40000)).isEqualTo(0x7fff << 16 | 0x8000);
    assertThat(Convert.satPkU8FromI16(0xff38_012c)).isEqualTo(0x00ff); // lo 300 -> 255, hi -200 -> 0
    assertThat(Convert.pkU8FromF32(Float.floatToRawIntBits(300.7f), 2, 0x11223344, FpMode.DEFAULT))
        .isEqualTo(0x11ff3344);
    assertThat(Float.intBitsToFloat(Convert.offF32FromI4(0b1000))).isEqualTo(-0.5f);
    assertThat(Float.intBitsToFloat(Convert.offF32FromI4(0b0111))).isEqualTo(0.4375f);
    assertThat(Float.intBitsToFloat(Convert.f32FromUbyte(0xa1b2c3d4, 2))).isEqualTo(178f);
  }

  // ---- 8-bit floats (FNUZ)

  static BigDecimal fp8Value(int code, int man, int bias) {
    if (code == 0x80) return null;
    int field = (code & 0x7f) >>> man;
    int m = code & ((1 << man) - 1);
    BigDecimal mag = field == 0 ? new BigDecimal(m).multiply(new BigDecimal(Math.scalb(1.0, 1 - bias - man)))
        : new BigDecimal((1 << man) + m).multiply(new BigDecimal(Math.scalb(1.0, field - bias - man)));
    return (code & 0x80) != 0 ? mag.negate() : mag;
  }

  @Example
  void fp8DecodesEveryCode() {
    for (int c = 0; c < 256; c++) {
      BigDecimal e4 = fp8Value(c, 3, 8);
      BigDecimal e5 = fp8Value(c, 2, 16);
      float d4 = Float.intBitsToFloat(Fp8.fp8ToF32(c));
      float d5 = Float.intBitsToFloat(Fp8.bf8ToF32(c));
      if (e4 == null) {
        assertThat(Float.isNaN(d4) && Float.isNaN(d5)).isTrue();
      } else {
        assertThat(new BigDecimal(d4).compareTo(e4)).isZero();
        assertThat(new BigDecimal(d5).compareTo(e5)).isZero();
      }
    }
    assertThat(Float.intBitsToFloat(Fp8.fp8ToF32(0x7f))).isEqualTo(240f);
    assertThat(Float.intBitsToFloat(Fp8.bf8ToF32(0x7f))).isEqualTo(57344f);
  }

  /** Encoding picks the nearest code by brute force over all 255 values (ties to the even code). */
  @Property(tries = 3000)
  void fp8EncodesToTheNearestCode(@ForAll float x, @ForAll boolean saturate, @ForAll boolean bf8) {
    int man = bf8 ? 2 : 3;
    int bias = bf8 ? 16 : 8;
    int got = bf8 ? Fp8.f32ToBf8(Float.floatToRawIntBits(x), saturate) : Fp8.f32ToFp8(Float.floatToRawIntBits(x),
        saturate);
    if (Float.isNaN(x)) {
      assertThat(got).isEqualTo(0x80);
      return;
    }
    BigDecimal max = fp8Value(0x7f, man, bias);
    if (Float.isInfinite(x)) {
      assertThat(got).isEqualTo(saturate ? (x < 0 ? 0xff : 0x7f) : 0x80);
      return;
    }
    BigDecimal v = new BigDecimal(x);
    int best = -1;
    BigDecimal bestDistance = null;
    for (int c = 0; c < 256; c++) {
      if (c == 0x80) continue;
      BigDecimal d = fp8Value(c, man, bias).subtract(v).abs();
      int cmp = bestDistance == null ? -1 : d.compareTo(bestDistance);
      if (cmp < 0 || (cmp == 0 && (c & 1) == 0 && (best & 1) != 0)) {
        best = c;
        bestDistance = d;
      }
    }
    // Beyond the largest magnitude by more than half a step: overflow.
    BigDecimal halfStep = max.subtract(fp8Value(0x7e, man, bias)).divide(BigDecimal.valueOf(2));
    boolean overflow = v.abs().compareTo(max.add(halfStep)) >= 0;
    if (overflow) {
      assertThat(got).isEqualTo(saturate ? (x < 0 ? 0xff : 0x7f) : 0x80);
    } else {
      if ((best & 0x7f) == 0) best = 0; // no negative zero
      assertThat(got).as("%s -> %x", x, got).isEqualTo(best);
    }
  }

  @Example
  void halfHelpersStillRoundTrip() {
    assertThat(Half.fromFloat(1f)).isEqualTo(0x3c00);
  }
}
