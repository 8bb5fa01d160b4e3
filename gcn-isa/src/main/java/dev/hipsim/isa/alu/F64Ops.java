package dev.hipsim.isa.alu;

import static dev.hipsim.isa.fp.FpFormat.F64;

import dev.hipsim.isa.fp.FpMode;
import dev.hipsim.isa.fp.SoftFloat;
import java.math.BigInteger;

/**
 * Double-precision VALU operations on raw {@code long} bits under a MODE value (the double/half MODE fields).
 * IEEE operations are correctly rounded in every mode; RCP, RSQ and SQRT are specified to 2^29 ULP and this
 * model returns the nearest-even double (RCP, SQRT) or within 1 ULP (RSQ), honouring MODE's denormal fields.
 */
public final class F64Ops {
  private F64Ops() {}

  public static final long DEFAULT_NAN = 0xfff8000000000000L;
  public static final long POS_INF = 0x7ff0000000000000L;

  static boolean fast(int mode) {
    return (mode & 0xcc) == 0xc0;
  }

  static boolean isNaN(long a) {
    return (a & Long.MAX_VALUE) > POS_INF;
  }

  static long nan(long a, int mode) {
    return FpMode.ieee(mode) ? a | 0x0008000000000000L : a;
  }

  public static long add(long a, long b, int mode) {
    if (fast(mode)) {
      if (isNaN(a)) return nan(a, mode);
      if (isNaN(b)) return nan(b, mode);
      double r = Double.longBitsToDouble(a) + Double.longBitsToDouble(b);
      return r != r ? DEFAULT_NAN : Double.doubleToRawLongBits(r);
    }
    return SoftFloat.add(F64, a, b, mode);
  }

  public static long sub(long a, long b, int mode) {
    return add(a, b ^ Long.MIN_VALUE, mode);
  }

  public static long mul(long a, long b, int mode) {
    if (fast(mode)) {
      if (isNaN(a)) return nan(a, mode);
      if (isNaN(b)) return nan(b, mode);
      double r = Double.longBitsToDouble(a) * Double.longBitsToDouble(b);
      return r != r ? DEFAULT_NAN : Double.doubleToRawLongBits(r);
    }
    return SoftFloat.mul(F64, a, b, mode);
  }

  /** V_FMA_F64, V_FMAC_F64. */
  public static long fma(long a, long b, long c, int mode) {
    if (fast(mode)) {
      long ma = a & Long.MAX_VALUE;
      long mb = b & Long.MAX_VALUE;
      if ((ma == POS_INF && mb == 0) || (mb == POS_INF && ma == 0)) return DEFAULT_NAN;
      if (isNaN(a)) return nan(a, mode);
      if (isNaN(b)) return nan(b, mode);
      if (isNaN(c)) return nan(c, mode);
      double r = Math.fma(Double.longBitsToDouble(a), Double.longBitsToDouble(b), Double.longBitsToDouble(c));
      return r != r ? DEFAULT_NAN : Double.doubleToRawLongBits(r);
    }
    return SoftFloat.fma(F64, a, b, c, mode);
  }

  public static long min(long a, long b, int mode) {
    return FloatOps.min(F64, a, b, mode);
  }

  public static long max(long a, long b, int mode) {
    return FloatOps.max(F64, a, b, mode);
  }

  public static long ldexp(long a, int exponent, int mode) {
    return FloatOps.ldexp(F64, a, exponent, mode);
  }

  public static long frexpMant(long a, int mode) {
    return FloatOps.frexpMant(F64, a, mode);
  }

  public static int frexpExp(long a, int mode) {
    return FloatOps.frexpExp(F64, a, mode);
  }

  public static long fract(long a, int mode) {
    return FloatOps.fract(F64, a, mode);
  }

  public static long trunc(long a, int mode) {
    return FloatOps.roundIntegral(F64, a, FloatOps.TRUNC, mode);
  }

  public static long floor(long a, int mode) {
    return FloatOps.roundIntegral(F64, a, FloatOps.FLOOR, mode);
  }

  public static long ceil(long a, int mode) {
    return FloatOps.roundIntegral(F64, a, FloatOps.CEIL, mode);
  }

  public static long rndne(long a, int mode) {
    return FloatOps.roundIntegral(F64, a, FloatOps.EVEN, mode);
  }

  public static long divScale(long value, long den, long num, int mode) {
    return FloatOps.divScale(F64, value, den, num, mode);
  }

  public static boolean divScaleVcc(long value, long den, long num, int mode) {
    return FloatOps.divScaleVcc(F64, value, den, num, mode);
  }

  public static long divFmas(long a, long b, long c, boolean vcc, int mode) {
    return FloatOps.divFmas(F64, a, b, c, vcc, mode);
  }

  public static long divFixup(long q, long den, long num, int mode) {
    return FloatOps.divFixup(F64, q, den, num, mode);
  }

  // ------------------------------------------------------------------------------------------------------------
  // Approximations

