package dev.hipsim.isa.interp;

import dev.hipsim.isa.alu.Dpp;
import dev.hipsim.isa.alu.F32Ops;
import dev.hipsim.isa.alu.F64Ops;
import dev.hipsim.isa.alu.IntOps;
import dev.hipsim.isa.alu.OutputMods;
import dev.hipsim.isa.alu.Sdwa;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Operand;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Slot;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.exec.Wave;

/**
 * VOP1, VOP2, VOPC and VOP3 (with their DPP and SDWA forms): the vector ALU. Most operations go through
 * {@link ValuOp}, which reads the sources, applies DPP/SDWA and input modifiers, runs the lane function from
 * {@link ValuTable} on the active lanes and writes the result with output modifiers and the lane masks; the
 * operations that read or write lanes by index or need VCC as data have classes of their own.
 */
final class VectorAluOps {
  private VectorAluOps() {}

  static Op compile(Instruction inst) {
    Operation op = inst.operation();
    switch (op) {
      case V_NOP: return new ProgramOps.Nop(inst);
      case V_READLANE_B32: return new ReadLane(inst);
      case V_READFIRSTLANE_B32: return new ReadFirstLane(inst);
      case V_WRITELANE_B32: return new WriteLane(inst);
      case V_SWAP_B32: return new Swap(inst);
      case V_MBCNT_LO_U32_B32: case V_MBCNT_HI_U32_B32: return new MaskCount(inst);
      case V_DIV_FMAS_F32: case V_DIV_FMAS_F64: return new DivFmas(inst);
      case V_DIV_SCALE_F64: return new DivScale64(inst);
      case V_MAD_U64_U32: case V_MAD_I64_I32: return new MadWide(inst);
      case V_CLREXCP: case V_MQSAD_U32_U8: case V_CVT_PK_FP8_F32: case V_CVT_PK_BF8_F32: case V_CVT_SR_FP8_F32:
      case V_CVT_SR_BF8_F32:
        return ValuMiscOps.compile(inst);
      default: break;
    }
    ValuSpec spec = ValuTable.get(op);
    if (spec == null || spec.fn() == null) return null;
    return ValuKernels.of(inst, spec, new ValuOp(inst, spec));
  }

  /** Lanes the instruction writes: EXEC. */
  static long exec(Wave w) {
    return w.exec();
  }

  /** v_readlane_b32: an SGPR takes one lane of a VGPR (EXEC ignored). */
  static final class ReadLane extends Op {
    private final Src src;
    private final Src lane;
    private final Dst dst;

    ReadLane(Instruction inst) {
      super(inst);
      this.src = Src.of(inst.src0(), 32);
      this.lane = Src.of(inst.src1(), 32);
      this.dst = Dst.of(inst.vdst());
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      int l = lane.scalarRaw32(w, cx) & 63;
      dst.writeScalar32(w, src.lane32(w, cx, l));
      w.pc += size;
    }
  }

  /** v_readfirstlane_b32: an SGPR takes the VGPR of the first active lane (lane 0 when none is active). */
  static final class ReadFirstLane extends Op {
    private final Src src;
    private final Dst dst;

    ReadFirstLane(Instruction inst) {
      super(inst);
      this.src = Src.of(inst.src0(), 32);
      this.dst = Dst.of(inst.vdst());
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      long exec = w.exec();
      int l = exec == 0 ? 0 : Long.numberOfTrailingZeros(exec);
      dst.writeScalar32(w, src.lane32(w, cx, l));
      w.pc += size;
    }
  }

  /** v_writelane_b32: one lane of a VGPR takes a scalar (EXEC ignored). */
  static final class WriteLane extends Op {
    private final Src value;
    private final Src lane;
    private final Dst dst;

    WriteLane(Instruction inst) {
      super(inst);
      this.value = Src.of(inst.src0(), 32);
      this.lane = Src.of(inst.src1(), 32);
      this.dst = Dst.of(inst.vdst());
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      int l = lane.scalarRaw32(w, cx) & 63;
      w.v[dst.base(w) + l] = value.scalarRaw32(w, cx);
      w.pc += size;
    }
  }

  /** v_swap_b32: exchanges two VGPRs in the active lanes. */
  static final class Swap extends Op {
    private final Dst a;
    private final Dst b;

    Swap(Instruction inst) {
      super(inst);
      this.a = Dst.of(inst.vdst());
      this.b = Dst.of(inst.src0());
    }

    @Override
    public void execute(Wave w, Ctx cx) {
      int x = a.base(w);
      int y = b.base(w);
      int[] v = w.v;
      for (long m = w.exec(); m != 0; m &= m - 1) {
        int l = Long.numberOfTrailingZeros(m);
        int t = v[x + l];
        v[x + l] = v[y + l];
        v[y + l] = t;
      }
      w.pc += size;
    }
  }

  /** v_mbcnt_lo/hi_u32_b32: counts mask bits below each lane. */
  static final class MaskCount extends Op {
    private final boolean hi;
    private final Src s0;
    private final Src s1;
    private final Dst dst;

