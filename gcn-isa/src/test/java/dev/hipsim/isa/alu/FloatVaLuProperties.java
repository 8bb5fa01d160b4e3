package dev.hipsim.isa.alu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.fp.FpGen;
import dev.hipsim.isa.fp.FpMode;
import dev.hipsim.isa.fp.RefFloat;
import dev.hipsim.isa.fp.Dyadic;
import java.math.RoundingMode;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The typed f32/f64/f16 entry points against the reference model: IEEE arithmetic in every MODE, the legacy and
 * unfused forms, min/max/med3 from the guide's pseudocode, exponent and integral-value operations.
 */
class FloatVaLuProperties {
  static final int F16 = 0;
  static final int F32 = 2;
  static final int F64 = 3;

  /** {format, a, b, c, mode} with format in {f16, f32, f64}. */
  @Provide
  Arbitrary<long[]> ops() {
    return Arbitraries.of(F16, F32, F64).flatMap(f -> Combinators.combine(FpGen.bits(f), FpGen.bits(f),
        FpGen.bits(f), FpGen.modes()).as((a, b, c, m) -> new long[] {f, a, b, c, m}));
  }

  static long add(int f, long a, long b, int m) {
    switch (f) {
      case F16:
        return F16Ops.add((int) a, (int) b, m);
      case F32:
        return F32Ops.add((int) a, (int) b, m) & 0xffffffffL;
      default:
        return F64Ops.add(a, b, m);
    }
  }

  static long sub(int f, long a, long b, int m) {
    switch (f) {
      case F16:
        return F16Ops.sub((int) a, (int) b, m);
      case F32:
        return F32Ops.sub((int) a, (int) b, m) & 0xffffffffL;
      default:
        return F64Ops.sub(a, b, m);
    }
  }

  static long mul(int f, long a, long b, int m) {
    switch (f) {
      case F16:
        return F16Ops.mul((int) a, (int) b, m);
      case F32:
        return F32Ops.mul((int) a, (int) b, m) & 0xffffffffL;
      default:
        return F64Ops.mul(a, b, m);
    }
  }

  static long fma(int f, long a, long b, long c, int m) {
    switch (f) {
      case F16:
        return F16Ops.fma((int) a, (int) b, (int) c, m);
      case F32:
        return F32Ops.fma((int) a, (int) b, (int) c, m) & 0xffffffffL;
      default:
        return F64Ops.fma(a, b, c, m);
    }
  }

  @Property(tries = 3000)
  void ieeeArithmeticMatchesReference(@ForAll("ops") long[] t) {
    int f = (int) t[0];
    int m = (int) t[4];
    String ctx = String.format("f%d a=%x b=%x c=%x mode=%x", f, t[1], t[2], t[3], m);
    assertThat(add(f, t[1], t[2], m)).as("add " + ctx).isEqualTo(RefFloat.add(f, t[1], t[2], m));
    long negB = t[2] ^ (f == F16 ? 0x8000L : f == F32 ? 0x80000000L : Long.MIN_VALUE);
    assertThat(sub(f, t[1], t[2], m)).as("sub " + ctx).isEqualTo(RefFloat.add(f, t[1], negB, m));
    assertThat(mul(f, t[1], t[2], m)).as("mul " + ctx).isEqualTo(RefFloat.mul(f, t[1], t[2], m));
    assertThat(fma(f, t[1], t[2], t[3], m)).as("fma " + ctx).isEqualTo(RefFloat.fma(f, t[1], t[2], t[3], m));
  }

  /** The default mode takes Java's float/double fast path; it must agree with the reference too. */
  @Property(tries = 3000)
  void fastPathMatchesReference(@ForAll("ops") long[] t) {
    int f = (int) t[0];
    int m = FpMode.DEFAULT | ((int) t[4] & FpMode.IEEE_BIT);
    m = (m & ~FpMode.IEEE_BIT) | ((int) t[4] & FpMode.IEEE_BIT);
    assertThat(add(f, t[1], t[2], m)).isEqualTo(RefFloat.add(f, t[1], t[2], m));
    assertThat(mul(f, t[1], t[2], m)).isEqualTo(RefFloat.mul(f, t[1], t[2], m));
    assertThat(fma(f, t[1], t[2], t[3], m)).isEqualTo(RefFloat.fma(f, t[1], t[2], t[3], m));
  }

