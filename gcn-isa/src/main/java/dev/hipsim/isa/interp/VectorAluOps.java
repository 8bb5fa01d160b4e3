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
      default: break;
    }
    ValuSpec spec = ValuTable.get(op);
    if (spec == null || spec.fn() == null) return null;
    return new ValuOp(inst, spec);
  }

  /** Lanes the instruction writes: EXEC. */
  static long exec(Wave w) {
    return w.exec();
  }

  /** The generic VALU operation. */
  static final class ValuOp extends Op {
    private final ValuSpec spec;
    private final Src s0;
    private final Src s1;
    private final Src s2;
    private final Dst vdst;
    private final Dst sdst;
    private final Src acc;
    private final boolean clamp;
    private final int omod;
    private final boolean dstHigh;
    private final dev.hipsim.isa.decode.Dpp dpp;
    private final dev.hipsim.isa.decode.Sdwa sdwa;
    private final boolean sext0;
    private final boolean sext1;

    ValuOp(Instruction inst, ValuSpec spec) {
      super(inst);
      this.spec = spec;
      this.s0 = Src.of(inst.src0(), spec.w0());
      this.s1 = Src.of(inst.src1(), spec.w1());
      this.s2 = Src.of(inst.src2(), spec.has(ValuSpec.MASK_IN) ? 64 : spec.w2());
      this.vdst = Dst.of(inst.vdst());
      this.sdst = Dst.of(inst.sdst());
      this.acc = spec.has(ValuSpec.ACCUMULATE) ? Src.of(inst.vdst(), spec.wd()) : null;
      this.clamp = inst.clamp();
      this.omod = inst.omod();
      this.dstHigh = inst.dstOpSel();
      this.dpp = inst.dpp();
      this.sdwa = inst.sdwa();
      this.sext0 = inst.src0() != null && inst.src0().has(Operand.SEXT);
      this.sext1 = inst.src1() != null && inst.src1().has(Operand.SEXT);
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      long exec = w.exec();
      long active = exec;
      int mode = w.mode;
      if (clamp && spec.outputFormat() == ValuSpec.NONE) mode |= ValuTable.INT_CLAMP;
      long[] a = cx.la;
      long[] b = cx.lb;
      long[] c = cx.lc;
      long[] d = cx.ld;
      int gprIdx = w.gprIdxMask;
      if (dpp != null) {
        active = gatherDpp(w, cx, a, exec);
      } else if (s0 != null) {
        read(w, cx, s0, spec.w0(), a, gprIdx, 1);
      }
      if (s1 != null) read(w, cx, s1, spec.w1(), b, gprIdx, 2);
      if (sdwa != null) applySdwaSources(a, b);
      if (spec.has(ValuSpec.MASK_IN)) {
        long mask = s2.scalarRaw64(w, cx);
        for (int l = 0; l < Wave.LANES; l++) c[l] = (mask >>> l) & 1;
      } else if (acc != null) {
        read(w, cx, acc, spec.wd(), c, 0, 0);
      } else if (s2 != null) {
        read(w, cx, s2, spec.w2(), c, gprIdx, 4);
      }
      LaneFn fn = spec.fn();
      boolean mask = spec.has(ValuSpec.COMPARE);
      boolean carry = spec.has(ValuSpec.CARRY_OUT) || spec.has(ValuSpec.FLAG_OUT);
      int fmt = spec.outputFormat();
      long bits = 0;
      for (long m = active; m != 0; m &= m - 1) {
        int l = Long.numberOfTrailingZeros(m);
        long r = fn.apply(a[l], b[l], c[l], mode);
        if (mask) {
          if (r != 0) bits |= 1L << l;
          continue;
        }
        if (carry) {
          if ((r >>> 32 & 1) != 0) bits |= 1L << l;
          r &= 0xffff_ffffL;
        }
        if (fmt != ValuSpec.NONE && (clamp || omod != 0)) r = OutputMods.apply(fmt, r, omod, clamp, w.mode);
        d[l] = r;
      }
      if (mask) {
        sdst.writeScalar64(w, bits);
        if (spec.has(ValuSpec.COMPARE_EXEC)) w.setExec(bits);
      } else {
        if (carry && sdst != null) sdst.writeScalar64(w, bits);
        writeResult(w, d, active, gprIdx);
      }
      w.pc += size;
    }

    private long gatherDpp(Wave w, Ctx cx, long[] a, long exec) {
      int base = s0.vectorBase(w) / Wave.LANES;
      if (spec.w0() == 64) {
        return Dpp.gather64(w.v, base, dpp.control(), dpp.rowMask(), dpp.bankMask(), dpp.boundControl(), exec, a);
      }
      int[] t = cx.a;
      long written = Dpp.gather(w.v, base, dpp.control(), dpp.rowMask(), dpp.bankMask(), dpp.boundControl(), exec, t);
      int mods = instruction.src0().mods();
      for (int l = 0; l < Wave.LANES; l++) {
        int x = t[l];
        if (spec.w0() == 16) {
          if ((mods & Operand.ABS) != 0) x &= ~0x8000;
          if ((mods & Operand.NEG) != 0) x ^= 0x8000;
          x &= 0xffff;
        } else {
          if ((mods & Operand.ABS) != 0) x &= 0x7fff_ffff;
          if ((mods & Operand.NEG) != 0) x ^= 0x8000_0000;
        }
        a[l] = x & 0xffff_ffffL;
      }
      return written;
    }

    private void applySdwaSources(long[] a, long[] b) {
      if (s0 != null && spec.w0() != 64) {
        for (int l = 0; l < Wave.LANES; l++) a[l] = Sdwa.select((int) a[l], sdwa.src0Sel(), sext0) & 0xffff_ffffL;
      }
      if (s1 != null && spec.w1() != 64) {
        for (int l = 0; l < Wave.LANES; l++) b[l] = Sdwa.select((int) b[l], sdwa.src1Sel(), sext1) & 0xffff_ffffL;
      }
    }

    private void writeResult(Wave w, long[] d, long active, int gprIdx) {
      if (vdst == null) return;
      int[] v = w.v;
      if (!vdst.vector) {
        // A VALU result written to an SGPR (v_readfirstlane-like forms handled elsewhere): lane 0 of the active set.
        if (active != 0) vdst.writeScalar32(w, (int) d[Long.numberOfTrailingZeros(active)]);
        return;
      }
      int base = vdst.base(w) + ((gprIdx & 8) != 0 ? (w.s[Wave.M0] & 0xff) * Wave.LANES : 0);
      int wd = spec.wd();
      if (wd == 64) {
        for (long m = active; m != 0; m &= m - 1) {
          int l = Long.numberOfTrailingZeros(m);
          v[base + l] = (int) d[l];
          v[base + Wave.LANES + l] = (int) (d[l] >>> 32);
        }
      } else if (sdwa != null) {
        for (long m = active; m != 0; m &= m - 1) {
          int l = Long.numberOfTrailingZeros(m);
          v[base + l] = Sdwa.merge((int) d[l], v[base + l], sdwa.dstSel(), sdwa.dstUnused());
        }
      } else if (wd == 16) {
        for (long m = active; m != 0; m &= m - 1) {
          int l = Long.numberOfTrailingZeros(m);
          int r = (int) d[l] & 0xffff;
          v[base + l] = dstHigh ? (v[base + l] & 0xffff) | (r << 16) : r;
        }
      } else {
        for (long m = active; m != 0; m &= m - 1) {
          int l = Long.numberOfTrailingZeros(m);
          v[base + l] = (int) d[l];
        }
      }
    }

    /** Reads a source at a width into 64 longs, honouring GPR indexing for vector sources. */
    private static void read(Wave w, Ctx cx, Src src, int width, long[] out, int gprIdx, int slotBit)
        throws DispatchException {
      if (width == 64) {
        src.read64(w, cx, out);
        return;
      }
      int[] t = cx.e;
      if ((gprIdx & slotBit) != 0 && src.isVector()) {
        int base = src.vectorBase(w) + (w.s[Wave.M0] & 0xff) * Wave.LANES;
        System.arraycopy(w.v, base, t, 0, Wave.LANES);
      } else {
        src.read32(w, cx, t);
      }
      if (width == 16) {
        for (int l = 0; l < Wave.LANES; l++) out[l] = t[l] & 0xffff;
      } else {
        for (int l = 0; l < Wave.LANES; l++) out[l] = t[l] & 0xffff_ffffL;
      }
    }
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
