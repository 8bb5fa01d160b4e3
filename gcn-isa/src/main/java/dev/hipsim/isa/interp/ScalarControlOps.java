package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Slot;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.dispatch.WaveFault;
import dev.hipsim.isa.exec.Wave;

/**
 * The legacy scalar control instructions compilers no longer emit but the ISA still defines: the fork/join branch
 * stack (S_CBRANCH_G_FORK, S_CBRANCH_I_FORK, S_CBRANCH_JOIN), vector skip (S_SETVSKIP) and the returns from a
 * trap handler (S_RFE_B64, S_RFE_RESTORE_B64).
 *
 * <p>The fork stack (GCN3/Vega guides): MODE[31:29] is the control stack pointer CSP; entry n occupies
 * s[4n:4n+3], the saved EXEC in s[4n:4n+1] and the saved PC in s[4n+2:4n+3]. A fork runs the side with fewer
 * active lanes first and pushes the other; the join pops it unless CSP is back at the value the join names.
 */
final class ScalarControlOps {
  private ScalarControlOps() {}

  static final int CSP_SHIFT = 29;
  static final int CSP_MASK = 7 << CSP_SHIFT;
  /** MODE.VSKIP: vector instructions are skipped while set (see {@link Interpreter}). */
  static final int VSKIP = 1 << 28;

  static Op compile(Instruction inst) {
    switch (inst.operation()) {
      case S_CBRANCH_G_FORK: case S_CBRANCH_I_FORK: return new Fork(inst);
      case S_CBRANCH_JOIN: return new Join(inst);
      case S_SETVSKIP: return new SetVskip(inst);
      case S_RFE_B64: case S_RFE_RESTORE_B64: return new ReturnFromException(inst);
      default: return null;
    }
  }

  static int csp(Wave w) {
    return (w.mode & CSP_MASK) >>> CSP_SHIFT;
  }

  static void setCsp(Wave w, int csp) {
    w.mode = (w.mode & ~CSP_MASK) | ((csp & 7) << CSP_SHIFT);
  }

  static final class Fork extends Op {
    private final Src mask;
    private final Src target;
    private final long relativeTarget;

    Fork(Instruction inst) {
      super(inst);
      boolean immediate = inst.operation() == Operation.S_CBRANCH_I_FORK;
      this.mask = Src.of(inst.operand(immediate ? Slot.SDST : Slot.SRC0), 64);
      this.target = immediate ? null : Src.of(inst.operand(Slot.SRC1), 64);
      this.relativeTarget = immediate ? inst.branchTarget() : 0;
    }

    @Override
    boolean fallsThrough() {
      return false;
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      long exec = w.exec();
      long cond = mask.scalarRaw64(w, cx);
      long to = target == null ? relativeTarget : target.scalarRaw64(w, cx);
      long next = w.pc + size;
      long pass = exec & cond;
      long fail = exec & ~cond;
      if (pass == exec) {
        w.pc = to;
        return;
      }
      if (fail == exec) {
        w.pc = next;
        return;
      }
      int csp = csp(w);
      if (csp == 7) {
        throw Faults.wave(WaveFault.Kind.ILLEGAL_INSTRUCTION, w, cx, instruction, -1, 0,
            "the fork/join control stack is full (MODE.CSP = 7)", null);
      }
      if (Long.bitCount(fail) < Long.bitCount(pass)) {
        w.setExec(fail);
        w.setS64(4 * csp, pass);
        w.setS64(4 * csp + 2, to);
        w.pc = next;
      } else {
        w.setExec(pass);
        w.setS64(4 * csp, fail);
        w.setS64(4 * csp + 2, next);
        w.pc = to;
      }
      setCsp(w, csp + 1);
    }
  }

  static final class Join extends Op {
    private final Src saved;

    Join(Instruction inst) {
      super(inst);
      this.saved = Src.of(inst.src0(), 32);
    }

    @Override
    boolean fallsThrough() {
      return false;
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      int csp = csp(w);
      if (csp == (saved.scalarRaw32(w, cx) & 7)) {
        w.pc += size;
        return;
      }
      csp = (csp - 1) & 7;
      setCsp(w, csp);
      w.setExec(w.s64(4 * csp));
      w.pc = w.s64(4 * csp + 2);
    }
  }

  /** S_SETVSKIP: MODE.VSKIP = bit S1[4:0] of S0. */
  static final class SetVskip extends Op {
    private final Src value;
    private final Src bit;

    SetVskip(Instruction inst) {
      super(inst);
      this.value = Src.of(inst.src0(), 32);
      this.bit = Src.of(inst.src1(), 32);
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      boolean on = (value.scalarRaw32(w, cx) >>> (bit.scalarRaw32(w, cx) & 31) & 1) != 0;
      w.mode = on ? w.mode | VSKIP : w.mode & ~VSKIP;
      w.pc += size;
    }
  }

  /**
   * S_RFE_B64 / S_RFE_RESTORE_B64: PC = S0. (A wave only runs these in a trap handler; hipsim runs none, and the
   * privilege and instruction-ATC state the restore form also sets has no functional effect here.)
   */
  static final class ReturnFromException extends Op {
    private final Src pc;

    ReturnFromException(Instruction inst) {
      super(inst);
      this.pc = Src.of(inst.src0(), 64);
    }

    @Override
    boolean fallsThrough() {
      return false;
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      w.pc = pc.scalarRaw64(w, cx);
    }
  }
}
