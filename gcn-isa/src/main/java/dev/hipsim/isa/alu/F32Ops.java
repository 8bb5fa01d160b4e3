package dev.hipsim.isa.alu;

import static dev.hipsim.isa.fp.FpFormat.F32;

import dev.hipsim.isa.fp.FpMode;
import dev.hipsim.isa.fp.SoftFloat;

/**
 * Single-precision VALU operations on raw {@code int} bits under a MODE value. Results are unmodified by
 * OMOD/CLAMP; apply {@link OutputMods#f32} afterwards (and {@link OutputMods#absNeg32} to sources first).
 *
 * <p>IEEE operations (add, sub, mul, fma, sqrt, conversions) are correctly rounded in every MODE. In the default
 * mode (nearest even, denormals kept) they run on Java's float arithmetic after the NaN cases are settled
 * explicitly, so the result never depends on which NaN the host picks.
 *
 * <p>Approximations: RCP, RSQ, SQRT, EXP, LOG are specified to 1 ULP with denormal inputs and outputs flushed
 * regardless of MODE; SIN and COS (angle in revolutions) have no stated bound. This model returns the correctly
 * rounded (nearest-even) value for RCP and SQRT and within 1 ULP of the exact value for the others (the
 * properties check both), independent of MODE's rounding field.
 */
public final class F32Ops {
  private F32Ops() {}

  public static final int DEFAULT_NAN = 0xffc00000;
  public static final int POS_INF = 0x7f800000;
  public static final int NEG_INF = 0xff800000;
  public static final int ONE = 0x3f800000;

  /** Whether MODE asks for what Java's float arithmetic does: round to nearest even, f32 denormals kept. */
  public static boolean fast(int mode) {
    return (mode & 0x33) == 0x30;
  }

  static long u(int a) {
    return a & 0xffffffffL;
  }

  static boolean isNaN(int a) {
    return (a & 0x7fffffff) > POS_INF;
  }

  static int nan(int a, int mode) {
    return FpMode.ieee(mode) ? a | 0x400000 : a;
  }

  static int flush(int a) {
    return (a & POS_INF) == 0 ? a & 0x80000000 : a;
  }

  // ------------------------------------------------------------------------------------------------------------
  // IEEE arithmetic

  public static int add(int a, int b, int mode) {
    if (fast(mode)) {
      if (isNaN(a)) return nan(a, mode);
      if (isNaN(b)) return nan(b, mode);
      float r = Float.intBitsToFloat(a) + Float.intBitsToFloat(b);
      return r != r ? DEFAULT_NAN : Float.floatToRawIntBits(r);
    }
    return (int) SoftFloat.add(F32, u(a), u(b), mode);
  }

  public static int sub(int a, int b, int mode) {
    return add(a, b ^ 0x80000000, mode);
  }

  public static int mul(int a, int b, int mode) {
    if (fast(mode)) {
      if (isNaN(a)) return nan(a, mode);
      if (isNaN(b)) return nan(b, mode);
      float r = Float.intBitsToFloat(a) * Float.intBitsToFloat(b);
      return r != r ? DEFAULT_NAN : Float.floatToRawIntBits(r);
    }
    return (int) SoftFloat.mul(F32, u(a), u(b), mode);
  }

  /** V_FMA_F32, V_FMAC_F32, V_FMAMK/FMAAK_F32: fused, single rounding. */
  public static int fma(int a, int b, int c, int mode) {
    if (fast(mode)) {
      int ma = a & 0x7fffffff;
      int mb = b & 0x7fffffff;
      if ((ma == POS_INF && mb == 0) || (mb == POS_INF && ma == 0)) return DEFAULT_NAN;
      if (isNaN(a)) return nan(a, mode);
      if (isNaN(b)) return nan(b, mode);
      if (isNaN(c)) return nan(c, mode);
      float r = Math.fma(Float.intBitsToFloat(a), Float.intBitsToFloat(b), Float.intBitsToFloat(c));
      return r != r ? DEFAULT_NAN : Float.floatToRawIntBits(r);
    }
    return (int) SoftFloat.fma(F32, u(a), u(b), u(c), mode);
  }

  /**
   * V_MAD_F32, V_MAC_F32, V_MADAK/MADMK_F32 (gfx90a): multiply, round, add, round; these never support denormals,
   * so inputs and both results are flushed whatever MODE says (LLVM only selects them when f32 denormals are off).
   */
  public static int mad(int a, int b, int c, int mode) {
    int m = FpMode.withDenorm(mode, F32, FpMode.DENORM_FLUSH_ALL);
    return add(mul(a, b, m), c, m);
  }

  /** V_MUL_LEGACY_F32: DX9 rules, 0 times anything (even infinity or NaN) is +0. */
  public static int mulLegacy(int a, int b, int mode) {
    if (FpMode.flushesInput(mode, F32)) {
      a = flush(a);
      b = flush(b);
    }
    if ((a & 0x7fffffff) == 0 || (b & 0x7fffffff) == 0) return 0;
    return mul(a, b, mode);
  }

