package dev.hipsim.kfd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.kfd.mem.BackingPolicy;
import dev.hipsim.kfd.mem.FrameStore;
import dev.hipsim.kfd.topology.DeviceConfig;
import dev.hipsim.kfd.topology.GpuModel;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Buffers backed when allocated while the policy's budget allows, and on first touch past it. */
class AllocationBackingTest {
  private static final long MIB = 1L << 20;
  private static final long VA = 0x40_0000_0000L;
  private static final long PAGES_PER_MIB = MIB / FrameStore.PAGE_SIZE;

  @Test
  void buffersWithinTheBudgetAreBackedWhenAllocatedAndTheRestOnFirstTouch() throws Exception {
    Kfd kfd = Kfd.create(1L << 30, List.of(new DeviceConfig(GpuModel.GFX90A, 256 * MIB)), new BackingPolicy(10 * MIB));
    KfdDevice dev = kfd.devices().get(0);
    FrameStore vram = dev.vram();
    FrameStore ram = kfd.bus().ram();
    try (KfdProcess p = kfd.open()) {
      p.acquireVm(dev.gpuId());
      long before = vram.backedPages();
      long first = p.allocMemoryOfGpu(AllocRequest.of(VA, 4 * MIB, dev.gpuId(), AllocFlags.VRAM | AllocFlags.WRITABLE))
          .handle();
      assertThat(vram.backedPages() - before).as("4 MiB within a 10 MiB budget").isEqualTo(4 * PAGES_PER_MIB);

      p.allocMemoryOfGpu(AllocRequest.of(VA + 4 * MIB, 2 * MIB, dev.gpuId(), AllocFlags.GTT | AllocFlags.WRITABLE));
      assertThat(ram.backedPages()).as("system memory follows the same budget").isEqualTo(2 * PAGES_PER_MIB);

      long third = p.allocMemoryOfGpu(AllocRequest.of(VA + 8 * MIB, 8 * MIB, dev.gpuId(),
          AllocFlags.VRAM | AllocFlags.WRITABLE)).handle();
      long backed = vram.backedPages();
      assertThat(backed - before).as("8 MiB more would pass the budget: backed on first touch")
          .isEqualTo(4 * PAGES_PER_MIB);

      p.mapMemoryToGpu(first, dev.gpuId());
      p.mapMemoryToGpu(third, dev.gpuId());
      assertThat(p.gpuVm(dev.gpuId()).load32(VA + 4 * MIB - 4)).as("a buffer backed at allocation reads zero").isZero();
      p.gpuVm(dev.gpuId()).store32(VA + 8 * MIB, 7);
      assertThat(p.gpuVm(dev.gpuId()).load32(VA + 8 * MIB)).isEqualTo(7);

      p.unmapMemoryFromGpu(first, dev.gpuId());
      p.freeMemoryOfGpu(first);
      assertThat(vram.backedPages()).as("freeing drops the backing").isLessThan(backed - 4 * PAGES_PER_MIB + 16);
    }
    assertThat(vram.backedPages()).isZero();
    assertThat(ram.backedPages()).isZero();
  }

  @Test
  void theDefaultMachineBacksOnFirstTouch() throws Exception {
    Kfd kfd = Kfd.create(DeviceConfig.of(GpuModel.GFX90A));
    assertThat(kfd.backingPolicy()).isEqualTo(BackingPolicy.LAZY);
    KfdDevice dev = kfd.devices().get(0);
    try (KfdProcess p = kfd.open()) {
      p.acquireVm(dev.gpuId());
      p.allocMemoryOfGpu(AllocRequest.of(VA, MIB, dev.gpuId(), AllocFlags.VRAM | AllocFlags.WRITABLE));
      assertThat(dev.vram().backedPages()).isZero();
    }
  }

  @Test
  void theBudgetCountsWhatIsBackedAlready() {
    BackingPolicy policy = new BackingPolicy(10 * MIB);
    assertThat(policy.backsAtAllocation(10 * MIB, 0)).isTrue();
    assertThat(policy.backsAtAllocation(6 * MIB, 4 * MIB)).isTrue();
    assertThat(policy.backsAtAllocation(6 * MIB + 1, 4 * MIB)).isFalse();
    assertThat(policy.backsAtAllocation(1, 11 * MIB)).isFalse();
    assertThat(BackingPolicy.LAZY.backsAtAllocation(1, 0)).isFalse();
    assertThat(BackingPolicy.quarterOfHeap().allocationBudgetBytes()).isEqualTo(Runtime.getRuntime().maxMemory() / 4);
    assertThatThrownBy(() -> new BackingPolicy(-1)).isInstanceOf(IllegalArgumentException.class);
  }
}
