package dev.hipsim.isa.interp;

import dev.hipsim.isa.alu.DotOps;
import dev.hipsim.isa.alu.PackedOps;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Operand;
import dev.hipsim.isa.decode.OperandKind;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.exec.Wave;

/**
 * The VOP3P operations other than the matrix ones. Their sources are read raw and the packed modifiers (op_sel,
 * op_sel_hi, neg_lo, neg_hi, as bit masks over the sources) are handed to {@code dev.hipsim.isa.alu.PackedOps} /
 * {@link DotOps}, which define them per half.
 *
 * <p>Constants: a 16-bit packed source that is a constant has it in the low half and zero in the high half (GFX9
 * does not replicate it; LLVM issue 94116 records the gfx10.3-and-older behaviour), while a packed-f32 source
 * replicates its 32-bit constant into both dwords (LLVM's packed-FP32 operand handling; an SGPR pair is read
 * whole on GFX9).
 */
final class PackedMath {
  private PackedMath() {}

  /** Shared decoding of the packed modifiers. */
  abstract static class PackedOp extends Op {
    final Src s0;
    final Src s1;
    final Src s2;
    final Dst dst;
    final int opSel;
    final int opSelHi;
    final int negLo;
    final int negHi;
    final boolean clamp;

    PackedOp(Instruction inst, int width) {
      super(inst);
      Operand[] ops = {inst.src0(), inst.src1(), inst.src2()};
      int sel = 0;
      int selHi = 0;
      int nLo = 0;
      int nHi = 0;
      for (int i = 0; i < 3; i++) {
        if (ops[i] == null) continue;
        if (ops[i].has(Operand.OP_SEL)) sel |= 1 << i;
        if (ops[i].has(Operand.OP_SEL_HI)) selHi |= 1 << i;
        if (ops[i].has(Operand.NEG)) nLo |= 1 << i;
        if (ops[i].has(Operand.NEG_HI)) nHi |= 1 << i;
      }
      this.opSel = sel;
      this.opSelHi = selHi;
      this.negLo = nLo;
      this.negHi = nHi;
      this.s0 = raw(inst.src0(), width);
      this.s1 = raw(inst.src1(), width);
      this.s2 = raw(inst.src2(), width);
      this.dst = Dst.of(inst.vdst());
      this.clamp = inst.clamp();
    }

    /** A source without modifiers: the packed ones are applied per half by the operation itself. */
    static Src raw(Operand op, int width) {
      return op == null ? null : Src.of(op.withMods(0), width);
    }

    static int[] read(Wave w, Ctx cx, Src s, int[] out) throws DispatchException {
      if (s == null) {
        java.util.Arrays.fill(out, 0);
        return out;
      }
      return s.readRaw32(w, cx, out);
    }

    /** A 64-bit packed-f32 source: a register pair, or a 32-bit constant in both dwords. */
    static long[] read64(Wave w, Ctx cx, Src s, long[] out) throws DispatchException {
      if (s == null) {
        java.util.Arrays.fill(out, 0);
      } else if (s.kind == Src.CONST) {
        long c = s.constant & 0xffff_ffffL;
        java.util.Arrays.fill(out, c | c << 32);
      } else {
        s.read64(w, cx, out);
      }
      return out;
    }
  }

  /** V_PK_* on two 16-bit halves (opcodes 0-18). */
  static final class Half2 extends PackedOp {
    private final int opcode;

    Half2(Instruction inst) {
      super(inst, 32);
      this.opcode = inst.info().opcode();
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      int[] a = read(w, cx, s0, cx.a);
      int[] b = read(w, cx, s1, cx.b);
      int[] c = read(w, cx, s2, cx.c);
      int[] d = cx.d;
      int mode = w.mode;
      long exec = w.exec();
      for (long m = exec; m != 0; m &= m - 1) {
        int l = Long.numberOfTrailingZeros(m);
        d[l] = PackedOps.pk16(opcode, a[l], b[l], c[l], opSel, opSelHi, negLo, negHi, clamp, mode);
      }
      dst.write32(w, d, exec);
      w.pc += size;
    }
  }

  /** V_PK_FMA_F32, V_PK_MUL_F32, V_PK_ADD_F32: two f32 operations on register pairs. */
  static final class Float2 extends PackedOp {
    private final int opcode;

    Float2(Instruction inst) {
      super(inst, 64);
      this.opcode = inst.info().opcode();
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      long[] a = read64(w, cx, s0, cx.la);
      long[] b = read64(w, cx, s1, cx.lb);
      long[] c = read64(w, cx, s2, cx.lc);
      long[] d = cx.ld;
      int mode = w.mode;
      long exec = w.exec();
      for (long m = exec; m != 0; m &= m - 1) {
        int l = Long.numberOfTrailingZeros(m);
        d[l] = PackedOps.pkF32(opcode, a[l], b[l], c[l], opSel, opSelHi, negLo, negHi, clamp, mode);
      }
      dst.write64(w, d, exec);
      w.pc += size;
    }
  }

