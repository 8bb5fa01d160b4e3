package dev.hipsim.isa.alu;

import dev.hipsim.isa.fp.FpFormat;
import dev.hipsim.isa.fp.FpMode;
import dev.hipsim.isa.fp.SoftFloat;

/**
 * VALU floating-point semantics that are the same in every precision, on raw bits of an {@link FpFormat} held in
 * a {@code long}. The typed entry points ({@link F32Ops}, {@link F64Ops}, {@link F16Ops}) delegate here for
 * everything that is not on a hot path. Each method follows the ISA guide's pseudocode; where the guide is silent
 * or known to differ from hardware the choice is stated on the method.
 */
public final class FloatOps {
  private FloatOps() {}

  static long in(int f, long bits, int mode) {
    return FpMode.flushesInput(mode, f) ? FpFormat.flush(f, bits) : bits;
  }

  static long out(int f, long bits, int mode) {
    return FpMode.flushesOutput(mode, f) ? FpFormat.flush(f, bits) : bits;
  }

  static boolean isPosZero(int f, long b) {
    return b == 0;
  }

  static boolean isNegZero(int f, long b) {
    return b == FpFormat.signBit(f);
  }

  /** Exact ordering of two non-NaN values ({@code -0 == +0}). */
  static int compareValues(int f, long a, long b) {
    long s = FpFormat.signBit(f);
    long ka = (a & s) != 0 ? -(a & ~s) : a;
    long kb = (b & s) != 0 ? -(b & ~s) : b;
    return Long.compare(ka, kb);
  }

  // ------------------------------------------------------------------------------------------------------------
  // min / max (V_MIN_*, V_MAX_*, V_MIN3, V_MAX3, V_MED3)

  /**
   * V_MIN_F*: in IEEE mode a signalling NaN operand is quieted and returned; otherwise a NaN operand yields the
   * other operand; -0 is below +0. Inputs are flushed per MODE (and the selection flushed again on output).
   */
  public static long min(int f, long a, long b, int mode) {
    a = in(f, a, mode);
    b = in(f, b, mode);
    boolean ieee = FpMode.ieee(mode);
    if (ieee && FpFormat.isSignalingNaN(f, a)) return a | FpFormat.quietBit(f);
    if (ieee && FpFormat.isSignalingNaN(f, b)) return b | FpFormat.quietBit(f);
    if (FpFormat.isNaN(f, a)) return out(f, b, mode);
    if (FpFormat.isNaN(f, b)) return out(f, a, mode);
    if (isPosZero(f, a) && isNegZero(f, b)) return b;
    if (isNegZero(f, a) && isPosZero(f, b)) return a;
    return out(f, compareValues(f, a, b) < 0 ? a : b, mode);
  }

  /** V_MAX_F*: mirror image of {@link #min}; +0 is above -0. */
  public static long max(int f, long a, long b, int mode) {
    a = in(f, a, mode);
    b = in(f, b, mode);
    boolean ieee = FpMode.ieee(mode);
    if (ieee && FpFormat.isSignalingNaN(f, a)) return a | FpFormat.quietBit(f);
    if (ieee && FpFormat.isSignalingNaN(f, b)) return b | FpFormat.quietBit(f);
    if (FpFormat.isNaN(f, a)) return out(f, b, mode);
    if (FpFormat.isNaN(f, b)) return out(f, a, mode);
    if (isPosZero(f, a) && isNegZero(f, b)) return a;
    if (isNegZero(f, a) && isPosZero(f, b)) return b;
    int c = compareValues(f, a, b);
    return out(f, (ieee ? c >= 0 : c > 0) ? a : b, mode);
  }

  public static long min3(int f, long a, long b, long c, int mode) {
    return min(f, min(f, a, b, mode), c, mode);
  }

  public static long max3(int f, long a, long b, long c, int mode) {
    return max(f, max(f, a, b, mode), c, mode);
  }

  /** V_MED3_F*: any NaN gives min3; otherwise the max of the two operands that are not the maximum. */
  public static long med3(int f, long a, long b, long c, int mode) {
    if (FpFormat.isNaN(f, a) || FpFormat.isNaN(f, b) || FpFormat.isNaN(f, c)) return min3(f, a, b, c, mode);
    long m = max3(f, a, b, c, mode);
    if (compareValues(f, m, in(f, a, mode)) == 0) return max(f, b, c, mode);
    if (compareValues(f, m, in(f, b, mode)) == 0) return max(f, a, c, mode);
    return max(f, a, b, mode);
  }

  // ------------------------------------------------------------------------------------------------------------
  // Exponent manipulation

