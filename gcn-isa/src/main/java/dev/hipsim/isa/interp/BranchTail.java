package dev.hipsim.isa.interp;

import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.exec.Wave;

/**
 * An op that always goes on to the next instruction (a run, a row, an instruction with its no-ops) together with the
 * branch right after it: one dispatch instead of two. Compilers put {@code s_cbranch_execz} after every
 * {@code s_and_saveexec_b64} and end loops with {@code s_branch}; a reduction's tree takes both at every level.
 * Counted as all of its instructions; the debugger still steps each one, and a branch to the branch finds it
 * compiled on its own.
 */
final class BranchTail extends TailJoin {
  private final ProgramOps.Branch branch;

  /** {@code head} with {@code branch}, which follows it in the code. */
  BranchTail(Op head, ProgramOps.Branch branch) {
    super(head, head.size + branch.size, new int[] {branch.mixCategory});
    this.branch = branch;
  }

  @Override
  boolean fallsThrough() {
    return false;
  }

  /** The head, then the branch once the head has gone on to it (which it always does: {@link Op#fallsThrough}). */
  @Override
  public void execute(Wave w, Ctx cx) throws DispatchException {
    long next = w.pc + head.size;
    head.execute(w, cx);
    if (w.pc == next) branch.execute(w, cx);
  }
}
