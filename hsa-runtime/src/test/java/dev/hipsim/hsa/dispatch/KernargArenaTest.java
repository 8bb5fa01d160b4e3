package dev.hipsim.hsa.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.TestMachine;
import org.junit.jupiter.api.Test;

class KernargArenaTest {
  @Test
  void aReservedBlockServesTheFirstSegmentsWithoutAnotherAllocation() throws Exception {
    try (TestMachine m = TestMachine.standard()) {
      KernargArena arena = new KernargArena(m.runtime.cpuAgent().kernargPool());
      int before = m.runtime.memory().allocationCount();
      arena.reserve();
      assertThat(m.runtime.memory().allocationCount()).as("one block taken").isEqualTo(before + 1);
      arena.reserve();
      assertThat(m.runtime.memory().allocationCount()).as("reserving again takes nothing").isEqualTo(before + 1);

      long a = arena.allocate(256, 64);
      long b = arena.allocate(100, 16);
      assertThat(m.runtime.memory().allocationCount()).as("segments come from the reserved block")
          .isEqualTo(before + 1);
      assertThat(a % 64).isZero();
      assertThat(b).isNotEqualTo(a);
      assertThat(Math.abs(b - a)).isLessThan(KernargArena.BLOCK);
      assertThat(arena.liveSegments()).isEqualTo(2);

      arena.release(a);
      arena.release(b);
      assertThat(arena.liveSegments()).isZero();
      assertThatThrownBy(() -> arena.release(a)).isInstanceOf(HsaException.class)
          .hasMessageContaining("not a kernarg segment");
    }
  }

  @Test
  void segmentsBeyondTheBlockTakeAnother() throws Exception {
    try (TestMachine m = TestMachine.standard()) {
      KernargArena arena = new KernargArena(m.runtime.cpuAgent().kernargPool());
      arena.reserve();
      int before = m.runtime.memory().allocationCount();
      arena.allocate(KernargArena.BLOCK - 4096, 64);
      assertThat(m.runtime.memory().allocationCount()).isEqualTo(before);
      arena.allocate(8192, 64);
      assertThat(m.runtime.memory().allocationCount()).as("the block is full: a second one").isEqualTo(before + 1);
    }
  }
}
