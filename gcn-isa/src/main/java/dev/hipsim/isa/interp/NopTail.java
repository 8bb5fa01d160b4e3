package dev.hipsim.isa.interp;

import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.exec.Wave;

/**
 * An instruction together with the {@code s_waitcnt} and {@code s_nop} instructions right after it, which the
 * interpreter executes as nothing but a step of the program counter ({@link LaneFusion#transparent}): one dispatch
 * instead of several. Compilers put them around every barrier and after scalar loads (reduce's tree waits on LDS
 * twice per level). Counted as all of its instructions; the debugger still steps each one ({@link #alone}), and a
 * branch to one of the no-ops finds it compiled on its own.
 */
final class NopTail extends Op {
  /** No-ops taken in at most: a longer row of them is rare and just takes more dispatches. */
  static final int MAX_TAIL = 4;

  private final Op head;

  /**
   * @param tailBytes the no-ops' size in bytes
   * @param mix the {@link dev.hipsim.isa.exec.InstructionMix} category of the head, then of each no-op
   */
  NopTail(Op head, int tailBytes, int[] mix) {
    super(head.instruction, head.size + tailBytes, mix);
    this.head = head;
  }

  @Override
  Op alone() {
    return head.alone();
  }

  /** The instruction (or row, {@link ScalarRow}) before the no-ops. */
  Op head() {
    return head;
  }

  @Override
  public void execute(Wave w, Ctx cx) throws DispatchException {
    long next = w.pc + head.size;
    head.execute(w, cx);
    // Fell through to the first no-op (not a branch taken, a jump or a fault): step over the no-ops as well.
    if (w.pc == next) w.pc += size - head.size;
  }
}
