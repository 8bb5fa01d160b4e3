package dev.hipsim.isa.interp;

import dev.hipsim.isa.alu.Convert;
import dev.hipsim.isa.alu.IntOps;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.exec.Wave;

/**
 * VALU operations that need something the generic table cannot give them: a per-instruction control folded into
 * the lane function (the byte or half the gfx940 FP8 packing conversions write), a 128-bit accumulator, or wave
 * state rather than lanes.
 */
final class ValuMiscOps {
  private ValuMiscOps() {}

  /** TRAPSTS.EXCP, the exception bits v_clrexcp clears. */
  static final int TRAPSTS_EXCP = 0x1ff;

  static Op compile(Instruction inst) {
    switch (inst.operation()) {
      case V_CLREXCP: return new ClearExceptions(inst);
      case V_MQSAD_U32_U8: return new MqsadU32(inst);
      case V_CVT_PK_FP8_F32: case V_CVT_PK_BF8_F32: {
        // op_sel[3] chooses the half of the destination that takes the two bytes; the other half is kept.
        boolean high = inst.dstOpSel();
        boolean bf8 = inst.operation() == Operation.V_CVT_PK_BF8_F32;
        return new ValuOp(inst, new ValuSpec(32, 32, 0, 32, ValuSpec.NONE, ValuSpec.ACCUMULATE,
            (a, b, c, m) -> (bf8 ? Convert.pkBf8FromF32((int) a, (int) b, (int) c, high, m)
                : Convert.pkFp8FromF32((int) a, (int) b, (int) c, high, m)) & 0xffff_ffffL));
      }
      case V_CVT_SR_FP8_F32: case V_CVT_SR_BF8_F32: {
        // op_sel[3:2] (instruction bits 14:13; the encoding has no src2 to carry op_sel[2]) choose the byte.
        int byteSelect = (inst.word0() >>> 13) & 3;
        boolean bf8 = inst.operation() == Operation.V_CVT_SR_BF8_F32;
        return new ValuOp(inst, new ValuSpec(32, 32, 0, 32, ValuSpec.NONE, ValuSpec.ACCUMULATE,
            (a, b, c, m) -> (bf8 ? Convert.srBf8FromF32((int) a, (int) b, (int) c, byteSelect, m)
                : Convert.srFp8FromF32((int) a, (int) b, (int) c, byteSelect, m)) & 0xffff_ffffL));
      }
      default: return null;
    }
  }

  /** v_clrexcp: clears the wave's exception state. */
  static final class ClearExceptions extends Op {
    ClearExceptions(Instruction inst) {
      super(inst);
    }

    @Override
    public void execute(Wave w, Ctx cx) {
      w.trapsts &= ~TRAPSTS_EXCP;
      w.pc += size;
    }
  }

  /**
   * v_mqsad_u32_u8: four masked SADs of the byte windows of the 64-bit S0 against S1, each added to a dword of the
   * 128-bit S2, into the four dwords of D.
   */
  static final class MqsadU32 extends Op {
    private final Src s0;
    private final Src s1;
    private final Src s2;
    private final Dst dst;

    MqsadU32(Instruction inst) {
      super(inst);
      this.s0 = Src.of(inst.src0(), 64);
      this.s1 = Src.of(inst.src1(), 32);
      this.s2 = Src.of(inst.src2(), 32);
      this.dst = Dst.of(inst.vdst());
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      long exec = w.exec();
      long[] a = s0.read64(w, cx, cx.la);
      int[] b = s1.read32(w, cx, cx.b);
      int[] out = cx.data;
      int[] acc = cx.c;
      if (!s2.isVector()) {
        // A scalar S2 is an SGPR quad, or a constant sign-extended to 128 bits.
        for (int k = 0; k < 4; k++) {
          acc[k] = s2.kind == Src.SGPR ? w.s[s2.index + k] : k == 0 ? (int) s2.constant : s2.constant < 0 ? -1 : 0;
        }
      }
      for (long m = exec; m != 0; m &= m - 1) {
        int l = Long.numberOfTrailingZeros(m);
        for (int k = 0; k < 4; k++) {
          int c = s2.isVector() ? s2.vectorDword(w, k, l) : acc[k];
          out[k * Wave.LANES + l] = IntOps.msadU8((int) (a[l] >>> (8 * k)), b[l], c);
        }
      }
      int base = dst.base(w);
      for (long m = exec; m != 0; m &= m - 1) {
        int l = Long.numberOfTrailingZeros(m);
        for (int k = 0; k < 4; k++) w.v[base + k * Wave.LANES + l] = out[k * Wave.LANES + l];
      }
      w.pc += size;
    }
  }
}