  /** V_LDEXP_F*: {@code a * 2^e} rounded per MODE (exact unless the result leaves the normal range). */
  public static long ldexp(int f, long a, int e, int mode) {
    a = in(f, a, mode);
    if (FpFormat.isNaN(f, a)) return SoftFloat.propagateNaN(f, a, mode);
    if (FpFormat.isInfinite(f, a) || FpFormat.isZero(f, a)) return a;
    int bounded = Math.max(-4096, Math.min(4096, e));
    return SoftFloat.round(f, FpFormat.isNegative(f, a), SoftFloat.significand(f, a),
        SoftFloat.exponent(f, a) + bounded, mode);
  }

  /**
   * V_FREXP_MANT_F*: the significand scaled into [0.5, 1) with the input's sign; infinities pass through, NaNs
   * propagate, zeros (and flushed denormals) stay signed zeros. A denormal input is normalized first.
   */
  public static long frexpMant(int f, long a, int mode) {
    a = in(f, a, mode);
    if (FpFormat.isNaN(f, a)) return SoftFloat.propagateNaN(f, a, mode);
    if (FpFormat.isInfinite(f, a) || FpFormat.isZero(f, a)) return a;
    int man = FpFormat.mantissaBits(f);
    long sig = SoftFloat.significand(f, a);
    sig <<= Long.numberOfLeadingZeros(sig) - (63 - man); // leading bit at position man
    long half = (long) (FpFormat.bias(f) - 1) << man;
    return (a & FpFormat.signBit(f)) | half | (sig & FpFormat.mantissaMask(f));
  }

  /**
   * V_FREXP_EXP_*: the exponent e with {@code a = mant * 2^e}, mant in [0.5, 1); 0 for zeros, infinities and
   * NaNs. The guide writes {@code exponent(S0) - bias + 1} on the encoded field; for a denormal input this uses
   * the normalized exponent instead, which keeps the documented invariant (and matches C's frexp).
   */
  public static int frexpExp(int f, long a, int mode) {
    a = in(f, a, mode);
    if (FpFormat.isNaN(f, a) || FpFormat.isInfinite(f, a) || FpFormat.isZero(f, a)) return 0;
    long sig = SoftFloat.significand(f, a);
    return SoftFloat.exponent(f, a) + 64 - Long.numberOfLeadingZeros(sig);
  }

  // ------------------------------------------------------------------------------------------------------------
  // Rounding to integral values

  static final int TRUNC = 0;
  static final int FLOOR = 1;
  static final int CEIL = 2;
  static final int EVEN = 3;

  /**
   * V_TRUNC/V_FLOOR/V_CEIL/V_RNDNE: exact, so MODE rounding does not matter; the sign of a zero result is the
   * input's (IEEE roundToIntegral). NaNs propagate, infinities pass through.
   */
  public static long roundIntegral(int f, long a, int how, int mode) {
    a = in(f, a, mode);
    if (FpFormat.isNaN(f, a)) return SoftFloat.propagateNaN(f, a, mode);
    if (FpFormat.isInfinite(f, a) || FpFormat.isZero(f, a)) return a;
    int exp = SoftFloat.exponent(f, a);
    if (exp >= 0) return a; // already an integer
    boolean neg = FpFormat.isNegative(f, a);
    long sig = SoftFloat.significand(f, a);
    int shift = -exp;
    long kept = shift >= 64 ? 0 : sig >>> shift;
    long rest = shift >= 64 ? sig : sig & ((1L << shift) - 1);
    boolean up;
    switch (how) {
      case FLOOR:
        up = neg && rest != 0;
        break;
      case CEIL:
        up = !neg && rest != 0;
        break;
      case EVEN:
        long half = shift >= 64 ? -1 : 1L << (shift - 1);
        up = shift < 64 && (rest > half || (rest == half && (kept & 1) != 0));
        break;
      default:
        up = false;
    }
    long magnitude = up ? kept + 1 : kept;
    if (magnitude == 0) return neg ? FpFormat.signBit(f) : 0;
    return SoftFloat.round(f, neg, magnitude, 0, FpMode.DEFAULT);
  }

  /**
   * V_FRACT_F*: {@code a - floor(a)} rounded per MODE and clamped below 1.0 (a tiny negative input would otherwise
   * round to 1.0). Infinity gives the default NaN (inf - inf), NaNs propagate.
   */
  public static long fract(int f, long a, int mode) {
    a = in(f, a, mode);
    if (FpFormat.isNaN(f, a)) return SoftFloat.propagateNaN(f, a, mode);
    if (FpFormat.isInfinite(f, a)) return FpFormat.defaultNaN(f);
    long fl = roundIntegral(f, a, FLOOR, mode);
    long r = SoftFloat.sub(f, a, fl, mode);
    long one = (long) FpFormat.bias(f) << FpFormat.mantissaBits(f);
    if (compareValues(f, r, one) >= 0) return one - 1;
    return r;
  }

