package dev.hipsim.isa.fp;

import static dev.hipsim.isa.fp.FpFormat.F16;

/**
 * Correctly rounded binary floating-point arithmetic on raw bits, in any of the four {@link FpFormat}s and under
 * any MODE (rounding direction, input/output denormal flushing, IEEE NaN quieting, FP16_OVFL). Exact results are
 * formed in 64- or 128-bit integer significands and rounded once, so nothing depends on the host's floating-point
 * environment. The ALU uses these paths whenever MODE is not "nearest even, denormals kept", where Java's own
 * float/double arithmetic is exact and faster.
 *
 * <p>Architectural choices (CDNA, from the ISA guides and hardware-checked emulator notes; see the package docs):
 * <ul>
 *   <li>A NaN result is the first NaN operand (src0, then src1, then src2), quieted only when MODE.IEEE is set; an
 *       invalid operation (0 * inf, inf - inf) produces the negative default NaN, and for FMA that wins over a NaN
 *       addend.
 *   <li>Output flushing detects tininess after rounding (with unbounded exponent), then replaces the result by a
 *       zero of the same sign.
 *   <li>An exact zero sum of operands of different signs is +0, or -0 when rounding toward -inf.
 * </ul>
 */
public final class SoftFloat {
  private SoftFloat() {}

  // ------------------------------------------------------------------------------------------------------------
  // Rounding

  /**
   * Rounds {@code (-1)^negative * sig * 2^exp} to {@code format} under {@code mode}. {@code sig} must be
   * non-negative; its bit 0 may carry a sticky bit as long as it lies below the rounding position.
   */
  public static long round(int format, boolean negative, long sig, int exp, int mode) {
    return roundWith(format, negative, sig, exp, FpMode.round(mode, format), FpMode.flushesOutput(mode, format),
        format == F16 && FpMode.fp16Overflow(mode));
  }

  /** {@link #round} with explicit controls: rounding direction, output flush, and f16 overflow saturation. */
  public static long roundWith(int format, boolean negative, long sig, int exp, int roundMode, boolean flushOutput,
      boolean saturate) {
    long sign = negative ? FpFormat.signBit(format) : 0;
    if (sig == 0) return sign;
    int man = FpFormat.mantissaBits(format);
    int emin = 1 - FpFormat.bias(format);
    int lead = exp + 63 - Long.numberOfLeadingZeros(sig); // exponent of the leading bit
    if (flushOutput && lead < emin) {
      // Tiny unless rounding at full precision (unbounded exponent) carries it up to the smallest normal.
      if (lead < emin - 1 || roundToInteger(sig, exp, lead - man, negative, roundMode) != 1L << (man + 1)) {
        return sign;
      }
    }
    int quantum = Math.max(lead, emin) - man; // exponent of the result's last mantissa bit
    long m = roundToInteger(sig, exp, quantum, negative, roundMode);
    if (m == 1L << (man + 1)) {
      m >>>= 1;
      quantum++;
    }
    if (m >= 1L << man) {
      long biased = (long) quantum + man + FpFormat.bias(format);
      if (biased >= (1L << FpFormat.exponentBits(format)) - 1) {
        return overflow(format, negative, roundMode, saturate);
      }
      return sign | biased << man | (m & FpFormat.mantissaMask(format));
    }
    return sign | m;
  }

  /** The result of an overflow in the given rounding direction: infinity or the largest finite value. */
  public static long overflow(int format, boolean negative, int roundMode, boolean saturate) {
    boolean toInfinity = !saturate && (roundMode == FpMode.ROUND_NEAREST_EVEN
        || roundMode == (negative ? FpMode.ROUND_MINUS_INF : FpMode.ROUND_PLUS_INF));
    return toInfinity ? FpFormat.infinity(format, negative) : FpFormat.maxFinite(format, negative);
  }

