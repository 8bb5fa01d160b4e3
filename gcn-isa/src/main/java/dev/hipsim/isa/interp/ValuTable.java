package dev.hipsim.isa.interp;

import static dev.hipsim.isa.interp.ValuSpec.ACCUMULATE;
import static dev.hipsim.isa.interp.ValuSpec.CARRY_OUT;
import static dev.hipsim.isa.interp.ValuSpec.COMPARE;
import static dev.hipsim.isa.interp.ValuSpec.COMPARE_EXEC;
import static dev.hipsim.isa.interp.ValuSpec.F16;
import static dev.hipsim.isa.interp.ValuSpec.F32;
import static dev.hipsim.isa.interp.ValuSpec.F64;
import static dev.hipsim.isa.interp.ValuSpec.FLAG_OUT;
import static dev.hipsim.isa.interp.ValuSpec.MASK_IN;
import static dev.hipsim.isa.interp.ValuSpec.NONE;

import dev.hipsim.isa.alu.Convert;
import dev.hipsim.isa.alu.DotOps;
import dev.hipsim.isa.alu.F16Ops;
import dev.hipsim.isa.alu.F32Ops;
import dev.hipsim.isa.alu.F64Ops;
import dev.hipsim.isa.alu.FloatOps;
import dev.hipsim.isa.alu.IntOps;
import dev.hipsim.isa.alu.PackedOps;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.fp.FpFormat;

/**
 * The lane semantics of every VALU operation hipsim executes through the generic path: operand widths, output
 * modifiers, mask behaviour and the lane function (from {@code dev.hipsim.isa.alu}). Operations not listed here are
 * either handled by a dedicated op class or not implemented.
 */
final class ValuTable {
  private ValuTable() {}

  /** Set in the mode passed to integer lane functions when the instruction's clamp bit is set. */
  static final int INT_CLAMP = 1 << 31;

  /**
   * Specs by operation ordinal, each made on first use: linking all ~300 lane lambdas up front cost 50-75 ms on
   * every cold start, and a kernel uses a handful. {@link #ABSENT} marks an operation the table does not describe.
   * Racing threads may each build a spec; they are equal, and a spec is immutable, so either may win.
   */
  private static final ValuSpec[] SPECS = new ValuSpec[Operation.values().length];
  private static final ValuSpec ABSENT = new ValuSpec(0, 0, 0, 0, NONE, 0, null);

  static ValuSpec get(Operation op) {
    ValuSpec spec = SPECS[op.ordinal()];
    if (spec == null) {
      spec = build(op);
      if (spec == null) spec = ABSENT;
      SPECS[op.ordinal()] = spec;
    }
    return spec == ABSENT ? null : spec;
  }

  /** Every operation the table describes (builds every spec). */
  static java.util.Set<Operation> operations() {
    java.util.Set<Operation> out = java.util.EnumSet.noneOf(Operation.class);
    for (Operation op : Operation.values()) {
      if (get(op) != null) out.add(op);
    }
    return java.util.Collections.unmodifiableSet(out);
  }

  private static int i(long x) {
    return (int) x;
  }

  private static long u(int x) {
    return x & 0xffff_ffffL;
  }

  private static boolean cl(int m) {
    return (m & INT_CLAMP) != 0;
  }

  private static ValuSpec put(int w0, int w1, int w2, int wd, int fmt, int flags, LaneFn fn) {
    return new ValuSpec(w0, w1, w2, wd, fmt, flags, fn);
  }

  private static ValuSpec f32(int n, LaneFn fn) {
    return put(32, n >= 2 ? 32 : 0, n >= 3 ? 32 : 0, 32, F32, 0, fn);
  }

  private static ValuSpec f64(int n, LaneFn fn) {
    return put(64, n >= 2 ? 64 : 0, n >= 3 ? 64 : 0, 64, F64, 0, fn);
  }

  private static ValuSpec f16(int n, LaneFn fn) {
    return put(16, n >= 2 ? 16 : 0, n >= 3 ? 16 : 0, 16, F16, 0, fn);
  }

  private static ValuSpec i32(int n, LaneFn fn) {
    return put(32, n >= 2 ? 32 : 0, n >= 3 ? 32 : 0, 32, NONE, 0, fn);
  }

  private static ValuSpec i16(int n, LaneFn fn) {
    return put(16, n >= 2 ? 16 : 0, n >= 3 ? 16 : 0, 16, NONE, 0, fn);
  }

