package dev.hipsim.isa.interp;

import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.dispatch.WaveFault;
import dev.hipsim.isa.dispatch.WatchdogTimeout;
import dev.hipsim.isa.exec.Wave;
import java.util.Arrays;

/**
 * Consecutive scalar ALU and scalar memory instructions that always go on to the next ({@link Op#fallsThrough}), and
 * no-ops, up to one branch, barrier or end ({@link #ends}), executed as one op: the interpreter dispatches the row
 * once instead of once per instruction. Kernels begin with such rows (their arguments loaded and combined with the
 * workgroup ID), run them between vector instructions and end loops and waits with them.
 * Counted as all of its instructions; the debugger still steps each one ({@link #alone}), and a branch into the row
 * finds the instruction there compiled on its own.
 */
final class ScalarRow extends Op {
  /** Instructions in a row at most. */
  static final int MAX_PARTS = 16;

  private final Op[] parts;

  /** The row of {@code parts}, {@code size} bytes from the first one's address. */
  ScalarRow(Op[] parts, int size) {
    super(parts[0].instruction, size, categoryOfEach(parts));
    this.parts = parts;
  }

  private static int[] categoryOfEach(Op[] parts) {
    int[] each = new int[0];
    for (Op p : parts) {
      int[] part = p.categoryOfEach();
      int at = each.length;
      each = Arrays.copyOf(each, at + part.length);
      System.arraycopy(part, 0, each, at, part.length);
    }
    return each;
  }

  /**
   * Whether {@code op} may end a row: a branch, a barrier, a sleep or the end of the program, after which the
   * interpreter looks at the wave again. Every instruction of the row runs, so the row counts them all.
   */
  static boolean ends(Op op) {
    return op instanceof ProgramOps.Branch || op instanceof ProgramOps.Barrier || op instanceof ProgramOps.Sleep
        || op instanceof ProgramOps.End;
  }

  /** Whether {@code op} may be part of a row: a scalar instruction that always goes on to the next. */
  static boolean joins(Op op) {
    return op.fallsThrough() && !op.vectorUnit && !(op instanceof PendingRun || op instanceof FusedRun)
        && (op.mixCategory == dev.hipsim.isa.exec.InstructionMix.SALU
            || op.mixCategory == dev.hipsim.isa.exec.InstructionMix.SMEM);
  }

  @Override
  Op alone() {
    return parts[0].alone();
  }

  @Override
  boolean fallsThrough() {
    return parts[parts.length - 1].fallsThrough();
  }

  @Override
  public void execute(Wave w, Ctx cx) throws DispatchException {
    for (Op part : parts) {
      try {
        part.execute(w, cx);
      } catch (WaveFault | WatchdogTimeout e) {
        throw e;
      } catch (DispatchException e) {
        // As the interpreter reports an instruction's operand the device cannot read: at that instruction.
        throw Faults.wave(WaveFault.Kind.ILLEGAL_INSTRUCTION, w, cx, part.instruction, -1, 0, e.getMessage(), e);
      }
    }
  }
}