  /** {@code sig * 2^(exp - quantum)} rounded to an integer in the given direction. */
  static long roundToInteger(long sig, int exp, int quantum, boolean negative, int roundMode) {
    if (quantum <= exp) return sig << (exp - quantum);
    int shift = quantum - exp;
    long kept;
    boolean guard;
    boolean sticky;
    if (shift >= 64) {
      kept = 0;
      guard = false;
      sticky = sig != 0;
    } else {
      kept = sig >>> shift;
      guard = ((sig >>> (shift - 1)) & 1) != 0;
      sticky = (sig & ((1L << (shift - 1)) - 1)) != 0;
    }
    boolean up;
    switch (roundMode) {
      case FpMode.ROUND_NEAREST_EVEN:
        up = guard && (sticky || (kept & 1) != 0);
        break;
      case FpMode.ROUND_PLUS_INF:
        up = !negative && (guard || sticky);
        break;
      case FpMode.ROUND_MINUS_INF:
        up = negative && (guard || sticky);
        break;
      default:
        up = false;
    }
    return up ? kept + 1 : kept;
  }

  /** Rounds the unsigned 128-bit {@code hi:lo * 2^exp}. */
  public static long roundWide(int format, boolean negative, long hi, long lo, int exp, int mode) {
    int bits = hi != 0 ? 128 - Long.numberOfLeadingZeros(hi) : 64 - Long.numberOfLeadingZeros(lo);
    if (bits <= 63) return round(format, negative, lo, exp, mode);
    int drop = bits - 63;
    return round(format, negative, shiftRightJam(hi, lo, drop), exp + drop, mode);
  }

  /** Low 64 bits of {@code (hi:lo) >>> n}, with every bit shifted out OR-ed into bit 0. */
  static long shiftRightJam(long hi, long lo, int n) {
    if (n == 0) return lo;
    if (n < 64) return (lo >>> n) | (hi << (64 - n)) | ((lo << (64 - n)) != 0 ? 1 : 0);
    if (n == 64) return hi | (lo != 0 ? 1 : 0);
    if (n < 128) return (hi >>> (n - 64)) | ((hi << (128 - n)) != 0 || lo != 0 ? 1 : 0);
    return hi != 0 || lo != 0 ? 1 : 0;
  }

  // ------------------------------------------------------------------------------------------------------------
  // Unpacking

  /** Integer significand of a finite value (hidden bit included for normals). */
  public static long significand(int format, long bits) {
    long m = bits & FpFormat.mantissaMask(format);
    return FpFormat.exponentField(format, bits) == 0 ? m : m | 1L << FpFormat.mantissaBits(format);
  }

  /** Exponent of the significand's bit 0, so that a finite value equals {@code significand * 2^exponent}. */
  public static int exponent(int format, long bits) {
    int field = FpFormat.exponentField(format, bits);
    return (field == 0 ? 1 : field) - FpFormat.bias(format) - FpFormat.mantissaBits(format);
  }

  /** A NaN operand as it appears in a result: quieted when MODE.IEEE is set, unchanged otherwise. */
  public static long propagateNaN(int format, long nan, int mode) {
    return FpMode.ieee(mode) ? nan | FpFormat.quietBit(format) : nan;
  }

  static long flushInput(int format, long bits, int mode) {
    return FpMode.flushesInput(mode, format) ? FpFormat.flush(format, bits) : bits;
  }

  /** Sign of an exact zero result from operands whose zero signs differ: -0 only when rounding toward -inf. */
  static long cancellationZero(int format, int mode) {
    return FpMode.round(mode, format) == FpMode.ROUND_MINUS_INF ? FpFormat.signBit(format) : 0;
  }

  // ------------------------------------------------------------------------------------------------------------
  // Arithmetic

  public static long add(int format, long a, long b, int mode) {
    a = flushInput(format, a, mode);
    b = flushInput(format, b, mode);
    boolean nanA = FpFormat.isNaN(format, a);
    if (nanA || FpFormat.isNaN(format, b)) return propagateNaN(format, nanA ? a : b, mode);
    boolean negA = FpFormat.isNegative(format, a);
    boolean negB = FpFormat.isNegative(format, b);
    if (FpFormat.isInfinite(format, a)) {
      return FpFormat.isInfinite(format, b) && negA != negB ? FpFormat.defaultNaN(format) : a;
    }
    if (FpFormat.isInfinite(format, b)) return b;
    boolean zeroA = FpFormat.isZero(format, a);
    boolean zeroB = FpFormat.isZero(format, b);
    if (zeroA && zeroB) return negA == negB ? a : cancellationZero(format, mode);
    if (zeroA) return round(format, negB, significand(format, b), exponent(format, b), mode);
    if (zeroB) return round(format, negA, significand(format, a), exponent(format, a), mode);
    return addFinite(format, negA, significand(format, a), exponent(format, a), negB, significand(format, b),
        exponent(format, b), mode);
  }

