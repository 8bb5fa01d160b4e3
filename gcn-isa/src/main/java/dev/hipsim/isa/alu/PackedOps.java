package dev.hipsim.isa.alu;

import static dev.hipsim.isa.fp.FpFormat.F16;
import static dev.hipsim.isa.fp.FpFormat.F32;

import dev.hipsim.isa.fp.SoftFloat;

/**
 * VOP3P packed math. For source {@code i} the low result half reads the source half chosen by op_sel[i] and the
 * high result half the one chosen by op_sel_hi[i] (0 = low, 1 = high 16 bits; for the packed-f32 forms, low or
 * high dword of the 64-bit source); neg_lo[i]/neg_hi[i] negate the float operand feeding the low/high result.
 * CLAMP clamps each float half to [0, 1] and saturates integer halves. Masks are passed as 3-bit ints (bit i for
 * source i), exactly as encoded.
 */
public final class PackedOps {
  private PackedOps() {}

  // 16-bit packed opcodes (selectors for pk16)
  public static final int PK_MAD_I16 = 0;
  public static final int PK_MUL_LO_U16 = 1;
  public static final int PK_ADD_I16 = 2;
  public static final int PK_SUB_I16 = 3;
  public static final int PK_LSHLREV_B16 = 4;
  public static final int PK_LSHRREV_B16 = 5;
  public static final int PK_ASHRREV_I16 = 6;
  public static final int PK_MAX_I16 = 7;
  public static final int PK_MIN_I16 = 8;
  public static final int PK_MAD_U16 = 9;
  public static final int PK_ADD_U16 = 10;
  public static final int PK_SUB_U16 = 11;
  public static final int PK_MAX_U16 = 12;
  public static final int PK_MIN_U16 = 13;
  public static final int PK_FMA_F16 = 14;
  public static final int PK_ADD_F16 = 15;
  public static final int PK_MUL_F16 = 16;
  public static final int PK_MIN_F16 = 17;
  public static final int PK_MAX_F16 = 18;

  /** Source half for result half {@code hi} of operand {@code i}. */
  static int half(int src, int i, boolean hi, int opSel, int opSelHi) {
    boolean upper = ((hi ? opSelHi : opSel) >>> i & 1) != 0;
    return upper ? src >>> 16 : src & 0xffff;
  }

  static boolean neg(int i, boolean hi, int negLo, int negHi) {
    return ((hi ? negHi : negLo) >>> i & 1) != 0;
  }

  /**
   * V_PK_* on 16-bit halves (opcode numbers as in the VOP3P encoding, 0-18). Default VOP3P selection is
   * {@code opSel = 0, opSelHi = 7}.
   */
  public static int pk16(int op, int s0, int s1, int s2, int opSel, int opSelHi, int negLo, int negHi,
      boolean clamp, int mode) {
    int lo = pk16Half(op, s0, s1, s2, false, opSel, opSelHi, negLo, negHi, clamp, mode);
    int hi = pk16Half(op, s0, s1, s2, true, opSel, opSelHi, negLo, negHi, clamp, mode);
    return hi << 16 | lo;
  }

