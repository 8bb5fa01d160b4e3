package dev.hipsim.isa.alu;

import static dev.hipsim.isa.fp.FpFormat.F16;

import dev.hipsim.isa.fp.FpMode;
import dev.hipsim.isa.fp.Half;
import dev.hipsim.isa.fp.SoftFloat;

/**
 * Half-precision VALU operations on the low 16 bits of an {@code int}, under the MODE value (f16 uses the
 * double/half fields, and FP16_OVFL saturates overflowing results). Results are the 16-bit value; placing it in
 * the destination (low half, or high half with op_sel[3], preserving or zeroing the other half) is the
 * interpreter's job.
 *
 * <p>Approximations (RCP, RSQ, SQRT, LOG, EXP, SIN, COS) are specified to 1 ULP; this model evaluates them in
 * double precision and rounds once to the nearest half, honouring MODE's f16 denormal fields.
 */
public final class F16Ops {
  private F16Ops() {}

  public static final int DEFAULT_NAN = 0xfe00;
  public static final int POS_INF = 0x7c00;
  public static final int NEG_INF = 0xfc00;
  public static final int ONE = 0x3c00;

  static long u(int a) {
    return a & 0xffff;
  }

  static boolean isNaN(int a) {
    return (a & 0x7fff) > POS_INF;
  }

  static int nan(int a, int mode) {
    return (FpMode.ieee(mode) ? a | 0x200 : a) & 0xffff;
  }

  /** Nearest even, f16 denormals kept, no FP16_OVFL: exact in double, one rounding to half. */
  static boolean fast(int mode) {
    return (mode & (FpMode.FP16_OVFL_BIT | 0xcc)) == 0xc0;
  }

  static double d(int a) {
    return Half.toFloat(a & 0xffff);
  }

  public static int add(int a, int b, int mode) {
    if (fast(mode)) {
      if (isNaN(a)) return nan(a, mode);
      if (isNaN(b)) return nan(b, mode);
      double r = d(a) + d(b); // exact: every f16 sum fits in 53 bits
      return r != r ? DEFAULT_NAN : Half.fromDouble(r);
    }
    return (int) SoftFloat.add(F16, u(a), u(b), mode);
  }

  public static int sub(int a, int b, int mode) {
    return add(a, b ^ 0x8000, mode);
  }

  public static int mul(int a, int b, int mode) {
    if (fast(mode)) {
      if (isNaN(a)) return nan(a, mode);
      if (isNaN(b)) return nan(b, mode);
      double r = d(a) * d(b); // exact
      return r != r ? DEFAULT_NAN : Half.fromDouble(r);
    }
    return (int) SoftFloat.mul(F16, u(a), u(b), mode);
  }

  /** V_FMA_F16, V_FMA_LEGACY_F16, V_FMAC (packed forms use this per half). */
  public static int fma(int a, int b, int c, int mode) {
    if (fast(mode)) {
      int ma = a & 0x7fff;
      int mb = b & 0x7fff;
      if ((ma == POS_INF && mb == 0) || (mb == POS_INF && ma == 0)) return DEFAULT_NAN;
      if (isNaN(a)) return nan(a, mode);
      if (isNaN(b)) return nan(b, mode);
      if (isNaN(c)) return nan(c, mode);
      double p = d(a) * d(b); // exact
      double z = d(c);
      double s = p + z;
      if (s != s) return DEFAULT_NAN;
      if (!Double.isInfinite(s)) {
        // The rounding error of p + z is exact (TwoSum); rounding the double to odd makes the final
        // rounding to half correct.
        double zv = s - p;
        double err = (p - (s - zv)) + (z - zv);
        if (err != 0 && (Double.doubleToRawLongBits(s) & 1) == 0) s = Math.nextAfter(s, err > 0 ? 1e300 : -1e300);
      }
      return Half.fromDouble(s);
    }
    return (int) SoftFloat.fma(F16, u(a), u(b), u(c), mode);
  }

  /**
   * V_MAD_F16, V_MAC_F16, V_MADAK/MADMK_F16, V_MAD_LEGACY_F16: multiply and add with two roundings, denormals
   * flushed (the guide: "denormals are flushed").
   */
  public static int mad(int a, int b, int c, int mode) {
    int m = FpMode.withDenorm(mode, F16, FpMode.DENORM_FLUSH_ALL);
    return add(mul(a, b, m), c, m);
  }

  public static int min(int a, int b, int mode) {
    return (int) FloatOps.min(F16, u(a), u(b), mode);
  }

  public static int max(int a, int b, int mode) {
    return (int) FloatOps.max(F16, u(a), u(b), mode);
  }

  public static int min3(int a, int b, int c, int mode) {
    return (int) FloatOps.min3(F16, u(a), u(b), u(c), mode);
  }

  public static int max3(int a, int b, int c, int mode) {
    return (int) FloatOps.max3(F16, u(a), u(b), u(c), mode);
  }