  public static long sub(int format, long a, long b, int mode) {
    return add(format, a, b ^ FpFormat.signBit(format), mode);
  }

  /** Rounded sum of two nonzero finite values given as sign, significand (up to 62 bits) and exponent. */
  public static long addFinite(int format, boolean negA, long sigA, int expA, boolean negB, long sigB, int expB,
      int mode) {
    // Both significands get their leading bit at bit 60; the smaller operand is shifted right with a sticky bit.
    int shiftA = Long.numberOfLeadingZeros(sigA) - 3;
    int shiftB = Long.numberOfLeadingZeros(sigB) - 3;
    sigA = shiftA >= 0 ? sigA << shiftA : sigA >>> -shiftA | ((sigA & ((1L << -shiftA) - 1)) != 0 ? 1 : 0);
    sigB = shiftB >= 0 ? sigB << shiftB : sigB >>> -shiftB | ((sigB & ((1L << -shiftB) - 1)) != 0 ? 1 : 0);
    expA -= shiftA;
    expB -= shiftB;
    if (expB > expA || (expB == expA && sigB > sigA)) {
      boolean n = negA;
      negA = negB;
      negB = n;
      long s = sigA;
      sigA = sigB;
      sigB = s;
      int e = expA;
      expA = expB;
      expB = e;
    }
    int d = expA - expB;
    if (d > 0) sigB = d >= 63 ? 1 : sigB >>> d | ((sigB & ((1L << d) - 1)) != 0 ? 1 : 0);
    long r = negA == negB ? sigA + sigB : sigA - sigB;
    if (r == 0) return cancellationZero(format, mode);
    return round(format, negA, r, expA, mode);
  }

  public static long mul(int format, long a, long b, int mode) {
    a = flushInput(format, a, mode);
    b = flushInput(format, b, mode);
    boolean nanA = FpFormat.isNaN(format, a);
    if (nanA || FpFormat.isNaN(format, b)) return propagateNaN(format, nanA ? a : b, mode);
    boolean negative = FpFormat.isNegative(format, a) != FpFormat.isNegative(format, b);
    boolean zero = FpFormat.isZero(format, a) || FpFormat.isZero(format, b);
    if (FpFormat.isInfinite(format, a) || FpFormat.isInfinite(format, b)) {
      return zero ? FpFormat.defaultNaN(format) : FpFormat.infinity(format, negative);
    }
    if (zero) return negative ? FpFormat.signBit(format) : 0;
    return mulFinite(format, negative, significand(format, a), exponent(format, a), significand(format, b),
        exponent(format, b), mode);
  }

  /** Rounded product of two nonzero finite significands (each up to 63 bits). */
  public static long mulFinite(int format, boolean negative, long sigA, int expA, long sigB, int expB, int mode) {
    long hi = Math.multiplyHigh(sigA, sigB);
    long lo = sigA * sigB;
    return roundWide(format, negative, hi, lo, expA + expB, mode);
  }

  /** Fused multiply-add {@code a * b + c} with a single rounding. */
  public static long fma(int format, long a, long b, long c, int mode) {
    return fmaScaled(format, a, b, c, 0, mode);
  }

  /**
   * {@code (a * b + c) * 2^scale} with a single rounding (V_DIV_FMAS): the scaling is exact, so overflow and
   * underflow are judged on the scaled value.
   */
  public static long fmaScaled(int format, long a, long b, long c, int scale, int mode) {
    return fmaConvert(format, a, b, c, format, scale, mode);
  }