  /** V_PK_MOV_B32: each destination dword takes a dword of one source pair, chosen by op_sel. */
  static final class Move extends PackedOp {
    Move(Instruction inst) {
      super(inst, 64);
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      long[] a = read64(w, cx, s0, cx.la);
      long[] b = read64(w, cx, s1, cx.lb);
      long[] d = cx.ld;
      long exec = w.exec();
      for (long m = exec; m != 0; m &= m - 1) {
        int l = Long.numberOfTrailingZeros(m);
        d[l] = PackedOps.pkMovB32(a[l], b[l], opSel);
      }
      dst.write64(w, d, exec);
      w.pc += size;
    }
  }

  /**
   * V_FMA_MIX_F32 / MIXLO_F16 / MIXHI_F16: op_sel_hi[i] says whether source i is an f16 (half op_sel[i]) or an
   * f32; neg_hi acts as abs. A float inline constant is given in the format the operand is read in (the f16
   * pattern for an f16 operand, the f32 pattern for an f32 one).
   */
  static final class Mix extends PackedOp {
    private final Operation op;
    private final Src f32Const0;
    private final Src f32Const1;
    private final Src f32Const2;

    Mix(Instruction inst) {
      super(inst, 32);
      this.op = inst.operation();
      this.f32Const0 = f32Constant(inst.src0(), 0);
      this.f32Const1 = f32Constant(inst.src1(), 1);
      this.f32Const2 = f32Constant(inst.src2(), 2);
    }

    /** The f32 form of a float inline constant read as an f32 operand (op_sel_hi clear), else null. */
    private Src f32Constant(Operand o, int i) {
      if (o == null || o.kind() != OperandKind.INLINE_CONSTANT || o.index() < 240 || (opSelHi >>> i & 1) != 0) {
        return null;
      }
      Operand f = new Operand(OperandKind.INLINE_CONSTANT, o.index(), 1, F32_INLINE[o.index() - 240] & 0xffff_ffffL,
          dev.hipsim.isa.decode.ValueType.B32, 0);
      return Src.of(f, 32);
    }

    private static final int[] F32_INLINE = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
        0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      int[] a = read(w, cx, f32Const0 != null ? f32Const0 : s0, cx.a);
      int[] b = read(w, cx, f32Const1 != null ? f32Const1 : s1, cx.b);
      int[] c = read(w, cx, f32Const2 != null ? f32Const2 : s2, cx.c);
      int[] d = cx.d;
      int mode = w.mode;
      long exec = w.exec();
      int base = dst.base(w);
      for (long m = exec; m != 0; m &= m - 1) {
        int l = Long.numberOfTrailingZeros(m);
        switch (op) {
          case V_FMA_MIX_F32:
            d[l] = PackedOps.fmaMixF32(a[l], b[l], c[l], opSel, opSelHi, negLo, negHi, clamp, mode);
            break;
          case V_FMA_MIXLO_F16:
            d[l] = PackedOps.fmaMixLo(a[l], b[l], c[l], opSel, opSelHi, negLo, negHi, clamp, w.v[base + l], mode);
            break;
          default:
            d[l] = PackedOps.fmaMixHi(a[l], b[l], c[l], opSel, opSelHi, negLo, negHi, clamp, w.v[base + l], mode);
        }
      }
      dst.write32(w, d, exec);
      w.pc += size;
    }
  }

  /**
   * The VOP3P dot products. For the two-element forms op_sel/op_sel_hi choose the halves that make up each
   * operand's low and high element, and (float) neg_lo/neg_hi negate them; S2 is a 32-bit accumulator.
   */
  static final class Dot extends PackedOp {
    private final Operation op;

    Dot(Instruction inst) {
      super(inst, 32);
      this.op = inst.operation();
    }

    /** A 16-bit pair rearranged as op_sel (low element) and op_sel_hi (high element) pick for source i. */
    private int pair(int v, int i) {
      int lo = (opSel >>> i & 1) != 0 ? v >>> 16 : v & 0xffff;
      int hi = (opSelHi >>> i & 1) != 0 ? v >>> 16 : v & 0xffff;
      return hi << 16 | lo;
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      int[] a = read(w, cx, s0, cx.a);
      int[] b = read(w, cx, s1, cx.b);
      int[] c = read(w, cx, s2, cx.c);
      int[] d = cx.d;
      int mode = w.mode;
      long exec = w.exec();
      for (long m = exec; m != 0; m &= m - 1) {
        int l = Long.numberOfTrailingZeros(m);
        int x = a[l];
        int y = b[l];
        int z = c[l];
        switch (op) {
          case V_DOT2_F32_F16:
            d[l] = DotOps.dot2F32F16(pair(x, 0), pair(y, 1), z, negLo, negHi, clamp, mode);
            break;
          case V_DOT2_I32_I16: d[l] = DotOps.dot2I32I16(pair(x, 0), pair(y, 1), z, clamp); break;
          case V_DOT2_U32_U16: d[l] = DotOps.dot2U32U16(pair(x, 0), pair(y, 1), z, clamp); break;
          case V_DOT4_I32_I8: d[l] = DotOps.dot4I32I8(x, y, z, clamp); break;
          case V_DOT4_U32_U8: d[l] = DotOps.dot4U32U8(x, y, z, clamp); break;
          case V_DOT8_I32_I4: d[l] = DotOps.dot8I32I4(x, y, z, clamp); break;
          default: d[l] = DotOps.dot8U32U4(x, y, z, clamp); break;
        }
      }
      dst.write32(w, d, exec);
      w.pc += size;
    }
  }
}