  /** V_MAD_LEGACY_F32 (gfx90a): {@link #mulLegacy} then an add, unfused and denormal-flushing like V_MAD_F32. */
  public static int madLegacy(int a, int b, int c, int mode) {
    int m = FpMode.withDenorm(mode, F32, FpMode.DENORM_FLUSH_ALL);
    return add(mulLegacy(a, b, m), c, m);
  }

  // ------------------------------------------------------------------------------------------------------------
  // Selection, exponent and integral-value operations

  public static int min(int a, int b, int mode) {
    return (int) FloatOps.min(F32, u(a), u(b), mode);
  }

  public static int max(int a, int b, int mode) {
    return (int) FloatOps.max(F32, u(a), u(b), mode);
  }

  public static int min3(int a, int b, int c, int mode) {
    return (int) FloatOps.min3(F32, u(a), u(b), u(c), mode);
  }

  public static int max3(int a, int b, int c, int mode) {
    return (int) FloatOps.max3(F32, u(a), u(b), u(c), mode);
  }

  public static int med3(int a, int b, int c, int mode) {
    return (int) FloatOps.med3(F32, u(a), u(b), u(c), mode);
  }

  public static int ldexp(int a, int exponent, int mode) {
    return (int) FloatOps.ldexp(F32, u(a), exponent, mode);
  }

  public static int frexpMant(int a, int mode) {
    return (int) FloatOps.frexpMant(F32, u(a), mode);
  }

  public static int frexpExp(int a, int mode) {
    return FloatOps.frexpExp(F32, u(a), mode);
  }

  public static int fract(int a, int mode) {
    return (int) FloatOps.fract(F32, u(a), mode);
  }

  public static int trunc(int a, int mode) {
    return (int) FloatOps.roundIntegral(F32, u(a), FloatOps.TRUNC, mode);
  }

  public static int floor(int a, int mode) {
    return (int) FloatOps.roundIntegral(F32, u(a), FloatOps.FLOOR, mode);
  }

  public static int ceil(int a, int mode) {
    return (int) FloatOps.roundIntegral(F32, u(a), FloatOps.CEIL, mode);
  }

  public static int rndne(int a, int mode) {
    return (int) FloatOps.roundIntegral(F32, u(a), FloatOps.EVEN, mode);
  }

  // ------------------------------------------------------------------------------------------------------------
  // Division helpers

  public static int divScale(int value, int den, int num, int mode) {
    return (int) FloatOps.divScale(F32, u(value), u(den), u(num), mode);
  }

  public static boolean divScaleVcc(int value, int den, int num, int mode) {
    return FloatOps.divScaleVcc(F32, u(value), u(den), u(num), mode);
  }

  public static int divFmas(int a, int b, int c, boolean vcc, int mode) {
    return (int) FloatOps.divFmas(F32, u(a), u(b), u(c), vcc, mode);
  }

  public static int divFixup(int q, int den, int num, int mode) {
    return (int) FloatOps.divFixup(F32, u(q), u(den), u(num), mode);
  }

  // ------------------------------------------------------------------------------------------------------------
  // Transcendental approximations

  static int finish(double value) {
    return flush(Float.floatToRawIntBits((float) value));
  }

  /** V_RCP_F32 (and V_RCP_IFLAG_F32, which differs only in the exception it may raise). */
  public static int rcp(int a, int mode) {
    a = flush(a);
    if (isNaN(a)) return nan(a, mode);
    if ((a & 0x7fffffff) == 0) return a | POS_INF;
    if ((a & 0x7fffffff) == POS_INF) return a & 0x80000000;
    return finish(1.0 / Float.intBitsToFloat(a));
  }

  public static int rcpIflag(int a, int mode) {
    return rcp(a, mode);
  }

  public static int rsq(int a, int mode) {
    a = flush(a);
    if (isNaN(a)) return nan(a, mode);
    if ((a & 0x7fffffff) == 0) return a | POS_INF;
    if (a < 0) return DEFAULT_NAN;
    if (a == POS_INF) return 0;
    return finish(1.0 / Math.sqrt(Float.intBitsToFloat(a)));
  }

  public static int sqrt(int a, int mode) {
    a = flush(a);
    if (isNaN(a)) return nan(a, mode);
    if ((a & 0x7fffffff) == 0) return a;
    if (a < 0) return DEFAULT_NAN;
    return finish(Math.sqrt(Float.intBitsToFloat(a)));
  }

  /** V_EXP_F32: 2^a. */
  public static int exp(int a, int mode) {
    a = flush(a);
    if (isNaN(a)) return nan(a, mode);
    return finish(Math.pow(2.0, Float.intBitsToFloat(a)));
  }

  /** V_LOG_F32: log2(a). */
  public static int log(int a, int mode) {
    a = flush(a);
    if (isNaN(a)) return nan(a, mode);
    if ((a & 0x7fffffff) == 0) return NEG_INF;
    if (a < 0) return DEFAULT_NAN;
    if (a == POS_INF) return POS_INF;
    return finish(log2(Float.intBitsToFloat(a)));
  }