  /** V_MAD_F32/V_MAD_F16 round twice and always flush denormals; V_MUL_LEGACY/V_MAD_LEGACY make 0*x = +0. */
  @Property(tries = 2000)
  void unfusedAndLegacyForms(@ForAll("ops") long[] t) {
    int f = (int) t[0];
    if (f == F64) return;
    int m = (int) t[4];
    int flush = m & ~(f == F32 ? 0x30 : 0xc0);
    long p = RefFloat.mul(f, t[1], t[2], flush);
    long expected = RefFloat.add(f, p, t[3], flush);
    long got = f == F32 ? F32Ops.mad((int) t[1], (int) t[2], (int) t[3], m) & 0xffffffffL
        : F16Ops.mad((int) t[1], (int) t[2], (int) t[3], m);
    assertThat(got).isEqualTo(expected);
    if (f == F32) {
      long a = t[1];
      long b = t[2];
      boolean zero = isZeroAfterFlush(F32, a, m) || isZeroAfterFlush(F32, b, m);
      long legacy = zero ? 0 : RefFloat.mul(F32, a, b, m);
      assertThat(F32Ops.mulLegacy((int) a, (int) b, m) & 0xffffffffL).isEqualTo(legacy);
      long legacyP = isZeroAfterFlush(F32, a, flush) || isZeroAfterFlush(F32, b, flush) ? 0
          : RefFloat.mul(F32, a, b, flush);
      assertThat(F32Ops.madLegacy((int) a, (int) b, (int) t[3], m) & 0xffffffffL)
          .isEqualTo(RefFloat.add(F32, legacyP, t[3], flush));
    }
  }

  static boolean isZeroAfterFlush(int f, long b, int mode) {
    long s = RefFloat.isNeg(f, b) ? b ^ (1L << (f == F32 ? 31 : f == F16 ? 15 : 63)) : b;
    return s == 0 || (RefFloat.isSubnormal(f, b) && RefFloat.flushIn(mode, f));
  }

  // ---- min / max / med3 straight from the pseudocode, on exact values

  static boolean isSnan(int f, long b) {
    int man = f == F16 ? 10 : f == F32 ? 23 : 52;
    return RefFloat.isNaN(f, b) && (b & (1L << (man - 1))) == 0;
  }

  static long quiet(int f, long b) {
    return b | (1L << ((f == F16 ? 10 : f == F32 ? 23 : 52) - 1));
  }

  static long refIn(int f, long b, int mode) {
    if (RefFloat.isSubnormal(f, b) && RefFloat.flushIn(mode, f)) {
      return RefFloat.isNeg(f, b) ? 1L << (f == F16 ? 15 : f == F32 ? 31 : 63) : 0;
    }
    return b;
  }

  static long refOut(int f, long b, int mode) {
    if (RefFloat.isSubnormal(f, b) && RefFloat.flushOut(mode, f)) {
      return RefFloat.isNeg(f, b) ? 1L << (f == F16 ? 15 : f == F32 ? 31 : 63) : 0;
    }
    return b;
  }

  static long refMin(int f, long a, long b, int mode, boolean isMax) {
    a = refIn(f, a, mode);
    b = refIn(f, b, mode);
    boolean ieee = RefFloat.ieee(mode);
    if (ieee && isSnan(f, a)) return quiet(f, a);
    if (ieee && isSnan(f, b)) return quiet(f, b);
    if (RefFloat.isNaN(f, a)) return refOut(f, b, mode);
    if (RefFloat.isNaN(f, b)) return refOut(f, a, mode);
    long negZero = 1L << (f == F16 ? 15 : f == F32 ? 31 : 63);
    if (a == 0 && b == negZero) return isMax ? a : b;
    if (a == negZero && b == 0) return isMax ? b : a;
    Dyadic va = RefFloat.value(f, a);
    Dyadic vb = RefFloat.value(f, b);
    if (RefFloat.isInf(f, a)) va = Dyadic.of(RefFloat.isNeg(f, a) ? -1 : 1, 5000);
    if (RefFloat.isInf(f, b)) vb = Dyadic.of(RefFloat.isNeg(f, b) ? -1 : 1, 5000);
    int c = va.compareTo(vb);
    if (isMax) return refOut(f, (ieee ? c >= 0 : c > 0) ? a : b, mode);
    return refOut(f, c < 0 ? a : b, mode);
  }

  static long min(int f, long a, long b, int m) {
    return f == F16 ? F16Ops.min((int) a, (int) b, m)
        : f == F32 ? F32Ops.min((int) a, (int) b, m) & 0xffffffffL : F64Ops.min(a, b, m);
  }