  /**
   * Fused {@code (a * b + c) * 2^scale} on operands of format {@code in}, rounded once to format {@code out}
   * (V_FMA_MIX_F16/MIXLO/MIXHI compute an f32 FMA that lands in an f16). NaN operands keep their payload as
   * {@link #convert} does; inputs are flushed per {@code in}'s MODE field, the result per {@code out}'s.
   */
  public static long fmaConvert(int in, long a, long b, long c, int out, int scale, int mode) {
    a = flushInput(in, a, mode);
    b = flushInput(in, b, mode);
    c = flushInput(in, c, mode);
    boolean infA = FpFormat.isInfinite(in, a);
    boolean infB = FpFormat.isInfinite(in, b);
    boolean zeroA = FpFormat.isZero(in, a);
    boolean zeroB = FpFormat.isZero(in, b);
    if ((infA && zeroB) || (infB && zeroA)) return FpFormat.defaultNaN(out);
    if (FpFormat.isNaN(in, a)) return nanResult(in, a, out, mode);
    if (FpFormat.isNaN(in, b)) return nanResult(in, b, out, mode);
    if (FpFormat.isNaN(in, c)) return nanResult(in, c, out, mode);
    boolean negP = FpFormat.isNegative(in, a) != FpFormat.isNegative(in, b);
    boolean negC = FpFormat.isNegative(in, c);
    if (infA || infB) {
      return FpFormat.isInfinite(in, c) && negC != negP ? FpFormat.defaultNaN(out) : FpFormat.infinity(out, negP);
    }
    if (FpFormat.isInfinite(in, c)) return FpFormat.infinity(out, negC);
    if (zeroA || zeroB) {
      if (FpFormat.isZero(in, c)) {
        return negP == negC ? (negP ? FpFormat.signBit(out) : 0) : cancellationZero(out, mode);
      }
      return round(out, negC, significand(in, c), exponent(in, c) + scale, mode);
    }
    long sigA = significand(in, a);
    long sigB = significand(in, b);
    int expP = exponent(in, a) + exponent(in, b) + scale;
    if (FpFormat.isZero(in, c)) return mulFinite(out, negP, sigA, expP, sigB, 0, mode);
    return fmaFinite(out, negP, Math.multiplyHigh(sigA, sigB), sigA * sigB, expP, negC, significand(in, c),
        exponent(in, c) + scale, mode);
  }

  /** A NaN operand of format {@code in} as a result in format {@code out}. */
  static long nanResult(int in, long nan, int out, int mode) {
    if (in == out) return propagateNaN(out, nan, mode);
    return convert(in, nan, out, mode);
  }

  /**
   * Rounded {@code P + C} where P is an exact unsigned 128-bit product {@code ph:pl * 2^expP} (at most 126 bits)
   * and C a nonzero significand {@code sigC * 2^expC}.
   */
  public static long fmaFinite(int format, boolean negP, long ph, long pl, int expP, boolean negC, long sigC,
      int expC, int mode) {
    // Both operands get their leading bit at bit 125 of a 128-bit word; the smaller is shifted right with jamming.
    int shiftP = 125 - (ph != 0 ? 127 - Long.numberOfLeadingZeros(ph) : 63 - Long.numberOfLeadingZeros(pl));
    long xh;
    long xl;
    if (shiftP >= 64) {
      xh = pl << (shiftP - 64);
      xl = 0;
    } else if (shiftP > 0) {
      xh = ph << shiftP | pl >>> (64 - shiftP);
      xl = pl << shiftP;
    } else {
      xh = ph;
      xl = pl;
    }
    expP -= shiftP;
    int shiftC = 125 - (63 - Long.numberOfLeadingZeros(sigC));
    long yh;
    long yl;
    if (shiftC >= 64) {
      yh = sigC << (shiftC - 64);
      yl = 0;
    } else {
      yh = sigC >>> (64 - shiftC);
      yl = sigC << shiftC;
    }
    expC -= shiftC;
    boolean negX = negP;
    boolean negY = negC;
    int expX = expP;
    int expY = expC;
    if (expY > expX || (expY == expX && Long.compareUnsigned(yh, xh) > 0)
        || (expY == expX && yh == xh && Long.compareUnsigned(yl, xl) > 0)) {
      long t = xh;
      xh = yh;
      yh = t;
      t = xl;
      xl = yl;
      yl = t;
      int e = expX;
      expX = expY;
      expY = e;
      boolean n = negX;
      negX = negY;
      negY = n;
    }
    int d = expX - expY;
    if (d > 0) {
      long jammedLo = shiftRightJam(yh, yl, d);
      yh = d >= 64 ? 0 : yh >>> d;
      yl = jammedLo;
    }
    long rh;
    long rl;
    if (negX == negY) {
      rl = xl + yl;
      rh = xh + yh + (Long.compareUnsigned(rl, xl) < 0 ? 1 : 0);
    } else {
      rl = xl - yl;
      rh = xh - yh - (Long.compareUnsigned(xl, yl) < 0 ? 1 : 0);
    }
    if (rh == 0 && rl == 0) return cancellationZero(format, mode);
    return roundWide(format, negX, rh, rl, expX, mode);
  }

