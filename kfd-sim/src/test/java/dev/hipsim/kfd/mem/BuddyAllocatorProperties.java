package dev.hipsim.kfd.mem;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** The buddy allocator hands out disjoint, aligned blocks, keeps an exact free count, and merges back fully. */
class BuddyAllocatorProperties {
  @Provide
  Arbitrary<Integer> requests() {
    // Positive: allocate that many frames (biased to small, sometimes several 2 MiB); negative: free one.
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(5, Arbitraries.integers().between(1, 40)),
        net.jqwik.api.Tuple.of(2, Arbitraries.integers().between(41, 2000)),
        net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(-1000, -1)));
  }

  @Property(tries = 300)
  void allocationsStayDisjointAndMergeBack(@ForAll @IntRange(min = 600, max = 5000) int frames,
      @ForAll @Size(max = 60) List<@net.jqwik.api.From("requests") Integer> script) {
    BuddyAllocator a = new BuddyAllocator(frames);
    BitSet used = new BitSet(frames);
    List<BuddyAllocator.Blocks> live = new ArrayList<>();
    for (int step : script) {
      if (step > 0) {
        long before = a.freeFrames();
        BuddyAllocator.Blocks b = a.allocate(step);
        if (step > before) {
          assertThat(b).isNull();
          continue;
        }
        assertThat(b).isNotNull();
        assertThat(b.totalFrames()).isEqualTo(step);
        for (int i = 0; i < b.size(); i++) {
          int f = b.frame(i);
          int n = 1 << b.order(i);
          assertThat(f % n).as("block aligned to its size").isZero();
          assertThat(f + n).isLessThanOrEqualTo(frames);
          assertThat(used.get(f, f + n).isEmpty()).as("block %d+%d overlaps a live one", f, n).isTrue();
          used.set(f, f + n);
        }
        live.add(b);
      } else if (!live.isEmpty()) {
        BuddyAllocator.Blocks b = live.remove(Math.floorMod(step, live.size()));
        for (int i = 0; i < b.size(); i++) used.clear(b.frame(i), b.frame(i) + (1 << b.order(i)));
        a.free(b);
      }
      assertThat(a.freeFrames()).isEqualTo(frames - used.cardinality());
    }
    for (BuddyAllocator.Blocks b : live) a.free(b);
    assertThat(a.freeFrames()).isEqualTo(frames);
    // Fully merged again: every whole 2 MiB block can be had at once.
    for (int i = 0; i < frames / 512; i++) assertThat(a.allocBlock(BuddyAllocator.MAX_ORDER)).isNotNegative();
    assertThat(a.allocBlock(BuddyAllocator.MAX_ORDER)).isEqualTo(-1);
  }

  @Test
  void bigAllocationsUseTwoMegabyteBlocks() {
    BuddyAllocator a = new BuddyAllocator(64 * 512);
    BuddyAllocator.Blocks b = a.allocate(3 * 512 + 5);
    assertThat(b.size()).isEqualTo(3 + 2); // 3 x 2 MiB, then 16 KiB + 4 KiB
    for (int i = 0; i < 3; i++) assertThat(b.order(i)).isEqualTo(BuddyAllocator.MAX_ORDER);
  }

  @Test
  void fragmentedMemoryIsStillUsable() {
    BuddyAllocator a = new BuddyAllocator(4 * 512);
    List<Integer> singles = new ArrayList<>();
    for (int i = 0; i < 4 * 512; i++) singles.add(a.allocBlock(0));
    for (int i = 0; i < singles.size(); i += 2) a.freeBlock(singles.get(i), 0);
    BuddyAllocator.Blocks b = a.allocate(1024);
    assertThat(b).isNotNull();
    assertThat(b.size()).isEqualTo(1024);
    assertThat(a.freeFrames()).isZero();
  }
}
