package dev.hipsim.isa.interp;

import dev.hipsim.isa.alu.Mfma;
import dev.hipsim.isa.alu.MfmaOp;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Operand;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.dispatch.WaveFault;
import dev.hipsim.isa.exec.Wave;

/**
 * MFMA and SMFMAC: the matrix cores, executed by {@link Mfma} on the unified register file. Whether A, B and C/D
 * are VGPRs or AGPRs is already on the decoded operands (the ACC and ACC_CD bits); an AGPR's place in the file is
 * the wave's accumulation offset plus its number. EXEC is ignored, as on the hardware. C may be an inline
 * constant; A and B must be vector registers (the hardware reads them from the register file only).
 */
final class MatrixOps {
  private MatrixOps() {}

  static Op compile(Instruction inst) {
    int target = inst.target().isCdna3() ? MfmaOp.GFX940 : MfmaOp.GFX90A;
    MfmaOp op = MfmaOp.forOpcode(target, inst.info().opcode());
    if (op == null) return null;
    return op.sparse() ? new Sparse(inst, op) : new Dense(inst, op, target);
  }

  /** A typed fault for operands the matrix core cannot read (a scalar or constant where it needs registers). */
  static WaveFault badOperand(Wave w, Ctx cx, Instruction inst, String what) {
    return Faults.wave(WaveFault.Kind.ILLEGAL_INSTRUCTION, w, cx, inst, -1, 0,
        "the matrix core reads " + what + " from vector registers only", null);
  }

  static final class Dense extends Op {
    private final MfmaOp op;
    private final int target;
    private final Src a;
    private final Src b;
    private final Src c;
    private final Dst d;
    private final int cbsz;
    private final int abid;
    private final int blgp;
    private final long constantC;

    Dense(Instruction inst, MfmaOp op, int target) {
      super(inst);
      this.op = op;
      this.target = target;
      this.a = Src.of(inst.src0().withMods(0), 32);
      this.b = Src.of(inst.src1().withMods(0), 32);
      Operand src2 = inst.src2();
      this.c = Src.of(src2.withMods(0), 32);
      this.d = Dst.of(inst.vdst());
      this.cbsz = inst.mfma().cbsz();
      this.abid = inst.mfma().abid();
      this.blgp = inst.mfma().blgp();
      this.constantC = src2.isConstant() ? src2.value() : 0;
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      if (!a.isVector() || !b.isVector()) throw badOperand(w, cx, instruction, "A and B");
      int dst = d.base(w) / Wave.LANES;
      int srcA = a.vectorBase(w) / Wave.LANES;
      int srcB = b.vectorBase(w) / Wave.LANES;
      if (c.isVector()) {
        Mfma.execute(op, target, w.v, dst, srcA, srcB, c.vectorBase(w) / Wave.LANES, cbsz, abid, blgp, w.mode);
      } else if (c.kind == Src.CONST) {
        Mfma.executeConstantC(op, target, w.v, dst, srcA, srcB, constantC, cbsz, abid, blgp, w.mode);
      } else {
        throw badOperand(w, cx, instruction, "C");
      }
      w.pc += size;
    }
  }

  /** SMFMAC: D += A (4:2 sparse) x B; SRC2 is the VGPR holding the sparsity indices. */
  static final class Sparse extends Op {
    private final MfmaOp op;
    private final Src a;
    private final Src b;
    private final Src index;
    private final Dst d;
    private final int cbsz;
    private final int abid;

    Sparse(Instruction inst, MfmaOp op) {
      super(inst);
      this.op = op;
      this.a = Src.of(inst.src0().withMods(0), 32);
      this.b = Src.of(inst.src1().withMods(0), 32);
      this.index = Src.of(inst.src2().withMods(0), 32);
      this.d = Dst.of(inst.vdst());
      this.cbsz = inst.mfma().cbsz();
      this.abid = inst.mfma().abid();
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      if (!a.isVector() || !b.isVector()) throw badOperand(w, cx, instruction, "A and B");
      if (!index.isVector()) throw badOperand(w, cx, instruction, "the sparsity index");
      Mfma.executeSparse(op, w.v, d.base(w) / Wave.LANES, a.vectorBase(w) / Wave.LANES, b.vectorBase(w) / Wave.LANES,
          index.vectorBase(w) / Wave.LANES, cbsz, abid, w.mode);
      w.pc += size;
    }
  }
}
