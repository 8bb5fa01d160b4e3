package dev.hipsim.isa.interp;

import dev.hipsim.isa.alu.Dpp;
import dev.hipsim.isa.alu.OutputMods;
import dev.hipsim.isa.alu.Sdwa;
import dev.hipsim.isa.decode.Encoding;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Operand;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.exec.Wave;

/**
 * The generic VALU operation: reads the sources (with DPP, SDWA, GPR indexing and input modifiers), runs the lane
 * function of its {@link ValuSpec} on the lanes it writes, and writes the result with output modifiers, the
 * 16-bit destination rules and the lane masks (compare results, carries).
 *
 * <p>16-bit results on GFX9: an instruction without a destination op_sel zeroes the high half of the register
 * (LLVM's {@code GCNSubtarget::zeroesHigh16BitsOfDest} lists them for gfx9: the VOP1/VOP2 16-bit operations and
 * the "legacy" mad/fma/div_fixup encodings); the op_sel-capable VOP3 encodings write the half op_sel[3] names and
 * keep the other, and so do v_mac_f16, v_madmk_f16 and v_madak_f16, which changed to preserving in gfx9.
 */
final class ValuOp extends Op {
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
  private final boolean preserveHigh;
  private final dev.hipsim.isa.decode.Dpp dpp;
  private final dev.hipsim.isa.decode.Sdwa sdwa;
  private final boolean sext0;
  private final boolean sext1;
  private final boolean pairResult;

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
    Operation op = inst.operation();
    this.preserveHigh = inst.encoding() == Encoding.VOP3 && inst.info().uses(1L << 14)
        || op == Operation.V_MAC_F16 || op == Operation.V_MADMK_F16 || op == Operation.V_MADAK_F16;
    this.dpp = inst.dpp();
    this.sdwa = inst.sdwa();
    this.sext0 = inst.src0() != null && inst.src0().has(Operand.SEXT);
    this.sext1 = inst.src1() != null && inst.src1().has(Operand.SEXT);
    this.pairResult = spec.wd() == 64 && spec.outputFormat() == ValuSpec.F32;
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
      read(w, cx, s0, spec.w0(), a, gprIdx, 1, sdwa == null ? -1 : sdwa.src0Sel(), sext0);
    }
    if (s1 != null) read(w, cx, s1, spec.w1(), b, gprIdx, 2, sdwa == null ? -1 : sdwa.src1Sel(), sext1);
    if (spec.has(ValuSpec.MASK_IN)) {
      long mask = s2.scalarRaw64(w, cx);
      for (int l = 0; l < Wave.LANES; l++) c[l] = (mask >>> l) & 1;
    } else if (acc != null) {
      read(w, cx, acc, spec.wd(), c, (gprIdx & 8) != 0 ? 4 : 0, 4, -1, false);
    } else if (s2 != null) {
      read(w, cx, s2, spec.w2(), c, gprIdx, 4, -1, false);
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
      if (fmt != ValuSpec.NONE && (clamp || omod != 0)) {
        if (pairResult) {
          // Two f32 results in a register pair (v_cvt_pk_f32_fp8): the output modifiers act on each.
          r = (OutputMods.apply(fmt, r & 0xffff_ffffL, omod, clamp, w.mode) & 0xffff_ffffL)
              | OutputMods.apply(fmt, r >>> 32, omod, clamp, w.mode) << 32;
        } else {
          r = OutputMods.apply(fmt, r, omod, clamp, w.mode);
        }
      }
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

  /** The DPP source of every lane (with src0's abs/neg) and the lanes the instruction writes. */
  private long gatherDpp(Wave w, Ctx cx, long[] a, long exec) {
    int base = s0.vectorBase(w) / Wave.LANES;
    int mods = s0.mods;
    if (spec.w0() == 64) {
      // The DP ALU forms (gfx90a+) accept only row_newbcast; Dpp.sourceLane knows every control.
      long written = Dpp.gather64(w.v, base, dpp.control(), dpp.rowMask(), dpp.bankMask(), dpp.boundControl(),
          exec, a);
      if (mods != 0) {
        for (int l = 0; l < Wave.LANES; l++) a[l] = Src.applyMods64(a[l], mods);
      }
      return written;
    }
    int[] t = cx.a;
    long written = Dpp.gather(w.v, base, dpp.control(), dpp.rowMask(), dpp.bankMask(), dpp.boundControl(), exec, t);
    boolean half = spec.w0() == 16;
    for (int l = 0; l < Wave.LANES; l++) {
      int x = mods == 0 ? t[l] : Src.applyMods(t[l], mods, spec.w0());
      a[l] = half ? x & 0xffff : x & 0xffff_ffffL;
    }
    return written;
  }

  /**
   * Reads a source at a width into 64 longs: the raw register (honouring GPR indexing), then the SDWA select and
   * sign extension when {@code sel >= 0}, then abs/neg (and op_sel) at the operand's width, so that SDWA modifiers
   * act on the selected bits as the guide orders them.
   */
  private static void read(Wave w, Ctx cx, Src src, int width, long[] out, int gprIdx, int slotBit, int sel,
      boolean sext) throws DispatchException {
    boolean indexed = (gprIdx & slotBit) != 0 && src.isVector();
    int shift = indexed ? (w.s[Wave.M0] & 0xff) * Wave.LANES : 0;
    if (width == 64) {
      if (!src.isVector()) {
        java.util.Arrays.fill(out, Src.applyMods64(src.scalarRaw64(w, cx), src.mods));
        return;
      }
      int lo = src.vectorBase(w) + shift;
      int[] v = w.v;
      for (int l = 0; l < Wave.LANES; l++) {
        long x = (v[lo + l] & 0xffff_ffffL) | ((long) v[lo + Wave.LANES + l] << 32);
        out[l] = src.mods == 0 ? x : Src.applyMods64(x, src.mods);
      }
      return;
    }
    int[] t = cx.e;
    if (src.isVector()) {
      System.arraycopy(w.v, src.vectorBase(w) + shift, t, 0, Wave.LANES);
    } else {
      java.util.Arrays.fill(t, src.scalarRaw32(w, cx));
    }
    int mods = src.mods;
    long keep = width == 16 ? 0xffffL : 0xffff_ffffL;
    if (sel >= 0) {
      for (int l = 0; l < Wave.LANES; l++) {
        int x = Sdwa.select(t[l], sel, sext);
        if (mods != 0) x = Src.applyMods(x, mods & (Operand.ABS | Operand.NEG), width);
        out[l] = x & keep;
      }
    } else if (mods != 0) {
      for (int l = 0; l < Wave.LANES; l++) out[l] = Src.applyMods(t[l], mods, width) & keep;
    } else {
      for (int l = 0; l < Wave.LANES; l++) out[l] = t[l] & keep;
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
        int old = v[base + l];
        v[base + l] = dstHigh ? (old & 0xffff) | (r << 16) : preserveHigh ? (old & 0xffff0000) | r : r;
      }
    } else {
      for (long m = active; m != 0; m &= m - 1) {
        int l = Long.numberOfTrailingZeros(m);
        v[base + l] = (int) d[l];
      }
    }
  }
}