  /** The spec of {@code op}, made on its first use (its lambda is linked then, not at class initialisation). */
  private static ValuSpec build(Operation op) {
    switch (op) {
      // ---------------------------------------------------------------- moves and bit operations
      case V_MOV_B32: return i32(1, (a, b, c, m) -> a).withWave(IntWaveOps::mov);
      case V_MOV_B64: return put(64, 0, 0, 64, NONE, 0, (a, b, c, m) -> a);
      case V_ACCVGPR_READ_B32: return i32(1, (a, b, c, m) -> a);
      case V_ACCVGPR_WRITE_B32: return i32(1, (a, b, c, m) -> a);
      case V_ACCVGPR_MOV_B32: return i32(1, (a, b, c, m) -> a);
      case V_NOT_B32: return i32(1, (a, b, c, m) -> u(~i(a)));
      case V_BFREV_B32: return i32(1, (a, b, c, m) -> u(IntOps.bfrevB32(i(a))));
      case V_FFBH_U32: return i32(1, (a, b, c, m) -> u(IntOps.ffbhU32(i(a))));
      case V_FFBL_B32: return i32(1, (a, b, c, m) -> u(IntOps.ffblB32(i(a))));
      case V_FFBH_I32: return i32(1, (a, b, c, m) -> u(IntOps.ffbhI32(i(a))));
      case V_AND_B32: return i32(2, (a, b, c, m) -> a & b).withWave(IntWaveOps::and);
      case V_OR_B32: return i32(2, (a, b, c, m) -> a | b).withWave(IntWaveOps::or);
      case V_XOR_B32: return i32(2, (a, b, c, m) -> a ^ b).withWave(IntWaveOps::xor);
      case V_XNOR_B32: return i32(2, (a, b, c, m) -> u(IntOps.xnorB32(i(a), i(b))));
      case V_LSHLREV_B32: return i32(2, (a, b, c, m) -> u(IntOps.lshlrevB32(i(a), i(b)))).withWave(IntWaveOps::lshlrev);
      case V_LSHRREV_B32: return i32(2, (a, b, c, m) -> u(IntOps.lshrrevB32(i(a), i(b)))).withWave(IntWaveOps::lshrrev);
      case V_ASHRREV_I32: return i32(2, (a, b, c, m) -> u(IntOps.ashrrevI32(i(a), i(b)))).withWave(IntWaveOps::ashrrev);
      case V_LSHLREV_B64: return put(32, 64, 0, 64, NONE, 0, (a, b, c, m) -> IntOps.lshlrevB64(i(a), b))
          .withWave(IntWaveOps::lshlrev64);
      case V_LSHRREV_B64: return put(32, 64, 0, 64, NONE, 0, (a, b, c, m) -> IntOps.lshrrevB64(i(a), b));
      case V_ASHRREV_I64: return put(32, 64, 0, 64, NONE, 0, (a, b, c, m) -> IntOps.ashrrevI64(i(a), b));
      case V_LSHL_ADD_U64: return put(64, 32, 64, 64, NONE, 0, (a, b, c, m) -> IntOps.lshlAddU64(a, i(b), c));
      case V_BFE_U32: return i32(3, (a, b, c, m) -> u(IntOps.bfeU32(i(a), i(b), i(c)))).withWave(IntWaveOps::bfeU32);
      case V_BFE_I32: return i32(3, (a, b, c, m) -> u(IntOps.bfeI32(i(a), i(b), i(c))));
      case V_BFI_B32: return i32(3, (a, b, c, m) -> u(IntOps.bfiB32(i(a), i(b), i(c))));
      case V_BFM_B32: return i32(2, (a, b, c, m) -> u(IntOps.bfmB32(i(a), i(b))));
      case V_BCNT_U32_B32: return i32(2, (a, b, c, m) -> u(IntOps.bcntU32(i(a), i(b))));
      case V_ALIGNBIT_B32: return i32(3, (a, b, c, m) -> u(IntOps.alignbit(i(a), i(b), i(c))));
      case V_ALIGNBYTE_B32: return i32(3, (a, b, c, m) -> u(IntOps.alignbyte(i(a), i(b), i(c))));
      case V_PERM_B32: return i32(3, (a, b, c, m) -> u(IntOps.permB32(i(a), i(b), i(c))));
      case V_LERP_U8: return i32(3, (a, b, c, m) -> u(IntOps.lerpU8(i(a), i(b), i(c))));
      case V_SAD_U8: return i32(3, (a, b, c, m) -> u(IntOps.sadU8(i(a), i(b), i(c))));
      case V_SAD_HI_U8: return i32(3, (a, b, c, m) -> u(IntOps.sadHiU8(i(a), i(b), i(c))));
      case V_SAD_U16: return i32(3, (a, b, c, m) -> u(IntOps.sadU16(i(a), i(b), i(c))));
      case V_SAD_U32: return i32(3, (a, b, c, m) -> u(IntOps.sadU32(i(a), i(b), i(c))));
      case V_MSAD_U8: return i32(3, (a, b, c, m) -> u(IntOps.msadU8(i(a), i(b), i(c))));
      case V_LSHL_ADD_U32: return i32(3, (a, b, c, m) -> u(IntOps.lshlAddU32(i(a), i(b), i(c))))
          .withWave(IntWaveOps::lshlAdd);
      case V_ADD_LSHL_U32: return i32(3, (a, b, c, m) -> u(IntOps.addLshlU32(i(a), i(b), i(c))));
      case V_ADD3_U32: return i32(3, (a, b, c, m) -> u(IntOps.add3U32(i(a), i(b), i(c)))).withWave(IntWaveOps::add3);
      case V_LSHL_OR_B32: return i32(3, (a, b, c, m) -> u(IntOps.lshlOrB32(i(a), i(b), i(c))))
          .withWave(IntWaveOps::lshlOr);
      case V_AND_OR_B32: return i32(3, (a, b, c, m) -> u(IntOps.andOrB32(i(a), i(b), i(c))))
          .withWave(IntWaveOps::andOr);
      case V_OR3_B32: return i32(3, (a, b, c, m) -> u(IntOps.or3B32(i(a), i(b), i(c)))).withWave(IntWaveOps::or3);
      case V_XAD_U32: return i32(3, (a, b, c, m) -> u(IntOps.xadU32(i(a), i(b), i(c))));
      case V_CNDMASK_B32: return put(32, 32, 64, 32, NONE, MASK_IN, (a, b, c, m) -> c != 0 ? b : a)
          .withMaskWave(IntWaveOps::cndmask);
      // ---------------------------------------------------------------- 32-bit integer arithmetic
      case V_ADD_U32: return i32(2, (a, b, c, m) -> u(IntOps.addU32(i(a), i(b), cl(m)))).withWave(IntWaveOps::add);
      case V_SUB_U32: return i32(2, (a, b, c, m) -> u(IntOps.subU32(i(a), i(b), cl(m)))).withWave(IntWaveOps::sub);
      case V_SUBREV_U32: return i32(2, (a, b, c, m) -> u(IntOps.subU32(i(b), i(a), cl(m))))
          .withWave(IntWaveOps::subrev);
      case V_ADD_I32: return i32(2, (a, b, c, m) -> u(IntOps.addI32(i(a), i(b), cl(m))));
      case V_SUB_I32: return i32(2, (a, b, c, m) -> u(IntOps.subI32(i(a), i(b), cl(m))));
      case V_ADD_CO_U32: return put(32, 32, 0, 32, NONE, CARRY_OUT, (a, b, c, m) -> IntOps.addCo(i(a), i(b), cl(m)))
          .withMaskWave(IntWaveOps::addCo);
      case V_SUB_CO_U32: return put(32, 32, 0, 32, NONE, CARRY_OUT, (a, b, c, m) -> IntOps.subCo(i(a), i(b), cl(m)))
          .withMaskWave(IntWaveOps::subCo);
      case V_SUBREV_CO_U32: return put(32, 32, 0, 32, NONE, CARRY_OUT, (a, b, c, m) -> IntOps.subCo(i(b), i(a), cl(m)))
          .withMaskWave(IntWaveOps::subrevCo);
      case V_ADDC_CO_U32: return put(32, 32, 64, 32, NONE, CARRY_OUT | MASK_IN,
          (a, b, c, m) -> IntOps.addc(i(a), i(b), c != 0, cl(m)))
          .withMaskWave(IntWaveOps::addc);
      case V_SUBB_CO_U32: return put(32, 32, 64, 32, NONE, CARRY_OUT | MASK_IN,
          (a, b, c, m) -> IntOps.subb(i(a), i(b), c != 0, cl(m)))
          .withMaskWave(IntWaveOps::subb);
      case V_SUBBREV_CO_U32: return put(32, 32, 64, 32, NONE, CARRY_OUT | MASK_IN,
          (a, b, c, m) -> IntOps.subb(i(b), i(a), c != 0, cl(m)))
          .withMaskWave(IntWaveOps::subbrev);
      case V_MUL_LO_U32: return i32(2, (a, b, c, m) -> u(IntOps.mulLoU32(i(a), i(b)))).withWave(IntWaveOps::mulLo);
      case V_MUL_HI_U32: return i32(2, (a, b, c, m) -> u(IntOps.mulHiU32(i(a), i(b))));
      case V_MUL_HI_I32: return i32(2, (a, b, c, m) -> u(IntOps.mulHiI32(i(a), i(b))));
      case V_MUL_I32_I24: return i32(2, (a, b, c, m) -> u(IntOps.mulI32I24(i(a), i(b))));
      case V_MUL_HI_I32_I24: return i32(2, (a, b, c, m) -> u(IntOps.mulHiI32I24(i(a), i(b))));
      case V_MUL_U32_U24: return i32(2, (a, b, c, m) -> u(IntOps.mulU32U24(i(a), i(b))));
      case V_MUL_HI_U32_U24: return i32(2, (a, b, c, m) -> u(IntOps.mulHiU32U24(i(a), i(b))));
      case V_MAD_I32_I24: return i32(3, (a, b, c, m) -> u(IntOps.madI32I24(i(a), i(b), i(c))));
      case V_MAD_U32_U24: return i32(3, (a, b, c, m) -> u(IntOps.madU32U24(i(a), i(b), i(c))));
      case V_MAD_U32_U16: return i32(3, (a, b, c, m) -> u(IntOps.madU32U16(i(a), i(b), i(c))));
      case V_MAD_I32_I16: return i32(3, (a, b, c, m) -> u(IntOps.madI32I16(i(a), i(b), i(c))));
      case V_MIN_I32: return i32(2, (a, b, c, m) -> u(IntOps.minI32(i(a), i(b))));
      case V_MAX_I32: return i32(2, (a, b, c, m) -> u(IntOps.maxI32(i(a), i(b))));
      case V_MIN_U32: return i32(2, (a, b, c, m) -> u(IntOps.minU32(i(a), i(b))));
      case V_MAX_U32: return i32(2, (a, b, c, m) -> u(IntOps.maxU32(i(a), i(b))));
      case V_MIN3_I32: return i32(3, (a, b, c, m) -> u(IntOps.min3I32(i(a), i(b), i(c))));
      case V_MAX3_I32: return i32(3, (a, b, c, m) -> u(IntOps.max3I32(i(a), i(b), i(c))));
      case V_MIN3_U32: return i32(3, (a, b, c, m) -> u(IntOps.min3U32(i(a), i(b), i(c))));
      case V_MAX3_U32: return i32(3, (a, b, c, m) -> u(IntOps.max3U32(i(a), i(b), i(c))));
      case V_MED3_I32: return i32(3, (a, b, c, m) -> u(IntOps.med3I32(i(a), i(b), i(c))));
      case V_MED3_U32: return i32(3, (a, b, c, m) -> u(IntOps.med3U32(i(a), i(b), i(c))));
      // ---------------------------------------------------------------- 16-bit integer arithmetic
      case V_ADD_U16: return i16(2, (a, b, c, m) -> u(IntOps.addU16(i(a), i(b), cl(m))));
      case V_SUB_U16: return i16(2, (a, b, c, m) -> u(IntOps.subU16(i(a), i(b), cl(m))));
      case V_SUBREV_U16: return i16(2, (a, b, c, m) -> u(IntOps.subU16(i(b), i(a), cl(m))));
      case V_ADD_I16: return i16(2, (a, b, c, m) -> u(IntOps.addI16(i(a), i(b), cl(m))));
      case V_SUB_I16: return i16(2, (a, b, c, m) -> u(IntOps.subI16(i(a), i(b), cl(m))));
      case V_MUL_LO_U16: return i16(2, (a, b, c, m) -> u(IntOps.mulLoU16(i(a), i(b), cl(m))));
      case V_LSHLREV_B16: return i16(2, (a, b, c, m) -> u(IntOps.lshlrevB16(i(a), i(b))));
      case V_LSHRREV_B16: return i16(2, (a, b, c, m) -> u(IntOps.lshrrevB16(i(a), i(b))));
      case V_ASHRREV_I16: return i16(2, (a, b, c, m) -> u(IntOps.ashrrevI16(i(a), i(b))));
      case V_MAX_U16: return i16(2, (a, b, c, m) -> u(IntOps.maxU16(i(a), i(b))));
      case V_MAX_I16: return i16(2, (a, b, c, m) -> u(IntOps.maxI16(i(a), i(b))));
      case V_MIN_U16: return i16(2, (a, b, c, m) -> u(IntOps.minU16(i(a), i(b))));
      case V_MIN_I16: return i16(2, (a, b, c, m) -> u(IntOps.minI16(i(a), i(b))));
      case V_MAD_U16: return i16(3, (a, b, c, m) -> u(IntOps.madU16(i(a), i(b), i(c), cl(m))));
      case V_MAD_I16: return i16(3, (a, b, c, m) -> u(IntOps.madI16(i(a), i(b), i(c), cl(m))));
      case V_MIN3_U16: return i16(3, (a, b, c, m) -> u(IntOps.min3U16(i(a), i(b), i(c))));
      case V_MAX3_U16: return i16(3, (a, b, c, m) -> u(IntOps.max3U16(i(a), i(b), i(c))));
      case V_MIN3_I16: return i16(3, (a, b, c, m) -> u(IntOps.min3I16(i(a), i(b), i(c))));
      case V_MAX3_I16: return i16(3, (a, b, c, m) -> u(IntOps.max3I16(i(a), i(b), i(c))));
      case V_MED3_U16: return i16(3, (a, b, c, m) -> u(IntOps.med3U16(i(a), i(b), i(c))));
      case V_MED3_I16: return i16(3, (a, b, c, m) -> u(IntOps.med3I16(i(a), i(b), i(c))));
      // ---------------------------------------------------------------- f32
      case V_ADD_F32: return f32(2, (a, b, c, m) -> u(F32Ops.add(i(a), i(b), m))).withWave(F32WaveOps::add);
      case V_SUB_F32: return f32(2, (a, b, c, m) -> u(F32Ops.sub(i(a), i(b), m))).withWave(F32WaveOps::sub);
      case V_SUBREV_F32: return f32(2, (a, b, c, m) -> u(F32Ops.sub(i(b), i(a), m)));
      case V_MUL_F32: return f32(2, (a, b, c, m) -> u(F32Ops.mul(i(a), i(b), m))).withWave(F32WaveOps::mul);
      case V_MUL_LEGACY_F32: return f32(2, (a, b, c, m) -> u(F32Ops.mulLegacy(i(a), i(b), m)));
      case V_MIN_F32: return f32(2, (a, b, c, m) -> u(F32Ops.min(i(a), i(b), m)));
      case V_MAX_F32: return f32(2, (a, b, c, m) -> u(F32Ops.max(i(a), i(b), m)));
      case V_FMA_F32: return f32(3, (a, b, c, m) -> u(F32Ops.fma(i(a), i(b), i(c), m))).withWave(F32WaveOps::fma);
      case V_MAD_F32: return f32(3, (a, b, c, m) -> u(F32Ops.mad(i(a), i(b), i(c), m)));
      case V_MAD_LEGACY_F32: return f32(3, (a, b, c, m) -> u(F32Ops.madLegacy(i(a), i(b), i(c), m)));
      case V_MADMK_F32: return f32(3, (a, b, c, m) -> u(F32Ops.mad(i(a), i(b), i(c), m)));
      case V_MADAK_F32: return f32(3, (a, b, c, m) -> u(F32Ops.mad(i(a), i(b), i(c), m)));
      case V_FMAMK_F32: return f32(3, (a, b, c, m) -> u(F32Ops.fma(i(a), i(b), i(c), m)));
      case V_FMAAK_F32: return f32(3, (a, b, c, m) -> u(F32Ops.fma(i(a), i(b), i(c), m)));
      case V_MAC_F32: return put(32, 32, 32, 32, F32, ACCUMULATE, (a, b, c, m) -> u(F32Ops.mad(i(a), i(b), i(c), m)));
      case V_FMAC_F32: return put(32, 32, 32, 32, F32, ACCUMULATE, (a, b, c, m) -> u(F32Ops.fma(i(a), i(b), i(c), m)))
          .withWave(F32WaveOps::fma);
      case V_MIN3_F32: return f32(3, (a, b, c, m) -> u(F32Ops.min3(i(a), i(b), i(c), m)));
      case V_MAX3_F32: return f32(3, (a, b, c, m) -> u(F32Ops.max3(i(a), i(b), i(c), m)));
      case V_MED3_F32: return f32(3, (a, b, c, m) -> u(F32Ops.med3(i(a), i(b), i(c), m)));
      case V_LDEXP_F32: return put(32, 32, 0, 32, F32, 0, (a, b, c, m) -> u(F32Ops.ldexp(i(a), i(b), m)));
      case V_RCP_F32: return f32(1, (a, b, c, m) -> u(F32Ops.rcp(i(a), m)));
      case V_RCP_IFLAG_F32: return f32(1, (a, b, c, m) -> u(F32Ops.rcpIflag(i(a), m)));
      case V_RSQ_F32: return f32(1, (a, b, c, m) -> u(F32Ops.rsq(i(a), m)));
      case V_SQRT_F32: return f32(1, (a, b, c, m) -> u(F32Ops.sqrt(i(a), m)));
      case V_EXP_F32: return f32(1, (a, b, c, m) -> u(F32Ops.exp(i(a), m)));
      case V_LOG_F32: return f32(1, (a, b, c, m) -> u(F32Ops.log(i(a), m)));
      case V_SIN_F32: return f32(1, (a, b, c, m) -> u(F32Ops.sin(i(a), m)));
      case V_COS_F32: return f32(1, (a, b, c, m) -> u(F32Ops.cos(i(a), m)));
      case V_FRACT_F32: return f32(1, (a, b, c, m) -> u(F32Ops.fract(i(a), m)));
      case V_TRUNC_F32: return f32(1, (a, b, c, m) -> u(F32Ops.trunc(i(a), m)));
      case V_CEIL_F32: return f32(1, (a, b, c, m) -> u(F32Ops.ceil(i(a), m)));
      case V_FLOOR_F32: return f32(1, (a, b, c, m) -> u(F32Ops.floor(i(a), m)));
      case V_RNDNE_F32: return f32(1, (a, b, c, m) -> u(F32Ops.rndne(i(a), m)));
      case V_FREXP_MANT_F32: return f32(1, (a, b, c, m) -> u(F32Ops.frexpMant(i(a), m)));
      case V_FREXP_EXP_I32_F32: return put(32, 0, 0, 32, NONE, 0, (a, b, c, m) -> u(F32Ops.frexpExp(i(a), m)));
      case V_DIV_FIXUP_F32: return f32(3, (a, b, c, m) -> u(F32Ops.divFixup(i(a), i(b), i(c), m)));
      case V_DIV_FMAS_F32: return put(32, 32, 32, 32, F32, 0, null); // needs VCC: dedicated op
      case V_DIV_SCALE_F32: return put(32, 32, 32, 32, F32, FLAG_OUT,
          (a, b, c, m) -> u(F32Ops.divScale(i(a), i(b), i(c), m))
              | (F32Ops.divScaleVcc(i(a), i(b), i(c), m) ? 1L << 32 : 0));
      case V_CUBEID_F32: return f32(3, (a, b, c, m) -> u(F32Ops.cubeId(i(a), i(b), i(c))));
      case V_CUBESC_F32: return f32(3, (a, b, c, m) -> u(F32Ops.cubeSc(i(a), i(b), i(c))));
      case V_CUBETC_F32: return f32(3, (a, b, c, m) -> u(F32Ops.cubeTc(i(a), i(b), i(c))));
      case V_CUBEMA_F32: return f32(3, (a, b, c, m) -> u(F32Ops.cubeMa(i(a), i(b), i(c), m)));
      // ---------------------------------------------------------------- f64
      case V_ADD_F64: return f64(2, (a, b, c, m) -> F64Ops.add(a, b, m));
      case V_MUL_F64: return f64(2, (a, b, c, m) -> F64Ops.mul(a, b, m));
      case V_MIN_F64: return f64(2, (a, b, c, m) -> F64Ops.min(a, b, m));
      case V_MAX_F64: return f64(2, (a, b, c, m) -> F64Ops.max(a, b, m));
      case V_FMA_F64: return f64(3, (a, b, c, m) -> F64Ops.fma(a, b, c, m));
      case V_FMAC_F64: return put(64, 64, 64, 64, F64, ACCUMULATE, (a, b, c, m) -> F64Ops.fma(a, b, c, m));
      case V_LDEXP_F64: return put(64, 32, 0, 64, F64, 0, (a, b, c, m) -> F64Ops.ldexp(a, i(b), m));
      case V_RCP_F64: return f64(1, (a, b, c, m) -> F64Ops.rcp(a, m));
      case V_RSQ_F64: return f64(1, (a, b, c, m) -> F64Ops.rsq(a, m));
      case V_SQRT_F64: return f64(1, (a, b, c, m) -> F64Ops.sqrt(a, m));
      case V_FRACT_F64: return f64(1, (a, b, c, m) -> F64Ops.fract(a, m));
      case V_TRUNC_F64: return f64(1, (a, b, c, m) -> F64Ops.trunc(a, m));
      case V_CEIL_F64: return f64(1, (a, b, c, m) -> F64Ops.ceil(a, m));
      case V_FLOOR_F64: return f64(1, (a, b, c, m) -> F64Ops.floor(a, m));
      case V_RNDNE_F64: return f64(1, (a, b, c, m) -> F64Ops.rndne(a, m));
      case V_FREXP_MANT_F64: return f64(1, (a, b, c, m) -> F64Ops.frexpMant(a, m));
      case V_FREXP_EXP_I32_F64: return put(64, 0, 0, 32, NONE, 0, (a, b, c, m) -> u(F64Ops.frexpExp(a, m)));
      case V_DIV_FIXUP_F64: return f64(3, (a, b, c, m) -> F64Ops.divFixup(a, b, c, m));
      case V_TRIG_PREOP_F64: return put(64, 32, 0, 64, F64, 0, (a, b, c, m) -> F64Ops.trigPreop(a, i(b), m));
      // ---------------------------------------------------------------- f16
      case V_ADD_F16: return f16(2, (a, b, c, m) -> u(F16Ops.add(i(a), i(b), m)));
      case V_SUB_F16: return f16(2, (a, b, c, m) -> u(F16Ops.sub(i(a), i(b), m)));
      case V_SUBREV_F16: return f16(2, (a, b, c, m) -> u(F16Ops.sub(i(b), i(a), m)));
      case V_MUL_F16: return f16(2, (a, b, c, m) -> u(F16Ops.mul(i(a), i(b), m)));
      case V_MIN_F16: return f16(2, (a, b, c, m) -> u(F16Ops.min(i(a), i(b), m)));
      case V_MAX_F16: return f16(2, (a, b, c, m) -> u(F16Ops.max(i(a), i(b), m)));
      case V_FMA_F16: return f16(3, (a, b, c, m) -> u(F16Ops.fma(i(a), i(b), i(c), m)));
      case V_MAD_F16: return f16(3, (a, b, c, m) -> u(F16Ops.mad(i(a), i(b), i(c), m)));
      case V_MADMK_F16: return f16(3, (a, b, c, m) -> u(F16Ops.mad(i(a), i(b), i(c), m)));
      case V_MADAK_F16: return f16(3, (a, b, c, m) -> u(F16Ops.mad(i(a), i(b), i(c), m)));
      case V_MAC_F16: return put(16, 16, 16, 16, F16, ACCUMULATE, (a, b, c, m) -> u(F16Ops.mad(i(a), i(b), i(c), m)));
      case V_MIN3_F16: return f16(3, (a, b, c, m) -> u(F16Ops.min3(i(a), i(b), i(c), m)));
      case V_MAX3_F16: return f16(3, (a, b, c, m) -> u(F16Ops.max3(i(a), i(b), i(c), m)));
      case V_MED3_F16: return f16(3, (a, b, c, m) -> u(F16Ops.med3(i(a), i(b), i(c), m)));
      case V_LDEXP_F16: return put(16, 32, 0, 16, F16, 0, (a, b, c, m) -> u(F16Ops.ldexp(i(a), i(b), m)));
      case V_RCP_F16: return f16(1, (a, b, c, m) -> u(F16Ops.rcp(i(a), m)));
      case V_RSQ_F16: return f16(1, (a, b, c, m) -> u(F16Ops.rsq(i(a), m)));
      case V_SQRT_F16: return f16(1, (a, b, c, m) -> u(F16Ops.sqrt(i(a), m)));
      case V_EXP_F16: return f16(1, (a, b, c, m) -> u(F16Ops.exp(i(a), m)));
      case V_LOG_F16: return f16(1, (a, b, c, m) -> u(F16Ops.log(i(a), m)));
      case V_SIN_F16: return f16(1, (a, b, c, m) -> u(F16Ops.sin(i(a), m)));
      case V_COS_F16: return f16(1, (a, b, c, m) -> u(F16Ops.cos(i(a), m)));
      case V_FRACT_F16: return f16(1, (a, b, c, m) -> u(F16Ops.fract(i(a), m)));
      case V_TRUNC_F16: return f16(1, (a, b, c, m) -> u(F16Ops.trunc(i(a), m)));
      case V_CEIL_F16: return f16(1, (a, b, c, m) -> u(F16Ops.ceil(i(a), m)));
      case V_FLOOR_F16: return f16(1, (a, b, c, m) -> u(F16Ops.floor(i(a), m)));
      case V_RNDNE_F16: return f16(1, (a, b, c, m) -> u(F16Ops.rndne(i(a), m)));
      case V_FREXP_MANT_F16: return f16(1, (a, b, c, m) -> u(F16Ops.frexpMant(i(a), m)));
      case V_FREXP_EXP_I16_F16: return put(16, 0, 0, 16, NONE, 0, (a, b, c, m) -> u(F16Ops.frexpExp(i(a), m) & 0xffff));
      case V_DIV_FIXUP_F16: return f16(3, (a, b, c, m) -> u(F16Ops.divFixup(i(a), i(b), i(c), m)));
      // ---------------------------------------------------------------- conversions
      case V_CVT_F32_I32: return put(32, 0, 0, 32, F32, 0, (a, b, c, m) -> u(Convert.f32FromI32(i(a), m)));
      case V_CVT_F32_U32: return put(32, 0, 0, 32, F32, 0, (a, b, c, m) -> u(Convert.f32FromU32(i(a), m)));
      case V_CVT_I32_F32: return put(32, 0, 0, 32, NONE, 0, (a, b, c, m) -> u(Convert.i32FromF32(i(a), m)));
      case V_CVT_U32_F32: return put(32, 0, 0, 32, NONE, 0, (a, b, c, m) -> u(Convert.u32FromF32(i(a), m)));
      case V_CVT_RPI_I32_F32: return put(32, 0, 0, 32, NONE, 0, (a, b, c, m) -> u(Convert.rpiI32FromF32(i(a), m)));
      case V_CVT_FLR_I32_F32: return put(32, 0, 0, 32, NONE, 0, (a, b, c, m) -> u(Convert.flrI32FromF32(i(a), m)));
      case V_CVT_F64_I32: return put(32, 0, 0, 64, F64, 0, (a, b, c, m) -> Convert.f64FromI32(i(a)));
      case V_CVT_F64_U32: return put(32, 0, 0, 64, F64, 0, (a, b, c, m) -> Convert.f64FromU32(i(a)));
      case V_CVT_I32_F64: return put(64, 0, 0, 32, NONE, 0, (a, b, c, m) -> u(Convert.i32FromF64(a, m)));
      case V_CVT_U32_F64: return put(64, 0, 0, 32, NONE, 0, (a, b, c, m) -> u(Convert.u32FromF64(a, m)));
      case V_CVT_F32_F64: return put(64, 0, 0, 32, F32, 0, (a, b, c, m) -> u(Convert.f32FromF64(a, m)));
      case V_CVT_F64_F32: return put(32, 0, 0, 64, F64, 0, (a, b, c, m) -> Convert.f64FromF32(i(a), m));
      case V_CVT_F16_F32: return put(32, 0, 0, 16, F16, 0, (a, b, c, m) -> u(Convert.f16FromF32(i(a), m)));
      case V_CVT_F32_F16: return put(16, 0, 0, 32, F32, 0, (a, b, c, m) -> u(Convert.f32FromF16(i(a), m)));
      case V_CVT_F16_U16: return put(16, 0, 0, 16, F16, 0, (a, b, c, m) -> u(Convert.f16FromU16(i(a), m)));
      case V_CVT_F16_I16: return put(16, 0, 0, 16, F16, 0, (a, b, c, m) -> u(Convert.f16FromI16(i(a), m)));
      case V_CVT_U16_F16: return put(16, 0, 0, 16, NONE, 0, (a, b, c, m) -> u(Convert.u16FromF16(i(a), m)));
      case V_CVT_I16_F16: return put(16, 0, 0, 16, NONE, 0, (a, b, c, m) -> u(Convert.i16FromF16(i(a), m)));
      case V_CVT_F32_UBYTE0: return put(32, 0, 0, 32, F32, 0, (a, b, c, m) -> u(Convert.f32FromUbyte(i(a), 0)));
      case V_CVT_F32_UBYTE1: return put(32, 0, 0, 32, F32, 0, (a, b, c, m) -> u(Convert.f32FromUbyte(i(a), 1)));
      case V_CVT_F32_UBYTE2: return put(32, 0, 0, 32, F32, 0, (a, b, c, m) -> u(Convert.f32FromUbyte(i(a), 2)));
      case V_CVT_F32_UBYTE3: return put(32, 0, 0, 32, F32, 0, (a, b, c, m) -> u(Convert.f32FromUbyte(i(a), 3)));
      case V_CVT_OFF_F32_I4: return put(32, 0, 0, 32, F32, 0, (a, b, c, m) -> u(Convert.offF32FromI4(i(a))));
      case V_CVT_NORM_I16_F16: return put(16, 0, 0, 16, NONE, 0, (a, b, c, m) -> u(Convert.normI16FromF16(i(a), m)));
      case V_CVT_NORM_U16_F16: return put(16, 0, 0, 16, NONE, 0, (a, b, c, m) -> u(Convert.normU16FromF16(i(a), m)));
      case V_SAT_PK_U8_I16: return put(32, 0, 0, 16, NONE, 0, (a, b, c, m) -> u(Convert.satPkU8FromI16(i(a))));
      case V_CVT_PKRTZ_F16_F32: return i32(2, (a, b, c, m) -> u(Convert.pkrtzF16FromF32(i(a), i(b), m)));
      case V_CVT_PKNORM_I16_F32: return i32(2, (a, b, c, m) -> u(Convert.pknormI16FromF32(i(a), i(b), m)));
      case V_CVT_PKNORM_U16_F32: return i32(2, (a, b, c, m) -> u(Convert.pknormU16FromF32(i(a), i(b), m)));
      case V_CVT_PKNORM_I16_F16: return put(16, 16, 0, 32, NONE, 0,
          (a, b, c, m) -> u(Convert.pknormI16FromF16(i(a), i(b), m)));
      case V_CVT_PKNORM_U16_F16: return put(16, 16, 0, 32, NONE, 0,
          (a, b, c, m) -> u(Convert.pknormU16FromF16(i(a), i(b), m)));
      case V_CVT_PK_U16_U32: return i32(2, (a, b, c, m) -> u(Convert.pkU16FromU32(i(a), i(b))));
      case V_CVT_PK_I16_I32: return i32(2, (a, b, c, m) -> u(Convert.pkI16FromI32(i(a), i(b))));
      case V_CVT_PK_U8_F32: return i32(3, (a, b, c, m) -> u(Convert.pkU8FromF32(i(a), i(b), i(c), m)));
      case V_PACK_B32_F16: return put(16, 16, 0, 32, NONE, 0, (a, b, c, m) -> (a & 0xffff) | ((b & 0xffff) << 16));
      // ---------------------------------------------------------------- gfx940 8-bit floats (SDWA selects the byte)
      case V_CVT_F32_FP8: return put(32, 0, 0, 32, F32, 0, (a, b, c, m) -> u(Convert.f32FromFp8(i(a), 0)));
      case V_CVT_F32_BF8: return put(32, 0, 0, 32, F32, 0, (a, b, c, m) -> u(Convert.f32FromBf8(i(a), 0)));
      case V_CVT_PK_F32_FP8: return put(32, 0, 0, 64, F32, 0, (a, b, c, m) -> Convert.pkF32FromFp8(i(a), 0));
      case V_CVT_PK_F32_BF8: return put(32, 0, 0, 64, F32, 0, (a, b, c, m) -> Convert.pkF32FromBf8(i(a), 0));
      // ---------------------------------------------------------------- legacy and rarely used
      case V_EXP_LEGACY_F32: return f32(1, (a, b, c, m) -> u(F32Ops.expLegacy(i(a), m)));
      case V_LOG_LEGACY_F32: return f32(1, (a, b, c, m) -> u(F32Ops.logLegacy(i(a), m)));
      case V_SCREEN_PARTITION_4SE_B32: return i32(1, (a, b, c, m) -> u(IntOps.screenPartition4se(i(a))));
      // The GFX8 encodings of the 16-bit mad/fma/div_fixup: no op_sel, the high half of the result is zeroed.
      case V_MAD_LEGACY_F16: return f16(3, (a, b, c, m) -> u(F16Ops.mad(i(a), i(b), i(c), m)));
      case V_FMA_LEGACY_F16: return f16(3, (a, b, c, m) -> u(F16Ops.fma(i(a), i(b), i(c), m)));
      case V_DIV_FIXUP_LEGACY_F16: return f16(3, (a, b, c, m) -> u(F16Ops.divFixup(i(a), i(b), i(c), m)));
      case V_MAD_LEGACY_U16: return i16(3, (a, b, c, m) -> u(IntOps.madU16(i(a), i(b), i(c), cl(m))));
      case V_MAD_LEGACY_I16: return i16(3, (a, b, c, m) -> u(IntOps.madI16(i(a), i(b), i(c), cl(m))));
      case V_CVT_PKACCUM_U8_F32: return put(32, 32, 0, 32, NONE, ACCUMULATE,
          (a, b, c, m) -> u(Convert.pkaccumU8FromF32(i(a), i(b), i(c), m)));
      case V_QSAD_PK_U16_U8: return put(64, 32, 64, 64, NONE, 0, (a, b, c, m) -> IntOps.qsadPkU16U8(a, i(b), c));
      case V_MQSAD_PK_U16_U8: return put(64, 32, 64, 64, NONE, 0, (a, b, c, m) -> IntOps.mqsadPkU16U8(a, i(b), c));
      // ---------------------------------------------------------------- VOP2 dot products and v_pk_fmac_f16: D is S2
      // Their VOP3 abs/neg act on both halves of a packed f16 source (Src.PAIR16), and MODE is ignored by the float
      // dot (DotOps); CLAMP saturates the integer sums.
      case V_DOT2C_F32_F16: return put(Src.PAIR16, Src.PAIR16, 0, 32, F32, ACCUMULATE,
          (a, b, c, m) -> u(DotOps.dot2F32F16(i(a), i(b), i(c), 0, 0, false, m)));
      case V_DOT2C_I32_I16: return put(32, 32, 0, 32, NONE, ACCUMULATE,
          (a, b, c, m) -> u(DotOps.dot2I32I16(i(a), i(b), i(c), cl(m))));
      case V_DOT4C_I32_I8: return put(32, 32, 0, 32, NONE, ACCUMULATE,
          (a, b, c, m) -> u(DotOps.dot4I32I8(i(a), i(b), i(c), cl(m))));
      case V_DOT8C_I32_I4: return put(32, 32, 0, 32, NONE, ACCUMULATE,
          (a, b, c, m) -> u(DotOps.dot8I32I4(i(a), i(b), i(c), cl(m))));
      case V_PK_FMAC_F16: return put(Src.PAIR16, Src.PAIR16, 0, 32, NONE, ACCUMULATE,
          (a, b, c, m) -> u(PackedOps.pk16(PackedOps.PK_FMA_F16, i(a), i(b), i(c), 0, 7, 0, 0, cl(m),
              m & ~INT_CLAMP)));
      default: return compare(op);
    }
  }

