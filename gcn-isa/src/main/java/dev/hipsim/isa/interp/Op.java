package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.exec.Wave;

/**
 * An instruction made ready to execute: decoded once, its operands resolved into what the interpreter needs.
 * Operations are immutable and shared by every wave and thread; per-execution state lives in the {@link Wave} and
 * the thread's {@link Ctx}.
 */
public abstract class Op {
  final Instruction instruction;
  final int size;
  /** A vector ALU or vector memory (including LDS) instruction: what MODE.VSKIP skips. */
  final boolean vectorUnit;

  protected Op(Instruction instruction) {
    this.instruction = instruction;
    this.size = instruction.size();
    dev.hipsim.isa.decode.Encoding e = instruction.encoding();
    this.vectorUnit = e.isVector() || (e.isMemory() && e != dev.hipsim.isa.decode.Encoding.SMEM);
  }

  public Instruction instruction() {
    return instruction;
  }

  /**
   * Executes the instruction for {@code w} and advances its program counter (to the next instruction or a branch
   * target). May change the wave's status (barrier, sleep, end).
   */
  public abstract void execute(Wave w, Ctx cx) throws DispatchException;
}