  static int pk16Half(int op, int s0, int s1, int s2, boolean hi, int opSel, int opSelHi, int negLo, int negHi,
      boolean clamp, int mode) {
    int a = half(s0, 0, hi, opSel, opSelHi);
    int b = half(s1, 1, hi, opSel, opSelHi);
    int c = half(s2, 2, hi, opSel, opSelHi);
    if (op >= PK_FMA_F16) {
      if (neg(0, hi, negLo, negHi)) a ^= 0x8000;
      if (neg(1, hi, negLo, negHi)) b ^= 0x8000;
      if (neg(2, hi, negLo, negHi)) c ^= 0x8000;
      int r;
      switch (op) {
        case PK_FMA_F16:
          r = F16Ops.fma(a, b, c, mode);
          break;
        case PK_ADD_F16:
          r = F16Ops.add(a, b, mode);
          break;
        case PK_MUL_F16:
          r = F16Ops.mul(a, b, mode);
          break;
        case PK_MIN_F16:
          r = F16Ops.min(a, b, mode);
          break;
        default:
          r = F16Ops.max(a, b, mode);
      }
      return clamp ? OutputMods.f16(r, 0, true, mode) : r;
    }
    switch (op) {
      case PK_MAD_I16:
        return IntOps.madI16(a, b, c, clamp);
      case PK_MUL_LO_U16:
        return IntOps.mulLoU16(a, b, clamp);
      case PK_ADD_I16:
        return IntOps.addI16(a, b, clamp);
      case PK_SUB_I16:
        return IntOps.subI16(a, b, clamp);
      case PK_LSHLREV_B16:
        return IntOps.lshlrevB16(a, b);
      case PK_LSHRREV_B16:
        return IntOps.lshrrevB16(a, b);
      case PK_ASHRREV_I16:
        return IntOps.ashrrevI16(a, b);
      case PK_MAX_I16:
        return IntOps.maxI16(a, b);
      case PK_MIN_I16:
        return IntOps.minI16(a, b);
      case PK_MAD_U16:
        return IntOps.madU16(a, b, c, clamp);
      case PK_ADD_U16:
        return IntOps.addU16(a, b, clamp);
      case PK_SUB_U16:
        return IntOps.subU16(a, b, clamp);
      case PK_MAX_U16:
        return IntOps.maxU16(a, b);
      default:
        return IntOps.minU16(a, b);
    }
  }

  /** V_PK_FMAC_F16 (VOP2): both halves of D = fma(S0, S1, D). */
  public static int pkFmacF16(int s0, int s1, int d, int mode) {
    return pk16(PK_FMA_F16, s0, s1, d, 0, 7, 0, 0, false, mode);
  }

  // ---- packed f32 (gfx90a+): operands are 64-bit register pairs

  public static final int PK_FMA_F32 = 48;
  public static final int PK_MUL_F32 = 49;
  public static final int PK_ADD_F32 = 50;

  static int dword(long src, int i, boolean hi, int opSel, int opSelHi) {
    boolean upper = ((hi ? opSelHi : opSel) >>> i & 1) != 0;
    return (int) (upper ? src >>> 32 : src);
  }

  /** V_PK_FMA_F32 / V_PK_MUL_F32 / V_PK_ADD_F32 (opcodes 48-50): two f32 operations, op_sel picking dwords. */
  public static long pkF32(int op, long s0, long s1, long s2, int opSel, int opSelHi, int negLo, int negHi,
      boolean clamp, int mode) {
    int lo = pkF32Half(op, s0, s1, s2, false, opSel, opSelHi, negLo, negHi, clamp, mode);
    int hi = pkF32Half(op, s0, s1, s2, true, opSel, opSelHi, negLo, negHi, clamp, mode);
    return (lo & 0xffffffffL) | (long) hi << 32;
  }

  static int pkF32Half(int op, long s0, long s1, long s2, boolean hi, int opSel, int opSelHi, int negLo,
      int negHi, boolean clamp, int mode) {
    int a = dword(s0, 0, hi, opSel, opSelHi);
    int b = dword(s1, 1, hi, opSel, opSelHi);
    int c = dword(s2, 2, hi, opSel, opSelHi);
    if (neg(0, hi, negLo, negHi)) a ^= 0x80000000;
    if (neg(1, hi, negLo, negHi)) b ^= 0x80000000;
    if (neg(2, hi, negLo, negHi)) c ^= 0x80000000;
    int r;
    switch (op) {
      case PK_FMA_F32:
        r = F32Ops.fma(a, b, c, mode);
        break;
      case PK_MUL_F32:
        r = F32Ops.mul(a, b, mode);
        break;
      default:
        r = F32Ops.add(a, b, mode);
    }
    return clamp ? OutputMods.f32(r, 0, true, mode) : r;
  }

