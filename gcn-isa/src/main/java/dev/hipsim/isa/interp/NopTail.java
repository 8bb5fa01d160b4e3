package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.exec.InstructionMix;
import dev.hipsim.isa.exec.Wave;
import java.util.List;

/**
 * An instruction together with the {@code s_waitcnt} and {@code s_nop} instructions right after it, which the
 * interpreter executes as nothing but a step of the program counter ({@link LaneFusion#transparent}): one dispatch
 * instead of several. Compilers put them around every barrier and after scalar loads (reduce's tree waits on LDS
 * twice per level). Counted as all of its instructions; the debugger still steps each one ({@link #alone}), and a
 * branch to one of the no-ops finds it compiled on its own.
 */
final class NopTail extends TailJoin {
  /** No-ops taken in at most: a longer row of them is rare and just takes more dispatches. */
  static final int MAX_TAIL = 4;

  /** {@code head} with the no-ops {@code tail}, which follow it in the code. */
  NopTail(Op head, List<Instruction> tail) {
    super(head, head.size + size(tail), categories(tail));
  }

  // Loops rather than streams: ops are compiled on a cold JVM, where a stream pipeline's first use costs milliseconds.
  private static int size(List<Instruction> tail) {
    int size = 0;
    for (Instruction nop : tail) size += nop.size();
    return size;
  }

  private static int[] categories(List<Instruction> tail) {
    int[] each = new int[tail.size()];
    for (int i = 0; i < each.length; i++) each[i] = InstructionMix.categoryOf(tail.get(i).operation());
    return each;
  }

  @Override
  public void execute(Wave w, Ctx cx) throws DispatchException {
    long next = w.pc + head.size;
    head.execute(w, cx);
    // Fell through to the first no-op (not a branch taken, a jump or a fault): step over the no-ops as well.
    if (w.pc == next) w.pc += size - head.size;
  }
}
