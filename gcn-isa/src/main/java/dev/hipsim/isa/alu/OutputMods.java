package dev.hipsim.isa.alu;

import dev.hipsim.isa.fp.FpFormat;
import dev.hipsim.isa.fp.FpMode;
import dev.hipsim.isa.fp.SoftFloat;

/**
 * VOP3 source and result modifiers for floating-point operands: ABS/NEG on inputs, OMOD then CLAMP on results.
 *
 * <p>OMOD (0 none, 1 *2, 2 *4, 3 /2) takes effect only when MODE.IEEE is 0 and output denormals of the result's
 * precision are flushed (guide: "Output modifiers are ignored if the IEEE mode bit is set" and "not compatible
 * with output denormals"). An active OMOD turns zeros and denormals into +0, halves a value at the smallest
 * exponent to a signed zero, and overflows to infinity or the largest value per the rounding mode. CLAMP limits
 * the result to [+0, 1.0]; a NaN becomes +0 when MODE.DX10_CLAMP is set and passes through otherwise.
 */
public final class OutputMods {
  private OutputMods() {}

  public static final int OMOD_NONE = 0;
  public static final int OMOD_MUL2 = 1;
  public static final int OMOD_MUL4 = 2;
  public static final int OMOD_DIV2 = 3;

  public static int absNeg32(int bits, boolean abs, boolean neg) {
    if (abs) bits &= 0x7fffffff;
    return neg ? bits ^ 0x80000000 : bits;
  }

  public static long absNeg64(long bits, boolean abs, boolean neg) {
    if (abs) bits &= Long.MAX_VALUE;
    return neg ? bits ^ Long.MIN_VALUE : bits;
  }

  public static int absNeg16(int bits, boolean abs, boolean neg) {
    if (abs) bits &= 0x7fff;
    return neg ? bits ^ 0x8000 : bits;
  }

  /** Whether OMOD takes effect for a result of {@code format} under {@code mode}. */
  public static boolean omodActive(int format, int omod, int mode) {
    return omod != 0 && !FpMode.ieee(mode) && FpMode.flushesOutput(mode, format);
  }

  /** Applies OMOD then CLAMP to a result of {@code format} (raw bits). */
  public static long apply(int format, long bits, int omod, boolean clamp, int mode) {
    if (omodActive(format, omod, mode)) bits = scale(format, bits, omod, mode);
    return clamp ? clamp(format, bits, mode) : bits;
  }

  public static int f32(int bits, int omod, boolean clamp, int mode) {
    if (omod == 0 && !clamp) return bits;
    return (int) apply(FpFormat.F32, bits & 0xffffffffL, omod, clamp, mode);
  }

  public static long f64(long bits, int omod, boolean clamp, int mode) {
    if (omod == 0 && !clamp) return bits;
    return apply(FpFormat.F64, bits, omod, clamp, mode);
  }

  public static int f16(int bits, int omod, boolean clamp, int mode) {
    if (omod == 0 && !clamp) return bits & 0xffff;
    return (int) apply(FpFormat.F16, bits & 0xffff, omod, clamp, mode);
  }

  static long scale(int f, long bits, int omod, int mode) {
    int field = FpFormat.exponentField(f, bits);
    int maxField = (1 << FpFormat.exponentBits(f)) - 1;
    if (field == maxField) return bits; // NaN and infinity pass through
    if (field == 0) return 0;
    long sign = bits & FpFormat.signBit(f);
    int man = FpFormat.mantissaBits(f);
    if (omod == OMOD_DIV2) return field == 1 ? sign : bits - (1L << man);
    int steps = omod; // 1 or 2 exponent steps
    if (field + steps >= maxField) {
      return SoftFloat.overflow(f, sign != 0, FpMode.round(mode, f), f == FpFormat.F16 && FpMode.fp16Overflow(mode));
    }
    return bits + ((long) steps << man);
  }

  static long clamp(int f, long bits, int mode) {
    if (FpFormat.isNaN(f, bits)) return FpMode.dx10Clamp(mode) ? 0 : bits;
    if (FpFormat.isNegative(f, bits)) return 0;
    long one = (long) FpFormat.bias(f) << FpFormat.mantissaBits(f);
    return bits > one ? one : bits;
  }
}