  /** A V_CMP_* / V_CMPX_* operation's spec, by its name; null for any other operation. */
  private static ValuSpec compare(Operation op) {
    String name = op.name();
    if (!name.startsWith("V_CMP_") && !name.startsWith("V_CMPX_")) return null;
    boolean exec = name.startsWith("V_CMPX_");
    String rest = name.substring(exec ? 7 : 6);
    int us = rest.lastIndexOf('_');
    String predicate = rest.substring(0, us);
    String type = rest.substring(us + 1);
    int flags = exec ? COMPARE | COMPARE_EXEC : COMPARE;
    if (predicate.equals("CLASS")) {
      int f = floatFormat(type);
      int w = width(type);
      return put(w, 32, 0, 0, NONE, flags, (a, b, c, m) -> FloatOps.cmpClass(f, a, i(b)) ? 1 : 0);
    }
    int w = width(type);
    if (type.startsWith("F")) {
      int f = floatFormat(type);
      int p = floatPredicate(predicate);
      if (p < 0) return null;
      return put(w, w, 0, 0, NONE, flags, (a, b, c, m) -> FloatOps.compare(f, p, a, b, m) ? 1 : 0);
    }
    int p = intPredicate(predicate);
    if (p < 0) return null;
    switch (type) {
      case "I16": return put(16, 16, 0, 0, NONE, flags, (a, b, c, m) -> IntOps.cmpI16(p, i(a), i(b)) ? 1 : 0);
      case "U16": return put(16, 16, 0, 0, NONE, flags, (a, b, c, m) -> IntOps.cmpU16(p, i(a), i(b)) ? 1 : 0);
      case "I32": return put(32, 32, 0, 0, NONE, flags, (a, b, c, m) -> IntOps.cmpI32(p, i(a), i(b)) ? 1 : 0)
          .withMaskWave((v, d, a, ao, b, bo, mask) -> IntWaveOps.compare32(p, false, a, ao, b, bo));
      case "U32": return put(32, 32, 0, 0, NONE, flags, (a, b, c, m) -> IntOps.cmpU32(p, i(a), i(b)) ? 1 : 0)
          .withMaskWave((v, d, a, ao, b, bo, mask) -> IntWaveOps.compare32(p, true, a, ao, b, bo));
      case "I64": return put(64, 64, 0, 0, NONE, flags, (a, b, c, m) -> IntOps.cmpI64(p, a, b) ? 1 : 0);
      case "U64": return put(64, 64, 0, 0, NONE, flags, (a, b, c, m) -> IntOps.cmpU64(p, a, b) ? 1 : 0);
      default: return null;
    }
  }