  // ------------------------------------------------------------------------------------------------------------
  // Conversions

  /**
   * Converts between formats: the source is flushed per its own MODE field, the result rounded and flushed per
   * the destination's. A NaN keeps its sign and the top of its payload (quieted when MODE.IEEE is set, and always
   * when the narrowed payload would otherwise read as infinity).
   */
  public static long convert(int from, long bits, int to, int mode) {
    bits = flushInput(from, bits, mode);
    boolean negative = FpFormat.isNegative(from, bits);
    if (FpFormat.isNaN(from, bits)) {
      int shift = FpFormat.mantissaBits(to) - FpFormat.mantissaBits(from);
      long payload = bits & FpFormat.mantissaMask(from);
      payload = shift >= 0 ? payload << shift : payload >>> -shift;
      if (FpMode.ieee(mode) || payload == 0) payload |= FpFormat.quietBit(to);
      return FpFormat.infinity(to, negative) | payload;
    }
    if (FpFormat.isInfinite(from, bits)) return FpFormat.infinity(to, negative);
    if (FpFormat.isZero(from, bits)) return negative ? FpFormat.signBit(to) : 0;
    return round(to, negative, significand(from, bits), exponent(from, bits), mode);
  }

  /** Converts a signed 64-bit integer to {@code format}, rounding per MODE. */
  public static long fromLong(int format, long value, int mode) {
    if (value == Long.MIN_VALUE) return round(format, true, 1L << 62, 1, mode);
    return round(format, value < 0, Math.abs(value), 0, mode);
  }

  /** Integer rounding directions for float-to-integer conversions. */
  public static final int TO_INT_TRUNCATE = 0;
  public static final int TO_INT_FLOOR = 1;
  /** floor(x + 0.5) on the exact value: halves go toward +infinity. */
  public static final int TO_INT_HALF_UP = 2;
  public static final int TO_INT_NEAREST_EVEN = 3;

  /**
   * Converts to an integer clamped to [min, max] (so out-of-range values and infinities saturate), with NaN giving
   * 0. The source is flushed per MODE first.
   */
  public static long toInteger(int format, long bits, int direction, long min, long max, int mode) {
    bits = flushInput(format, bits, mode);
    if (FpFormat.isNaN(format, bits)) return 0;
    boolean negative = FpFormat.isNegative(format, bits);
    if (FpFormat.isInfinite(format, bits)) return negative ? min : max;
    if (FpFormat.isZero(format, bits)) return 0;
    long sig = significand(format, bits);
    int exp = exponent(format, bits);
    if (exp + 63 - Long.numberOfLeadingZeros(sig) >= 63) return negative ? min : max;
    long magnitude;
    if (exp >= 0) {
      magnitude = sig << exp;
    } else {
      int shift = -exp;
      long kept = shift >= 64 ? 0 : sig >>> shift;
      long rest = shift >= 64 ? sig : sig & ((1L << shift) - 1);
      long half = shift >= 64 ? Long.MIN_VALUE /* above any rest */ : 1L << (shift - 1);
      boolean inexact = rest != 0;
      boolean up;
      switch (direction) {
        case TO_INT_FLOOR:
          up = negative && inexact;
          break;
        case TO_INT_HALF_UP:
          up = shift < 64 && (Long.compareUnsigned(rest, half) > 0 || (rest == half && !negative));
          break;
        case TO_INT_NEAREST_EVEN:
          up = shift < 64 && (Long.compareUnsigned(rest, half) > 0 || (rest == half && (kept & 1) != 0));
          break;
        default:
          up = false;
      }
      magnitude = up ? kept + 1 : kept;
    }
    long value = negative ? -magnitude : magnitude;
    return Math.max(min, Math.min(max, value));
  }
}