  // ------------------------------------------------------------------------------------------------------------
  // Division helpers (V_DIV_SCALE, V_DIV_FMAS, V_DIV_FIXUP)
  //
  // The guide's pseudocode for DIV_SCALE tests "1/S1 is denormal in f64" (unreachable for f32) and DIV_FMAS scales
  // by the fixed 2^32 / 2^64, neither of which undoes DIV_SCALE's 2^64 / 2^128 steps. We follow the behaviour
  // AMD's rocjitsu emulator verified on hardware (gfx1100/gfx1201, division.h): encoded-exponent thresholds,
  // and DIV_FMAS choosing +-scale from the addend's exponent. CDNA is assumed to share the divide datapath.

  static int scaleStep(int f) {
    return f == FpFormat.F32 ? 64 : 128;
  }

  static int scaleThreshold(int f) {
    return f == FpFormat.F32 ? 96 : 768;
  }

  /** Scale adjustment and VCC of DIV_SCALE, packed as {@code adjust << 1 | vcc}. */
  static int divScalePlan(int f, long value, long den, long num) {
    long s = FpFormat.signBit(f);
    int de = FpFormat.exponentField(f, den & ~s);
    int ne = FpFormat.exponentField(f, num & ~s);
    int delta = ne - de;
    boolean isDen = value == den;
    int step = scaleStep(f);
    int threshold = scaleThreshold(f);
    int adjust = 0;
    boolean post = false;
    if (delta >= threshold) {
      adjust = isDen ? step : 0;
      post = true;
    } else if (de == 0) {
      adjust = step;
    } else if (de >= 2 * FpFormat.bias(f) - 1) {
      post = delta <= -threshold;
      adjust = post && !isDen ? 0 : -step;
    } else if (delta <= -threshold) {
      adjust = isDen ? 0 : step;
      post = true;
    } else if (ne <= FpFormat.mantissaBits(f) + 1) {
      adjust = step;
    }
    return adjust << 1 | (post ? 1 : 0);
  }

  /**
   * V_DIV_SCALE_F32/F64 result: {@code value} (which should be the numerator or the denominator) scaled by
   * 2^+-64 (f32) or 2^+-128 (f64) where the Newton-Raphson steps would otherwise meet denormals or overflow.
   * A zero numerator or denominator gives the default NaN.
   */
  public static long divScale(int f, long value, long den, long num, int mode) {
    value = in(f, value, mode);
    den = in(f, den, mode);
    num = in(f, num, mode);
    int adjust = divScalePlan(f, value, den, num) >> 1;
    if (FpFormat.isZero(f, den) || FpFormat.isZero(f, num)) return FpFormat.defaultNaN(f);
    if (FpFormat.isNaN(f, value)) return SoftFloat.propagateNaN(f, value, mode);
    if (FpFormat.isInfinite(f, value) || FpFormat.isZero(f, value)) return value;
    return SoftFloat.round(f, FpFormat.isNegative(f, value), SoftFloat.significand(f, value),
        SoftFloat.exponent(f, value) + adjust, mode);
  }

  /** The VCC bit V_DIV_SCALE writes: whether V_DIV_FMAS must post-scale the quotient. */
  public static boolean divScaleVcc(int f, long value, long den, long num, int mode) {
    return (divScalePlan(f, in(f, value, mode), in(f, den, mode), in(f, num, mode)) & 1) != 0;
  }

  /**
   * V_DIV_FMAS_F32/F64: {@code fma(a, b, c)}, and when {@code vcc} is set the result is scaled by 2^+-64 (f32)
   * or 2^+-128 (f64) within the same rounding: up when |c| >= 2, down otherwise. Input denormals are never
   * flushed (per the guide); output flushing follows MODE.
   */
  public static long divFmas(int f, long a, long b, long c, boolean vcc, int mode) {
    int scale = 0;
    if (vcc) {
      int ce = FpFormat.exponentField(f, c);
      scale = ce > FpFormat.bias(f) ? scaleStep(f) : -scaleStep(f);
    }
    return SoftFloat.fmaScaled(f, a, b, c, scale, FpMode.withDenorm(mode, f, FpMode.denorm(mode, f) | 1));
  }

