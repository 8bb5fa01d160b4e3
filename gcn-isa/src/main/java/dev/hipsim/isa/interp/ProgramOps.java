package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.dispatch.WaveFault;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.exec.WaveStatus;

/**
 * SOPP: program control. Branches, barriers, sleep, end of program, traps. Memory completes in program order in
 * hipsim, so s_waitcnt and the other scheduling hints have no functional effect.
 */
final class ProgramOps {
  private ProgramOps() {}

  static Op compile(Instruction inst) {
    int condition = Branch.conditionOf(inst.operation());
    if (condition >= 0) return new Branch(inst, condition);
    switch (inst.operation()) {
      case S_ENDPGM: case S_ENDPGM_SAVED: case S_ENDPGM_ORDERED_PS_DONE: return new End(inst);
      case S_SET_GPR_IDX_OFF: case S_SET_GPR_IDX_MODE: return new ScalarAluOps.GprIndex(inst);
      // No debugger is attached to the shader: the CDBG branches never branch.
      case S_CBRANCH_CDBGSYS: case S_CBRANCH_CDBGUSER: case S_CBRANCH_CDBGSYS_OR_USER:
      case S_CBRANCH_CDBGSYS_AND_USER:
        return new Nop(inst);
      case S_BARRIER: return new Barrier(inst);
      case S_SLEEP: return new Sleep(inst);
      case S_TRAP: return new Trap(inst);
      case S_SETHALT: return new Halt(inst);
      case S_NOP: case S_WAITCNT: case S_SETPRIO: case S_ICACHE_INV: case S_INCPERFLEVEL: case S_DECPERFLEVEL:
      case S_TTRACEDATA: case S_WAKEUP: case S_SENDMSG: case S_SENDMSGHALT: case S_SETKILL:
        return new Nop(inst);
      default: return null;
    }
  }

  static final class Nop extends Op {
    Nop(Instruction inst) {
      super(inst);
    }

    @Override
    public void execute(Wave w, Ctx cx) {
      w.pc += size;
    }
  }

  static final class End extends Op {
    End(Instruction inst) {
      super(inst);
    }

    @Override
    boolean fallsThrough() {
      return false;
    }

    @Override
    public void execute(Wave w, Ctx cx) {
      w.status = WaveStatus.DONE;
    }
  }

  static final class Branch extends Op {
    static final int ALWAYS = 0;
    static final int SCC0 = 1;
    static final int SCC1 = 2;
    static final int VCCZ = 3;
    static final int VCCNZ = 4;
    static final int EXECZ = 5;
    static final int EXECNZ = 6;
    private final int condition;
    private final long target;

    /**
     * The condition of a branch to a constant target, taken or not by it; -1 for any other operation (the CDBG
     * branches, which never branch here, included).
     */
    static int conditionOf(Operation op) {
      switch (op) {
        case S_BRANCH: return ALWAYS;
        case S_CBRANCH_SCC0: return SCC0;
        case S_CBRANCH_SCC1: return SCC1;
        case S_CBRANCH_VCCZ: return VCCZ;
        case S_CBRANCH_VCCNZ: return VCCNZ;
        case S_CBRANCH_EXECZ: return EXECZ;
        case S_CBRANCH_EXECNZ: return EXECNZ;
        default: return -1;
      }
    }

    Branch(Instruction inst, int condition) {
      super(inst);
      this.condition = condition;
      this.target = inst.branchTarget();
    }

    @Override
    boolean fallsThrough() {
      return false;
    }

    /** The address the branch goes to when taken. */
    long target() {
      return target;
    }

    @Override
    public void execute(Wave w, Ctx cx) {
      boolean taken;
      switch (condition) {
        case SCC0: taken = w.scc == 0; break;
        case SCC1: taken = w.scc != 0; break;
        case VCCZ: taken = w.vcc() == 0; break;
        case VCCNZ: taken = w.vcc() != 0; break;
        case EXECZ: taken = w.exec() == 0; break;
        case EXECNZ: taken = w.exec() != 0; break;
        default: taken = true;
      }
      w.pc = taken ? target : w.pc + size;
    }
  }

  static final class Barrier extends Op {
    Barrier(Instruction inst) {
      super(inst);
    }

    @Override
    public void execute(Wave w, Ctx cx) {
      w.pc += size;
      w.status = WaveStatus.AT_BARRIER;
    }
  }

  /** s_sleep: give the other waves a turn (spin-wait loops use it while waiting for other waves or the host). */
  static final class Sleep extends Op {
    Sleep(Instruction inst) {
      super(inst);
    }

    @Override
    public void execute(Wave w, Ctx cx) {
      w.pc += size;
      w.status = WaveStatus.SLEEPING;
    }
  }

  static final class Trap extends Op {
    Trap(Instruction inst) {
      super(inst);
    }

    @Override
    boolean fallsThrough() {
      return false;
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      int id = instruction.imm() & 0xff;
      String meaning = id == 2 ? "llvm.trap (abort)" : id == 3 ? "llvm.debugtrap" : id == 1 ? "debugger breakpoint"
          : "trap " + id;
      throw Faults.wave(WaveFault.Kind.TRAP, w, cx, instruction, -1, 0, meaning, null);
    }
  }

  static final class Halt extends Op {
    Halt(Instruction inst) {
      super(inst);
    }

    @Override
    boolean fallsThrough() {
      return false;
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      if ((instruction.imm() & 1) == 0) {
        w.pc += size;
        return;
      }
      throw Faults.wave(WaveFault.Kind.TRAP, w, cx, instruction, -1, 0, "s_sethalt halted the wave", null);
    }
  }
}
