package dev.hipsim.isa.alu;

import dev.hipsim.isa.fp.FpMode;
import dev.hipsim.isa.fp.Half;

/**
 * Dot-product instructions of gfx90a/gfx942: V_DOT2_F32_F16, V_DOT2/4/8 integer forms (VOP3P) and their VOP2
 * accumulating "C" forms (V_DOT2C_F32_F16, V_DOT2C_I32_I16, V_DOT4C_I32_I8, V_DOT8C_I32_I4), which are the same
 * operation with S2 = D.
 *
 * <p>Integer forms sum exactly and wrap to 32 bits; with CLAMP the exact sum saturates instead (the guide says
 * only that they support saturation; saturating the final sum is this model's choice).
 */
public final class DotOps {
  private DotOps() {}

  /**
   * V_DOT2_F32_F16 / V_DOT2C_F32_F16: {@code tmp = S2; tmp += a.lo * b.lo; tmp += a.hi * b.hi} in f32, in that
   * order. The guide notes that float DOT2 ignores the rounding and denormal modes and flushes input and output
   * denormals, so this is nearest-even with every denormal flushed. The f16 products are exact in f32; each
   * addition rounds. {@code negLo}/{@code negHi} bits 0 and 1 negate the low/high halves of S0/S1; bit 2 of
   * {@code negLo} negates S2.
   */
  public static int dot2F32F16(int a, int b, int c, int negLo, int negHi, boolean clamp, int mode) {
    int m = FpMode.withDenorm(FpMode.withRound(mode, dev.hipsim.isa.fp.FpFormat.F32, 0),
        dev.hipsim.isa.fp.FpFormat.F32, FpMode.DENORM_FLUSH_ALL);
    int aLo = flush16(a & 0xffff) ^ ((negLo & 1) << 15);
    int aHi = flush16(a >>> 16) ^ ((negHi & 1) << 15);
    int bLo = flush16(b & 0xffff) ^ ((negLo >>> 1 & 1) << 15);
    int bHi = flush16(b >>> 16) ^ ((negHi >>> 1 & 1) << 15);
    int acc = (negLo & 4) != 0 ? c ^ 0x80000000 : c;
    int p0 = F32Ops.mul(Float.floatToRawIntBits(Half.toFloat(aLo)), Float.floatToRawIntBits(Half.toFloat(bLo)), m);
    int p1 = F32Ops.mul(Float.floatToRawIntBits(Half.toFloat(aHi)), Float.floatToRawIntBits(Half.toFloat(bHi)), m);
    int r = F32Ops.add(F32Ops.add(acc, p0, m), p1, m);
    return clamp ? OutputMods.f32(r, 0, true, mode) : r;
  }

  static int flush16(int h) {
    return (h & 0x7c00) == 0 ? h & 0x8000 : h;
  }

  static int saturateSigned(long v, boolean clamp) {
    return clamp ? (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v)) : (int) v;
  }

  static int saturateUnsigned(long v, boolean clamp) {
    return clamp ? (int) Math.min(0xffffffffL, v) : (int) v;
  }

  public static int dot2I32I16(int a, int b, int c, boolean clamp) {
    long s = (long) c + (short) a * (short) b + (short) (a >>> 16) * (short) (b >>> 16);
    return saturateSigned(s, clamp);
  }

  public static int dot2U32U16(int a, int b, int c, boolean clamp) {
    long s = (c & 0xffffffffL) + (long) (a & 0xffff) * (b & 0xffff) + (long) (a >>> 16) * (b >>> 16);
    return saturateUnsigned(s, clamp);
  }

  public static int dot4I32I8(int a, int b, int c, boolean clamp) {
    long s = c;
    for (int i = 0; i < 32; i += 8) s += (byte) (a >>> i) * (byte) (b >>> i);
    return saturateSigned(s, clamp);
  }

  public static int dot4U32U8(int a, int b, int c, boolean clamp) {
    long s = c & 0xffffffffL;
    for (int i = 0; i < 32; i += 8) s += (a >>> i & 0xff) * (b >>> i & 0xff);
    return saturateUnsigned(s, clamp);
  }

  public static int dot8I32I4(int a, int b, int c, boolean clamp) {
    long s = c;
    for (int i = 0; i < 32; i += 4) s += (a << (28 - i) >> 28) * (b << (28 - i) >> 28);
    return saturateSigned(s, clamp);
  }

  public static int dot8U32U4(int a, int b, int c, boolean clamp) {
    long s = c & 0xffffffffL;
    for (int i = 0; i < 32; i += 4) s += (a >>> i & 0xf) * (b >>> i & 0xf);
    return saturateUnsigned(s, clamp);
  }
}
