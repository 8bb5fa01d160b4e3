package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;
import java.util.ArrayList;
import java.util.List;

/**
 * Joins an instruction's op with the instructions after it that the interpreter can run in the same dispatch: a row
 * of scalar instructions ({@link ScalarRow}), the no-ops after it ({@link NopTail}) and a branch after those or after
 * a run ({@link BranchTail}). The joined instructions keep their own slots in the code cache, empty until something
 * branches to them.
 */
final class OpJoiner {
  private OpJoiner() {}

  /** {@code op}, compiled for {@code pc}, joined with what follows it; {@code op} itself when nothing does. */
  static Op join(Op op, long pc, CodeCache code, GpuMemory memory) {
    // A run waiting to be generated must stay in its slot to put the run there (it joins its branch once generated).
    if (op instanceof PendingRun || !op.fallsThrough()) return op;
    // A run takes the no-ops after it in itself.
    if (!(op instanceof FusedRun)) {
      if (ScalarRow.joins(op) || LaneFusion.transparent(op.instruction)) op = row(op, pc, code, memory);
      if (op.fallsThrough()) op = withNopTail(op, pc, code, memory);
    }
    return op.fallsThrough() ? withBranch(op, pc, code, memory) : op;
  }

  /**
   * {@code op}, which always goes on to the instruction after it, with that instruction when it is a branch
   * ({@link BranchTail}); {@code op} otherwise. The branch's target is noted as the cache would note it.
   */
  static Op withBranch(Op op, long pc, CodeCache code, GpuMemory memory) {
    Instruction next = next(code, pc + op.size, memory);
    // (compiled only when it may be a branch: most ops are followed by something else)
    if (next == null || !next.isValid()
        || next.operation().category() != dev.hipsim.isa.decode.Operation.Category.PROGRAM) {
      return op;
    }
    Op after = OpCompiler.compile(next);
    if (!(after instanceof ProgramOps.Branch)) return op;
    code.noteTarget(((ProgramOps.Branch) after).target());
    return new BranchTail(op, (ProgramOps.Branch) after);
  }

  /**
   * The scalar instructions and no-ops from {@code first} on, and a branch, barrier or end after them, as a row.
   */
  private static Op row(Op first, long pc, CodeCache code, GpuMemory memory) {
    List<Op> parts = new ArrayList<>();
    parts.add(first);
    long at = pc + first.size;
    long end = at;
    int members = 1;
    for (Instruction next; parts.size() < ScalarRow.MAX_PARTS && (next = next(code, at, memory)) != null; ) {
      Op op = OpCompiler.compile(next);
      // A branch compiled here is not compiled in its slot: its target is noted as the cache would note it.
      if (op instanceof ProgramOps.Branch) code.noteTarget(((ProgramOps.Branch) op).target());
      boolean last = ScalarRow.ends(op);
      if (!LaneFusion.transparent(next) && !ScalarRow.joins(op) && !last) break;
      parts.add(op);
      at += next.size();
      if (!LaneFusion.transparent(next)) {
        members = parts.size();
        end = at;
      }
      if (last) break;
    }
    // No-ops after the last scalar instruction are left for the tail, which takes them after any instruction.
    if (members == 1) return first;
    return new ScalarRow(parts.subList(0, members).toArray(new Op[0]), (int) (end - pc));
  }

  /** {@code op} with the no-ops that follow it, if any. */
  private static Op withNopTail(Op op, long pc, CodeCache code, GpuMemory memory) {
    long at = pc + op.size;
    List<Instruction> tail = new ArrayList<>();
    for (Instruction next; tail.size() < NopTail.MAX_TAIL && (next = next(code, at, memory)) != null; ) {
      if (!LaneFusion.transparent(next)) break;
      tail.add(next);
      at += next.size();
    }
    return tail.isEmpty() ? op : new NopTail(op, tail);
  }

  /** The instruction at {@code at}, or null past the end of the readable code. */
  private static Instruction next(CodeCache code, long at, GpuMemory memory) {
    try {
      return code.decode(at, memory);
    } catch (GpuMemoryFault f) {
      return null;
    }
  }
}