  public static int med3(int a, int b, int c, int mode) {
    return (int) FloatOps.med3(F16, u(a), u(b), u(c), mode);
  }

  /** V_LDEXP_F16: the exponent is the signed 16-bit S1. */
  public static int ldexp(int a, int exponent, int mode) {
    return (int) FloatOps.ldexp(F16, u(a), (short) exponent, mode);
  }

  public static int frexpMant(int a, int mode) {
    return (int) FloatOps.frexpMant(F16, u(a), mode);
  }

  /** V_FREXP_EXP_I16_F16: a signed 16-bit result (sign-extended in the returned int). */
  public static int frexpExp(int a, int mode) {
    return (short) FloatOps.frexpExp(F16, u(a), mode);
  }

  public static int fract(int a, int mode) {
    return (int) FloatOps.fract(F16, u(a), mode);
  }

  public static int trunc(int a, int mode) {
    return (int) FloatOps.roundIntegral(F16, u(a), FloatOps.TRUNC, mode);
  }

  public static int floor(int a, int mode) {
    return (int) FloatOps.roundIntegral(F16, u(a), FloatOps.FLOOR, mode);
  }

  public static int ceil(int a, int mode) {
    return (int) FloatOps.roundIntegral(F16, u(a), FloatOps.CEIL, mode);
  }

  public static int rndne(int a, int mode) {
    return (int) FloatOps.roundIntegral(F16, u(a), FloatOps.EVEN, mode);
  }

  /** V_DIV_FIXUP_F16 and V_DIV_FIXUP_LEGACY_F16 (the legacy form differs only in how op_sel places the result). */
  public static int divFixup(int q, int den, int num, int mode) {
    return (int) FloatOps.divFixup(F16, u(q), u(den), u(num), mode);
  }

  // ------------------------------------------------------------------------------------------------------------
  // Approximations

  /** Rounds a double to half (nearest even), then applies MODE's f16 output flush and FP16_OVFL. */
  static int finish(double v, int mode) {
    if (v != v) return DEFAULT_NAN;
    long bits = Double.doubleToRawLongBits(v);
    boolean neg = bits < 0;
    if (Double.isInfinite(v)) return neg ? NEG_INF : POS_INF;
    if (v == 0) return neg ? 0x8000 : 0;
    long sig = SoftFloat.significand(3, bits);
    int exp = SoftFloat.exponent(3, bits);
    int m = FpMode.withRound(mode, F16, FpMode.ROUND_NEAREST_EVEN);
    return (int) SoftFloat.round(F16, neg, sig, exp, m);
  }

  static double value(int a, int mode) {
    return Half.toFloat((int) FloatOps.in(F16, u(a), mode));
  }

  public static int rcp(int a, int mode) {
    if (isNaN(a)) return nan(a, mode);
    return finish(1.0 / value(a, mode), mode);
  }

  public static int rsq(int a, int mode) {
    if (isNaN(a)) return nan(a, mode);
    double x = value(a, mode);
    if (x == 0) return (a & 0x8000) | POS_INF;
    if (x < 0) return DEFAULT_NAN;
    return finish(1.0 / Math.sqrt(x), mode);
  }

  public static int sqrt(int a, int mode) {
    if (isNaN(a)) return nan(a, mode);
    double x = value(a, mode);
    if (x == 0) return (int) FloatOps.in(F16, u(a), mode);
    if (x < 0) return DEFAULT_NAN;
    return finish(Math.sqrt(x), mode);
  }

  /** V_LOG_F16: log2. */
  public static int log(int a, int mode) {
    if (isNaN(a)) return nan(a, mode);
    double x = value(a, mode);
    if (x == 0) return NEG_INF;
    if (x < 0) return DEFAULT_NAN;
    if (Double.isInfinite(x)) return POS_INF;
    return finish(F32Ops.log2(x), mode);
  }

  /** V_EXP_F16: 2^a. */
  public static int exp(int a, int mode) {
    if (isNaN(a)) return nan(a, mode);
    return finish(Math.pow(2.0, value(a, mode)), mode);
  }

  /** V_SIN_F16: sin(2 pi a), angle in revolutions. */
  public static int sin(int a, int mode) {
    if (isNaN(a)) return nan(a, mode);
    if ((a & 0x7fff) == POS_INF) return DEFAULT_NAN;
    if ((a & 0x7fff) == 0) return a & 0xffff;
    return finish(F32Ops.sinRevolutions(Half.toFloat(a & 0xffff), 0), mode);
  }

  /** V_COS_F16: cos(2 pi a), angle in revolutions. */
  public static int cos(int a, int mode) {
    if (isNaN(a)) return nan(a, mode);
    if ((a & 0x7fff) == POS_INF) return DEFAULT_NAN;
    return finish(F32Ops.sinRevolutions(Half.toFloat(a & 0xffff), 0.25), mode);
  }
}