  /**
   * V_EXP_LEGACY_F32: 2^a with the pre-GCN3 ("legacy") behaviour. The guides give no more than the name; the
   * observed behaviour (CLRX documentation, measured on hardware) is V_EXP_F32 except that inputs below -126 give
   * +0 whatever MODE says.
   */
  public static int expLegacy(int a, int mode) {
    if (!isNaN(a) && Float.intBitsToFloat(a) < -126.0f) return 0;
    return exp(a, mode);
  }

  /**
   * V_LOG_LEGACY_F32: log2(a) with the legacy behaviour (CLRX, measured): denormal inputs are flushed whatever
   * MODE says, 1.0 gives +0 and negative inputs the negative default NaN; otherwise as V_LOG_F32.
   */
  public static int logLegacy(int a, int mode) {
    a = flush(a);
    if (isNaN(a)) return nan(a, mode);
    if (a == ONE) return 0;
    if (a < 0 && (a & 0x7fffffff) != 0) return DEFAULT_NAN;
    return log(a, mode);
  }

  /** log2 of a positive finite double, exact for powers of two. */
  static double log2(double x) {
    int e = Math.getExponent(x);
    if (e < Double.MIN_EXPONENT) { // subnormal double
      x *= 0x1p54;
      e = Math.getExponent(x) - 54;
    }
    double m = x / Math.scalb(1.0, Math.getExponent(x)); // in [1, 2)
    return e + Math.log(m) * (1 / Math.log(2));
  }

  /** V_SIN_F32: sin(2 pi a); the angle is in revolutions, so only its fractional part matters. */
  public static int sin(int a, int mode) {
    if (isNaN(a)) return nan(a, mode);
    if ((a & 0x7fffffff) == POS_INF) return DEFAULT_NAN;
    if ((a & 0x7fffffff) == 0) return a;
    return Float.floatToRawIntBits((float) sinRevolutions(Float.intBitsToFloat(a), 0));
  }

  /** V_COS_F32: cos(2 pi a), angle in revolutions. */
  public static int cos(int a, int mode) {
    if (isNaN(a)) return nan(a, mode);
    if ((a & 0x7fffffff) == POS_INF) return DEFAULT_NAN;
    return Float.floatToRawIntBits((float) sinRevolutions(Float.intBitsToFloat(a), 0.25));
  }

  /**
   * sin(2 pi (x + phase)) for a finite x (any float or half value, exact in a double). The reduction to a
   * quarter turn is exact, so multiples of a quarter turn give exact 0 and +-1; an exact zero result is +0.
   */
  static double sinRevolutions(double x, double phase) {
    double r = x - Math.floor(x) + phase; // exact: x has at most 24 significant bits
    if (r >= 1) r -= 1;
    double y = r * 4;
    int quadrant = (int) y;
    double t = (y - quadrant) * (Math.PI / 2);
    double s;
    switch (quadrant) {
      case 0:
        s = Math.sin(t);
        break;
      case 1:
        s = Math.cos(t);
        break;
      case 2:
        s = -Math.sin(t);
        break;
      default:
        s = -Math.cos(t);
    }
    return s + 0.0;
  }

  // ------------------------------------------------------------------------------------------------------------
  // Cube map helpers (V_CUBEID/SC/TC/MA_F32), straight from the guide's pseudocode

  static float f(int bits) {
    return Float.intBitsToFloat(bits);
  }

  static int bits(float v) {
    return Float.floatToRawIntBits(v);
  }

  public static int cubeId(int x, int y, int z) {
    float ax = Math.abs(f(x));
    float ay = Math.abs(f(y));
    float az = Math.abs(f(z));
    if (az >= ax && az >= ay) return bits(f(z) < 0 ? 5f : 4f);
    if (ay >= ax) return bits(f(y) < 0 ? 3f : 2f);
    return bits(f(x) < 0 ? 1f : 0f);
  }

  public static int cubeSc(int x, int y, int z) {
    float ax = Math.abs(f(x));
    float ay = Math.abs(f(y));
    float az = Math.abs(f(z));
    if (az >= ax && az >= ay) return f(z) < 0 ? x ^ 0x80000000 : x;
    if (ay >= ax) return x;
    return f(x) < 0 ? z : z ^ 0x80000000;
  }

  public static int cubeTc(int x, int y, int z) {
    float ax = Math.abs(f(x));
    float ay = Math.abs(f(y));
    float az = Math.abs(f(z));
    if (az >= ax && az >= ay) return y ^ 0x80000000;
    if (ay >= ax) return f(y) < 0 ? z ^ 0x80000000 : z;
    return y ^ 0x80000000;
  }

  public static int cubeMa(int x, int y, int z, int mode) {
    float ax = Math.abs(f(x));
    float ay = Math.abs(f(y));
    float az = Math.abs(f(z));
    int axis = az >= ax && az >= ay ? z : ay >= ax ? y : x;
    return mul(axis, 0x40000000, mode);
  }
}