  static long max(int f, long a, long b, int m) {
    return f == F16 ? F16Ops.max((int) a, (int) b, m)
        : f == F32 ? F32Ops.max((int) a, (int) b, m) & 0xffffffffL : F64Ops.max(a, b, m);
  }

  @Property(tries = 3000)
  void minMaxFollowThePseudocode(@ForAll("ops") long[] t) {
    int f = (int) t[0];
    int m = (int) t[4];
    assertThat(min(f, t[1], t[2], m)).isEqualTo(refMin(f, t[1], t[2], m, false));
    assertThat(max(f, t[1], t[2], m)).isEqualTo(refMin(f, t[1], t[2], m, true));
    if (f != F64) {
      long r3 = refMin(f, refMin(f, t[1], t[2], m, false), t[3], m, false);
      long x3 = refMin(f, refMin(f, t[1], t[2], m, true), t[3], m, true);
      long got3 = f == F32 ? F32Ops.min3((int) t[1], (int) t[2], (int) t[3], m) & 0xffffffffL
          : F16Ops.min3((int) t[1], (int) t[2], (int) t[3], m);
      long gotX3 = f == F32 ? F32Ops.max3((int) t[1], (int) t[2], (int) t[3], m) & 0xffffffffL
          : F16Ops.max3((int) t[1], (int) t[2], (int) t[3], m);
      assertThat(got3).isEqualTo(r3);
      assertThat(gotX3).isEqualTo(x3);
    }
  }

  /** V_MED3 of three ordinary numbers is the middle one, whatever the order. */
  @Property(tries = 2000)
  void med3IsTheMedianOfOrdinaryValues(@ForAll float a, @ForAll float b, @ForAll float c) {
    if (Float.isNaN(a) || Float.isNaN(b) || Float.isNaN(c)) return;
    float[] v = {a, b, c};
    java.util.Arrays.sort(v);
    int got = F32Ops.med3(Float.floatToRawIntBits(a), Float.floatToRawIntBits(b), Float.floatToRawIntBits(c),
        FpMode.DEFAULT);
    assertThat(Float.intBitsToFloat(got)).isEqualTo(v[1]);
  }

  @Property(tries = 1000)
  void med3WithANanIsMin3(@ForAll float a, @ForAll float b) {
    int nan = 0x7fc00000;
    int m = FpMode.DEFAULT;
    int ia = Float.floatToRawIntBits(a);
    int ib = Float.floatToRawIntBits(b);
    assertThat(F32Ops.med3(ia, nan, ib, m)).isEqualTo(F32Ops.min3(ia, nan, ib, m));
  }

  // ---- exponent and integral-value operations

  static int man(int f) {
    return f == F16 ? 10 : f == F32 ? 23 : 52;
  }

  @Property(tries = 3000)
  void ldexpRoundsTheScaledValue(@ForAll("ops") long[] t) {
    int f = (int) t[0];
    int m = (int) t[4];
    int e = (int) (t[2] % 200);
    if (f == F16) e = (short) (t[2] % 40);
    long a = t[1];
    long got = f == F16 ? F16Ops.ldexp((int) a, e, m) : f == F32 ? F32Ops.ldexp((int) a, e, m) & 0xffffffffL
        : F64Ops.ldexp(a, e, m);
    long ain = refIn(f, a, m);
    long expected;
    if (RefFloat.isNaN(f, ain)) {
      expected = RefFloat.ieee(m) ? quiet(f, ain) : ain;
    } else if (RefFloat.isInf(f, ain) || RefFloat.value(f, ain).signum() == 0) {
      expected = ain;
    } else {
      expected = RefFloat.round(f, RefFloat.value(f, ain).scale(e), RefFloat.rm(m, f),
          RefFloat.flushOut(m, f), f == F16 && FpMode.fp16Overflow(m));
    }
    assertThat(got).as("ldexp f%d %x %d mode %x", f, a, e, m).isEqualTo(expected);
  }

