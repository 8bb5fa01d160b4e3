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
  /** The {@link dev.hipsim.isa.exec.InstructionMix} category the interpreter counts this instruction in. */
  final int mixCategory;
  /** A vector ALU or vector memory (including LDS) instruction: what MODE.VSKIP skips. */
  final boolean vectorUnit;
  /**
   * For an op that executes several instructions at once (a {@link FusedRun}): the {@link
   * dev.hipsim.isa.exec.InstructionMix} categories they fall in, each once, and how many fall in each; null for an
   * op of one instruction. Counted per category rather than per instruction: the interpreter adds them up every
   * time the op runs, and a run has a dozen instructions in two or three categories.
   */
  final int[] fusedCategories;
  final int[] fusedCounts;
  /** The number of instructions the op executes. */
  final int instructions;

  protected Op(Instruction instruction) {
    this(instruction, instruction.size(), null);
  }

  /** An op that executes {@code fusedMix.length} instructions from {@code instruction}, {@code size} bytes. */
  protected Op(Instruction instruction, int size, int[] fusedMix) {
    this.instruction = instruction;
    this.size = size;
    if (fusedMix == null) {
      this.fusedCategories = null;
      this.fusedCounts = null;
      this.instructions = 1;
    } else {
      int[] perCategory = new int[dev.hipsim.isa.exec.InstructionMix.COUNT];
      for (int c : fusedMix) perCategory[c]++;
      int distinct = 0;
      for (int n : perCategory) distinct += n > 0 ? 1 : 0;
      this.fusedCategories = new int[distinct];
      this.fusedCounts = new int[distinct];
      for (int c = 0, k = 0; c < perCategory.length; c++) {
        if (perCategory[c] == 0) continue;
        fusedCategories[k] = c;
        fusedCounts[k++] = perCategory[c];
      }
      this.instructions = fusedMix.length;
    }
    this.mixCategory = dev.hipsim.isa.exec.InstructionMix.categoryOf(instruction.operation());
    dev.hipsim.isa.decode.Encoding e = instruction.encoding();
    this.vectorUnit = e.isVector() || (e.isMemory() && e != dev.hipsim.isa.decode.Encoding.SMEM);
  }

  public Instruction instruction() {
    return instruction;
  }

  /**
   * The op of this op's first instruction alone: itself, except for an op that runs several instructions or stands
   * in for a run ({@link FusedRun}, {@link PendingRun}). A debugger steps these.
   */
  Op alone() {
    return this;
  }

  /**
   * The {@link dev.hipsim.isa.exec.InstructionMix} category of each instruction the op executes, one entry per
   * instruction (grouped by category), for an op that joins this one with others ({@link OpJoiner}).
   */
  int[] categoryOfEach() {
    if (fusedCategories == null) return new int[] {mixCategory};
    int[] each = new int[instructions];
    int k = 0;
    for (int c = 0; c < fusedCategories.length; c++) {
      for (int n = 0; n < fusedCounts[c]; n++) each[k++] = fusedCategories[c];
    }
    return each;
  }

  /**
   * Whether the op, whenever it completes, goes on at the instruction after it: no branch or jump, no end or halt,
   * and no waiting by running again. Only such an op takes the no-ops after it in ({@link NopTail}), which are then
   * counted as executed with it.
   */
  boolean fallsThrough() {
    return true;
  }

  /**
   * Executes the instruction for {@code w} and advances its program counter (to the next instruction or a branch
   * target). May change the wave's status (barrier, sleep, end).
   */
  public abstract void execute(Wave w, Ctx cx) throws DispatchException;
}