  static long finish(double value, int mode) {
    return FloatOps.out(F64, Double.doubleToRawLongBits(value), mode);
  }

  public static long rcp(long a, int mode) {
    a = FloatOps.in(F64, a, mode);
    if (isNaN(a)) return nan(a, mode);
    return finish(1.0 / Double.longBitsToDouble(a), mode);
  }

  public static long rsq(long a, int mode) {
    a = FloatOps.in(F64, a, mode);
    if (isNaN(a)) return nan(a, mode);
    if ((a & Long.MAX_VALUE) == 0) return a | POS_INF;
    if (a < 0) return DEFAULT_NAN;
    return finish(rsqRefined(Double.longBitsToDouble(a)), mode);
  }

  /** 1/sqrt(x) with one Newton step on an exactly split residual, so the error stays within 1 ULP. */
  static double rsqRefined(double x) {
    double r = 1.0 / Math.sqrt(x);
    if (Double.isInfinite(r) || r == 0) return r;
    double h = x * r;
    double hl = Math.fma(x, r, -h);
    double e = Math.fma(-h, r, 1.0) - hl * r; // 1 - x r^2
    return Math.fma(r * 0.5, e, r);
  }

  public static long sqrt(long a, int mode) {
    a = FloatOps.in(F64, a, mode);
    if (isNaN(a)) return nan(a, mode);
    if ((a & Long.MAX_VALUE) == 0) return a;
    if (a < 0) return DEFAULT_NAN;
    return finish(Math.sqrt(Double.longBitsToDouble(a)), mode);
  }

  // ------------------------------------------------------------------------------------------------------------
  // V_TRIG_PREOP_F64

  /** Fraction bits of 2/pi the hardware holds (b_1200 .. b_0). */
  static final int TWO_OVER_PI_BITS = 1201;

  /** 2/pi's first {@link #TWO_OVER_PI_BITS} fraction bits, most significant first, packed in longs. */
  static final long[] TWO_OVER_PI = twoOverPi();

  private static long[] twoOverPi() {
    // pi by Machin's formula in fixed point with ample guard bits, then floor(2/pi * 2^1201).
    int precision = TWO_OVER_PI_BITS + 64;
    BigInteger one = BigInteger.ONE.shiftLeft(precision);
    BigInteger pi = arctanInverse(5, one).shiftLeft(4).subtract(arctanInverse(239, one).shiftLeft(2));
    BigInteger fraction = one.shiftLeft(1 + TWO_OVER_PI_BITS).divide(pi); // 2/pi * 2^1201
    long[] words = new long[(TWO_OVER_PI_BITS + 63) / 64];
    for (int i = 0; i < TWO_OVER_PI_BITS; i++) {
      if (fraction.testBit(TWO_OVER_PI_BITS - 1 - i)) words[i >>> 6] |= 1L << (63 - (i & 63));
    }
    return words;
  }

  private static BigInteger arctanInverse(int x, BigInteger one) {
    BigInteger xx = BigInteger.valueOf((long) x * x);
    BigInteger term = one.divide(BigInteger.valueOf(x));
    BigInteger sum = term;
    for (int n = 1; term.signum() != 0; n++) {
      term = term.divide(xx);
      BigInteger t = term.divide(BigInteger.valueOf(2L * n + 1));
      sum = (n & 1) != 0 ? sum.subtract(t) : sum.add(t);
    }
    return sum;
  }

  /** Fraction bit {@code i} of 2/pi (0 is the bit of weight 1/2); zero beyond the stored bits. */
  static int twoOverPiBit(int i) {
    if (i < 0 || i >= TWO_OVER_PI_BITS) return 0;
    return (int) (TWO_OVER_PI[i >>> 6] >>> (63 - (i & 63))) & 1;
  }

  /**
   * V_TRIG_PREOP_F64: the 53-bit segment of 2/pi that starts at fraction bit {@code shift}, scaled by
   * 2^(-53 - shift), where {@code shift = 53 * S1[4:0]} plus {@code exponent(S0) - 1077} when S0's biased exponent
   * exceeds 1077; inputs with exponent >= 1968 get the result scaled up by 2^128 to stay out of denormals. The
   * guide's rounding is toward zero (the segment itself is exact unless it lands in the denormal range). Bits of
   * 2/pi beyond the 1201 the hardware stores read as zero.
   */
  public static long trigPreop(long a, int segment, int mode) {
    int exponent = (int) ((a >>> 52) & 0x7ff);
    int shift = (segment & 31) * 53;
    if (exponent > 1077) shift += exponent - 1077;
    long window = 0;
    for (int i = 0; i < 53; i++) window = window << 1 | twoOverPiBit(shift + i);
    int scale = -53 - shift;
    if (exponent >= 1968) scale += 128;
    return SoftFloat.roundWith(F64, false, window, scale, FpMode.ROUND_TOWARD_ZERO,
        FpMode.flushesOutput(mode, F64), false);
  }
}
