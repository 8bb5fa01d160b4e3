package dev.hipsim.isa.interp;

import java.util.Arrays;

/**
 * An op joined with instructions right after it, which run only once the op has gone on to them ({@link NopTail},
 * {@link BranchTail}). Counted as all of its instructions; the debugger steps the head's first instruction alone.
 */
abstract class TailJoin extends Op {
  final Op head;

  /** {@code head} and a tail of instructions in the categories {@code tail}, {@code size} bytes in all. */
  TailJoin(Op head, int size, int[] tail) {
    super(head.instruction, size, append(head.categoryOfEach(), tail));
    this.head = head;
  }

  private static int[] append(int[] first, int[] then) {
    int[] each = Arrays.copyOf(first, first.length + then.length);
    System.arraycopy(then, 0, each, first.length, then.length);
    return each;
  }

  @Override
  Op alone() {
    return head.alone();
  }

  /** The op before the tail. */
  Op head() {
    return head;
  }
}
