package dev.hipsim.isa.interp;

import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.exec.Wave;

/**
 * Where a fused run starts, until its first instruction has run {@code threshold} times: the instruction alone,
 * counted; then the run (planned already) is generated ({@link CodeCache#generate}) and takes the slot. Runs that execute only a few
 * times (a large kernel's code run by a few waves) are never generated, as a class generated and compiled for a
 * handful of waves would not pay back its cost.
 */
final class PendingRun extends Op {
  private final Op single;
  private final FusedRun.Candidate run;
  private final int threshold;
  private final CodeCache code;
  private final Op[] page;
  private final int slot;
  /** Executions so far; racy across workers, which at worst generates the run a few executions later. */
  private int executions;

  PendingRun(Op single, FusedRun.Candidate run, int threshold, CodeCache code, Op[] page, long pc) {
    super(single.instruction);
    this.single = single;
    this.run = run;
    this.threshold = threshold;
    this.code = code;
    this.page = page;
    this.slot = CodeCache.slot(pc);
  }

  /** The instruction compiled alone. */
  @Override
  Op alone() {
    return single;
  }

  @Override
  public void execute(Wave w, Ctx cx) throws DispatchException {
    single.execute(w, cx);
    if (++executions == threshold) {
      Op fused = code.generate(single.instruction.address(), run);
      if (fused == null) {
        executions = threshold - 1; // another worker is generating it: look again next time
      } else if (page[slot] == this) {
        // (a cache invalidated meanwhile has a new page; this one is left behind)
        page[slot] = OpJoiner.withBranch(fused, single.instruction.address(), code, cx.memory);
      }
    }
  }
}