  /** V_PK_MOV_B32: D.lo = op_sel[0] ? S0.hi : S0.lo; D.hi = op_sel[1] ? S1.hi : S1.lo. */
  public static long pkMovB32(long s0, long s1, int opSel) {
    long lo = (opSel & 1) != 0 ? s0 >>> 32 : s0 & 0xffffffffL;
    long hi = (opSel & 2) != 0 ? s1 >>> 32 : s1 & 0xffffffffL;
    return lo | hi << 32;
  }

  // ---- mixed precision FMA (V_FMA_MIX_F32 / MIXLO_F16 / MIXHI_F16)

  /**
   * Operand {@code i} of a MIX instruction as f32 bits: the full dword when op_sel_hi[i] is 0, otherwise the f16
   * half chosen by op_sel[i], widened exactly (its denormals flushed per the f16 MODE field). NEG_HI acts as ABS
   * for MIX, applied before NEG.
   */
  static long mixOperand(int src, int i, int opSel, int opSelHi, int neg, int abs, int mode) {
    long v;
    if ((opSelHi >>> i & 1) == 0) {
      v = src & 0xffffffffL;
    } else {
      int h = (opSel >>> i & 1) != 0 ? src >>> 16 : src & 0xffff;
      v = SoftFloat.convert(F16, h, F32, mode);
    }
    if ((abs >>> i & 1) != 0) v &= 0x7fffffffL;
    if ((neg >>> i & 1) != 0) v ^= 0x80000000L;
    return v;
  }

  /** V_FMA_MIX_F32: one fused f32 FMA on mixed f16/f32 operands. */
  public static int fmaMixF32(int s0, int s1, int s2, int opSel, int opSelHi, int neg, int abs, boolean clamp,
      int mode) {
    int a = (int) mixOperand(s0, 0, opSel, opSelHi, neg, abs, mode);
    int b = (int) mixOperand(s1, 1, opSel, opSelHi, neg, abs, mode);
    int c = (int) mixOperand(s2, 2, opSel, opSelHi, neg, abs, mode);
    int r = F32Ops.fma(a, b, c, mode);
    return clamp ? OutputMods.f32(r, 0, true, mode) : r;
  }

  /**
   * The f16 result of V_FMA_MIXLO_F16 / MIXHI_F16: the f32 FMA rounded once, straight to f16 (per the f16 MODE
   * fields), as AMD's emulator found on hardware; no intermediate f32 rounding.
   */
  public static int fmaMixF16(int s0, int s1, int s2, int opSel, int opSelHi, int neg, int abs, boolean clamp,
      int mode) {
    long a = mixOperand(s0, 0, opSel, opSelHi, neg, abs, mode);
    long b = mixOperand(s1, 1, opSel, opSelHi, neg, abs, mode);
    long c = mixOperand(s2, 2, opSel, opSelHi, neg, abs, mode);
    int r = (int) SoftFloat.fmaConvert(F32, a, b, c, F16, 0, mode);
    return clamp ? OutputMods.f16(r, 0, true, mode) : r;
  }

  /** V_FMA_MIXLO_F16: the f16 result in the low half of {@code dst}, the high half preserved. */
  public static int fmaMixLo(int s0, int s1, int s2, int opSel, int opSelHi, int neg, int abs, boolean clamp,
      int dst, int mode) {
    return (dst & 0xffff0000) | fmaMixF16(s0, s1, s2, opSel, opSelHi, neg, abs, clamp, mode);
  }

  /** V_FMA_MIXHI_F16: the f16 result in the high half of {@code dst}, the low half preserved. */
  public static int fmaMixHi(int s0, int s1, int s2, int opSel, int opSelHi, int neg, int abs, boolean clamp,
      int dst, int mode) {
    return (dst & 0xffff) | fmaMixF16(s0, s1, s2, opSel, opSelHi, neg, abs, clamp, mode) << 16;
  }
}