  private static int width(String type) {
    return type.endsWith("16") ? 16 : type.endsWith("64") ? 64 : 32;
  }

  private static int floatFormat(String type) {
    return type.equals("F16") ? FpFormat.F16 : type.equals("F64") ? FpFormat.F64 : FpFormat.F32;
  }

  private static int floatPredicate(String p) {
    switch (p) {
      case "F": return FloatOps.CMP_F;
      case "LT": return FloatOps.CMP_LT;
      case "EQ": return FloatOps.CMP_EQ;
      case "LE": return FloatOps.CMP_LE;
      case "GT": return FloatOps.CMP_GT;
      case "LG": return FloatOps.CMP_LG;
      case "GE": return FloatOps.CMP_GE;
      case "O": return FloatOps.CMP_O;
      case "U": return FloatOps.CMP_U;
      case "NGE": return FloatOps.CMP_NGE;
      case "NLG": return FloatOps.CMP_NLG;
      case "NGT": return FloatOps.CMP_NGT;
      case "NLE": return FloatOps.CMP_NLE;
      case "NEQ": return FloatOps.CMP_NEQ;
      case "NLT": return FloatOps.CMP_NLT;
      case "TRU": return FloatOps.CMP_TRU;
      default: return -1;
    }
  }

  /** The IntOps.ICMP_* code of a compare's predicate name (F, LT, EQ, …), or -1. */
  static int intPredicate(String p) {
    switch (p) {
      case "F": return IntOps.ICMP_F;
      case "LT": return IntOps.ICMP_LT;
      case "EQ": return IntOps.ICMP_EQ;
      case "LE": return IntOps.ICMP_LE;
      case "GT": return IntOps.ICMP_GT;
      case "NE": case "LG": return IntOps.ICMP_NE;
      case "GE": return IntOps.ICMP_GE;
      case "T": case "TRU": return IntOps.ICMP_T;
      default: return -1;
    }
  }
}