    MaskCount(Instruction inst) {
      super(inst);
      this.hi = inst.operation() == Operation.V_MBCNT_HI_U32_B32;
      this.s0 = Src.of(inst.src0(), 32);
      this.s1 = Src.of(inst.src1(), 32);
      this.dst = Dst.of(inst.vdst());
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      int[] a = s0.read32(w, cx, cx.a);
      int[] b = s1.read32(w, cx, cx.b);
      int[] d = cx.d;
      long exec = w.exec();
      for (long m = exec; m != 0; m &= m - 1) {
        int l = Long.numberOfTrailingZeros(m);
        d[l] = hi ? IntOps.mbcntHi(a[l], b[l], l) : IntOps.mbcntLo(a[l], b[l], l);
      }
      dst.write32(w, d, exec);
      w.pc += size;
    }
  }

  /** v_div_fmas_f32/f64: a fused multiply-add scaled by 2^±64/128 where VCC is set for the lane. */
  static final class DivFmas extends Op {
    private final boolean wide;
    private final Src s0;
    private final Src s1;
    private final Src s2;
    private final Dst dst;
    private final boolean clamp;
    private final int omod;

    DivFmas(Instruction inst) {
      super(inst);
      this.wide = inst.operation() == Operation.V_DIV_FMAS_F64;
      int width = wide ? 64 : 32;
      this.s0 = Src.of(inst.src0(), width);
      this.s1 = Src.of(inst.src1(), width);
      this.s2 = Src.of(inst.src2(), width);
      this.dst = Dst.of(inst.vdst());
      this.clamp = inst.clamp();
      this.omod = inst.omod();
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      long exec = w.exec();
      long vcc = w.vcc();
      int mode = w.mode;
      if (wide) {
        long[] a = s0.read64(w, cx, cx.la);
        long[] b = s1.read64(w, cx, cx.lb);
        long[] c = s2.read64(w, cx, cx.lc);
        long[] d = cx.ld;
        for (long m = exec; m != 0; m &= m - 1) {
          int l = Long.numberOfTrailingZeros(m);
          d[l] = OutputMods.f64(F64Ops.divFmas(a[l], b[l], c[l], (vcc >>> l & 1) != 0, mode), omod, clamp, mode);
        }
        dst.write64(w, d, exec);
      } else {
        int[] a = s0.read32(w, cx, cx.a);
        int[] b = s1.read32(w, cx, cx.b);
        int[] c = s2.read32(w, cx, cx.c);
        int[] d = cx.d;
        for (long m = exec; m != 0; m &= m - 1) {
          int l = Long.numberOfTrailingZeros(m);
          d[l] = OutputMods.f32(F32Ops.divFmas(a[l], b[l], c[l], (vcc >>> l & 1) != 0, mode), omod, clamp, mode);
        }
        dst.write32(w, d, exec);
      }
      w.pc += size;
    }
  }

  /** v_div_scale_f64: scaled value plus the VCC flag. */
  static final class DivScale64 extends Op {
    private final Src s0;
    private final Src s1;
    private final Src s2;
    private final Dst dst;
    private final Dst sdst;

    DivScale64(Instruction inst) {
      super(inst);
      this.s0 = Src.of(inst.src0(), 64);
      this.s1 = Src.of(inst.src1(), 64);
      this.s2 = Src.of(inst.src2(), 64);
      this.dst = Dst.of(inst.vdst());
      this.sdst = Dst.of(inst.sdst());
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      long exec = w.exec();
      int mode = w.mode;
      long[] a = s0.read64(w, cx, cx.la);
      long[] b = s1.read64(w, cx, cx.lb);
      long[] c = s2.read64(w, cx, cx.lc);
      long[] d = cx.ld;
      long flags = 0;
      for (long m = exec; m != 0; m &= m - 1) {
        int l = Long.numberOfTrailingZeros(m);
        d[l] = F64Ops.divScale(a[l], b[l], c[l], mode);
        if (F64Ops.divScaleVcc(a[l], b[l], c[l], mode)) flags |= 1L << l;
      }
      dst.write64(w, d, exec);
      sdst.writeScalar64(w, flags);
      w.pc += size;
    }
  }

  /** v_mad_u64_u32 / v_mad_i64_i32: 32×32+64 → 64 with a carry-out lane mask. */
  static final class MadWide extends Op {
    private final boolean signed;
    private final Src s0;
    private final Src s1;
    private final Src s2;
    private final Dst dst;
    private final Dst sdst;

    MadWide(Instruction inst) {
      super(inst);
      this.signed = inst.operation() == Operation.V_MAD_I64_I32;
      this.s0 = Src.of(inst.src0(), 32);
      this.s1 = Src.of(inst.src1(), 32);
      this.s2 = Src.of(inst.src2(), 64);
      this.dst = Dst.of(inst.vdst());
      this.sdst = Dst.of(inst.sdst());
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      long exec = w.exec();
      int[] a = s0.read32(w, cx, cx.a);
      int[] b = s1.read32(w, cx, cx.b);
      long[] c = s2.read64(w, cx, cx.lc);
      long[] d = cx.ld;
      long carries = 0;
      for (long m = exec; m != 0; m &= m - 1) {
        int l = Long.numberOfTrailingZeros(m);
        if (signed) {
          d[l] = IntOps.madI64I32(a[l], b[l], c[l]);
          if (IntOps.madI64I32Carry(a[l], b[l], c[l])) carries |= 1L << l;
        } else {
          d[l] = IntOps.madU64U32(a[l], b[l], c[l]);
          if (IntOps.madU64U32Carry(a[l], b[l], c[l])) carries |= 1L << l;
        }
      }
      dst.write64(w, d, exec);
      if (sdst != null) sdst.writeScalar64(w, carries);
      w.pc += size;
    }
  }
}
