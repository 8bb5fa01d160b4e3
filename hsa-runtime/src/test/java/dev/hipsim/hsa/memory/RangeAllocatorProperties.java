package dev.hipsim.hsa.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The VA and kernarg allocator: aligned, disjoint, inside its range, and whole again once everything is freed. */
class RangeAllocatorProperties {
  private static final long BASE = 0x1000_0000L;
  private static final long SIZE = 1L << 24;

  record Op(boolean allocate, long size, int alignShift, int victim) {}

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<Op> op = Combinators.combine(Arbitraries.integers().between(0, 99),
        Arbitraries.longs().between(1, 1L << 20), Arbitraries.integers().between(0, 16),
        Arbitraries.integers().between(0, 1000))
        .as((p, size, shift, victim) -> new Op(p < 65, size, shift, victim));
    return op.list().ofMaxSize(200);
  }

  @Property(tries = 300)
  void rangesStayAlignedDisjointAndCoalesce(@ForAll("ops") List<Op> ops) {
    RangeAllocator a = new RangeAllocator(BASE, SIZE);
    List<long[]> live = new ArrayList<>();
    for (Op op : ops) {
      if (op.allocate() || live.isEmpty()) {
        long align = 1L << op.alignShift();
        long at = a.allocate(op.size(), align);
        if (at < 0) {
          assertThat(a.freeBytes()).as("a refusal only when no range fits").isLessThan(SIZE);
          continue;
        }
        assertThat(at % align).isZero();
        assertThat(at).isGreaterThanOrEqualTo(BASE);
        assertThat(at + op.size()).isLessThanOrEqualTo(BASE + SIZE);
        for (long[] r : live) {
          assertThat(at + op.size() <= r[0] || r[0] + r[1] <= at).as("disjoint from [%x,+%x)", r[0], r[1]).isTrue();
        }
        assertThat(a.sizeAt(at)).isEqualTo(op.size());
        live.add(new long[] {at, op.size()});
      } else {
        long[] r = live.remove(op.victim() % live.size());
        assertThat(a.release(r[0])).isEqualTo(r[1]);
        assertThat(a.release(r[0])).as("double free is refused").isEqualTo(-1);
      }
      long used = live.stream().mapToLong(r -> r[1]).sum();
      assertThat(a.freeBytes()).isEqualTo(SIZE - used);
      assertThat(a.allocations()).isEqualTo(live.size());
    }
    for (long[] r : live) a.release(r[0]);
    assertThat(a.freeBytes()).isEqualTo(SIZE);
    assertThat(a.freeRanges()).as("free ranges coalesce back into one").isEqualTo(1);
    assertThat(a.allocate(SIZE, 1)).isEqualTo(BASE);
  }

  @Example
  void aFullRangeRefuses() {
    RangeAllocator a = new RangeAllocator(BASE, 8192);
    assertThat(a.allocate(4096, 4096)).isEqualTo(BASE);
    assertThat(a.allocate(4096, 8192)).as("no 8 KiB-aligned start left").isEqualTo(-1);
    assertThat(a.allocate(4096, 4096)).isEqualTo(BASE + 4096);
    assertThat(a.allocate(1, 1)).isEqualTo(-1);
  }
}
