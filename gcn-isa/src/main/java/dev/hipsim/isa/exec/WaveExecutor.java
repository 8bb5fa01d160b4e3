package dev.hipsim.isa.exec;

import dev.hipsim.isa.dispatch.DispatchException;

/** Executes instructions of one wave: the interpreter, seen from the scheduler. */
public interface WaveExecutor {
  /**
   * Runs {@code wave} until it ends (status DONE), waits at a barrier (AT_BARRIER), yields (SLEEPING), or has
   * executed about {@code budget} instructions (still RUNNING).
   */
  void run(Wave wave, int budget) throws DispatchException;

  /** The instruction at the wave's PC, for diagnostics (its disassembly when known). */
  default String describe(Wave wave) {
    return String.format("pc 0x%x", wave.pc);
  }
}
