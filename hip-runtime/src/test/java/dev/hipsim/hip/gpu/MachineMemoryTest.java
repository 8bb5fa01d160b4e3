package dev.hipsim.hip.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.hip.device.DeviceModel;
import dev.hipsim.kfd.mem.BackingPolicy;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the HIP machine sets up in memory before the program's first call, as CLR does when it opens a device. */
class MachineMemoryTest {
  @Test
  void backsBuffersWhenAllocatedWithinAQuarterOfTheHeap() throws Exception {
    try (Machine m = Machine.create(DeviceModel.forName("gfx90a"), Map.of())) {
      assertThat(m.hsa().kfd().backingPolicy()).isEqualTo(BackingPolicy.quarterOfHeap());
    }
  }

  @Test
  void theFirstLaunchFindsItsKernargMemoryReserved() throws Exception {
    try (Machine m = Machine.create(DeviceModel.forName("gfx90a"), Map.of())) {
      int before = m.hsa().memory().allocationCount();
      m.hsa().dispatcher().reserveKernargs();
      assertThat(m.hsa().memory().allocationCount()).as("reserved when the machine was built").isEqualTo(before);
    }
  }
}