  /**
   * V_DIV_FIXUP_F32/F64: sign and special cases of {@code num / den} applied to the quotient estimate {@code q}
   * (S0 = quotient, S1 = denominator, S2 = numerator). A quotient estimate that overflowed becomes infinity or
   * the largest finite value per the rounding mode; a quotient that must underflow becomes the correctly rounded
   * tiny value.
   */
  public static long divFixup(int f, long q, long den, long num, int mode) {
    den = in(f, den, mode);
    num = in(f, num, mode);
    long s = FpFormat.signBit(f);
    boolean negative = ((den ^ num) & s) != 0;
    if (FpFormat.isNaN(f, num)) return SoftFloat.propagateNaN(f, num, mode);
    if (FpFormat.isNaN(f, den)) return SoftFloat.propagateNaN(f, den, mode);
    boolean zeroD = FpFormat.isZero(f, den);
    boolean zeroN = FpFormat.isZero(f, num);
    boolean infD = FpFormat.isInfinite(f, den);
    boolean infN = FpFormat.isInfinite(f, num);
    if ((zeroD && zeroN) || (infD && infN)) return FpFormat.defaultNaN(f);
    if (zeroD || infN) return FpFormat.infinity(f, negative);
    if (zeroN || infD) return negative ? s : 0;
    if (f != FpFormat.F16) {
      int limit = FpFormat.bias(f) + FpFormat.mantissaBits(f);
      if (FpFormat.exponentField(f, num) - FpFormat.exponentField(f, den) < -limit) {
        return SoftFloat.round(f, negative, 1, -2 * limit, mode);
      }
      if ((q & ~s) >= FpFormat.exponentMask(f)) {
        return SoftFloat.overflow(f, negative, FpMode.round(mode, f), false);
      }
    }
    return (negative ? s : 0) | (q & ~s);
  }

  // ------------------------------------------------------------------------------------------------------------
  // Classification and comparison

  /**
   * V_CMP_CLASS_F*: bit of the 10-bit mask selected by the class of {@code a} (0 signalling NaN, 1 quiet NaN,
   * 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf). The value is classified as
   * encoded; MODE's input flushing does not apply to a classification.
   */
  public static boolean cmpClass(int f, long a, int mask) {
    return (mask >>> classOf(f, a) & 1) != 0;
  }

  /** The class index (0-9) of {@link #cmpClass}. */
  public static int classOf(int f, long a) {
    boolean neg = FpFormat.isNegative(f, a);
    if (FpFormat.isNaN(f, a)) return FpFormat.isSignalingNaN(f, a) ? 0 : 1;
    if (FpFormat.isInfinite(f, a)) return neg ? 2 : 9;
    if (FpFormat.exponentField(f, a) > 0) return neg ? 3 : 8;
    if (!FpFormat.isZero(f, a)) return neg ? 4 : 7;
    return neg ? 5 : 6;
  }

  /** V_CMP predicates on floats, by their encoding offset (the low 4 bits of the VOPC opcode). */
  public static final int CMP_F = 0;
  public static final int CMP_LT = 1;
  public static final int CMP_EQ = 2;
  public static final int CMP_LE = 3;
  public static final int CMP_GT = 4;
  public static final int CMP_LG = 5;
  public static final int CMP_GE = 6;
  public static final int CMP_O = 7;
  public static final int CMP_U = 8;
  public static final int CMP_NGE = 9;
  public static final int CMP_NLG = 10;
  public static final int CMP_NGT = 11;
  public static final int CMP_NLE = 12;
  public static final int CMP_NEQ = 13;
  public static final int CMP_NLT = 14;
  public static final int CMP_TRU = 15;

  /**
   * Evaluates a V_CMP(X) predicate. Signalling and quiet forms give the same value (the difference is only the
   * invalid exception). Inputs are flushed per MODE before comparing; -0 equals +0.
   */
  public static boolean compare(int f, int predicate, long a, long b, int mode) {
    a = in(f, a, mode);
    b = in(f, b, mode);
    boolean unordered = FpFormat.isNaN(f, a) || FpFormat.isNaN(f, b);
    int c = unordered ? 0 : compareValues(f, a, b);
    boolean lt = !unordered && c < 0;
    boolean eq = !unordered && c == 0;
    boolean gt = !unordered && c > 0;
    switch (predicate & 15) {
      case CMP_F:
        return false;
      case CMP_LT:
        return lt;
      case CMP_EQ:
        return eq;
      case CMP_LE:
        return lt || eq;
      case CMP_GT:
        return gt;
      case CMP_LG:
        return lt || gt;
      case CMP_GE:
        return gt || eq;
      case CMP_O:
        return !unordered;
      case CMP_U:
        return unordered;
      case CMP_NGE:
        return !(gt || eq);
      case CMP_NLG:
        return !(lt || gt);
      case CMP_NGT:
        return !gt;
      case CMP_NLE:
        return !(lt || eq);
      case CMP_NEQ:
        return !eq;
      case CMP_NLT:
        return !lt;
      default:
        return true;
    }
  }
}