  @Property(tries = 3000)
  void frexpSplitsExactly(@ForAll("ops") long[] t) {
    int f = (int) t[0];
    int m = (int) t[4] | 0xf0; // keep denormals to test their normalization
    long a = t[1];
    long mant = f == F16 ? F16Ops.frexpMant((int) a, m) : f == F32 ? F32Ops.frexpMant((int) a, m) & 0xffffffffL
        : F64Ops.frexpMant(a, m);
    int exp = f == F16 ? F16Ops.frexpExp((int) a, m) : f == F32 ? F32Ops.frexpExp((int) a, m)
        : F64Ops.frexpExp(a, m);
    if (RefFloat.isNaN(f, a) || RefFloat.isInf(f, a)) {
      assertThat(exp).isZero();
      assertThat(RefFloat.isNaN(f, mant) == RefFloat.isNaN(f, a)).isTrue();
      return;
    }
    Dyadic v = RefFloat.value(f, a);
    Dyadic mv = RefFloat.value(f, mant);
    assertThat(mv.scale(exp).compareTo(v)).isZero();
    if (v.signum() != 0) {
      assertThat(mv.abs().compareTo(Dyadic.of(1, -1))).isGreaterThanOrEqualTo(0);
      assertThat(mv.abs().compareTo(Dyadic.of(1, 0))).isLessThan(0);
    } else {
      assertThat(exp).isZero();
      assertThat(mant).isEqualTo(a);
    }
  }

  @Property(tries = 3000)
  void integralRoundingMatchesBigDecimal(@ForAll("ops") long[] t) {
    int f = (int) t[0];
    int m = (int) t[4];
    long a = t[1];
    RoundingMode[] how = {RoundingMode.DOWN, RoundingMode.FLOOR, RoundingMode.CEILING, RoundingMode.HALF_EVEN};
    for (int k = 0; k < 4; k++) {
      long got = integral(f, a, k, m);
      long ain = refIn(f, a, m);
      long expected;
      if (RefFloat.isNaN(f, ain)) {
        expected = RefFloat.ieee(m) ? quiet(f, ain) : ain;
      } else if (RefFloat.isInf(f, ain)) {
        expected = ain;
      } else {
        Dyadic r = RefFloat.value(f, ain).roundToInteger(how[k]);
        expected = r.signum() == 0 ? (RefFloat.isNeg(f, ain) ? 1L << (man(f) + (f == F16 ? 5 : f == F32 ? 8 : 11))
            : 0) : RefFloat.round(f, r, 0, false, false);
      }
      assertThat(got).as("f%d op%d %x", f, k, a).isEqualTo(expected);
    }
  }

  static long integral(int f, long a, int k, int m) {
    switch (f) {
      case F16:
        return k == 0 ? F16Ops.trunc((int) a, m) : k == 1 ? F16Ops.floor((int) a, m)
            : k == 2 ? F16Ops.ceil((int) a, m) : F16Ops.rndne((int) a, m);
      case F32:
        return (k == 0 ? F32Ops.trunc((int) a, m) : k == 1 ? F32Ops.floor((int) a, m)
            : k == 2 ? F32Ops.ceil((int) a, m) : F32Ops.rndne((int) a, m)) & 0xffffffffL;
      default:
        return k == 0 ? F64Ops.trunc(a, m) : k == 1 ? F64Ops.floor(a, m) : k == 2 ? F64Ops.ceil(a, m)
            : F64Ops.rndne(a, m);
    }
  }

  /** V_FRACT: x - floor(x) rounded per MODE, held below 1.0; fract(inf) is the default NaN. */
  @Property(tries = 3000)
  void fractMatchesReference(@ForAll("ops") long[] t) {
    int f = (int) t[0];
    int m = (int) t[4];
    long a = t[1];
    long got = f == F16 ? F16Ops.fract((int) a, m) : f == F32 ? F32Ops.fract((int) a, m) & 0xffffffffL
        : F64Ops.fract(a, m);
    long ain = refIn(f, a, m);
    long expected;
    if (RefFloat.isNaN(f, ain)) {
      expected = RefFloat.ieee(m) ? quiet(f, ain) : ain;
    } else if (RefFloat.isInf(f, ain)) {
      expected = RefFloat.defaultNaN(f);
    } else {
      Dyadic v = RefFloat.value(f, ain);
      Dyadic fr = v.subtract(v.roundToInteger(RoundingMode.FLOOR));
      long one = (long) ((1 << ((f == F16 ? 5 : f == F32 ? 8 : 11) - 1)) - 1) << man(f);
      if (fr.signum() == 0) {
        // x + (-floor(x)) is an exact zero of operands with different signs: -0 only toward -inf
        expected = RefFloat.rm(m, f) == RefFloat.RDN ? 1L << (man(f) + (f == F16 ? 5 : f == F32 ? 8 : 11)) : 0;
      } else {
        expected = RefFloat.round(f, fr, RefFloat.rm(m, f), RefFloat.flushOut(m, f), false);
        if (Long.compareUnsigned(expected, one) >= 0) expected = one - 1;
      }
    }
    assertThat(got).as("fract f%d %x mode %x", f, a, m).isEqualTo(expected);
  }
}
