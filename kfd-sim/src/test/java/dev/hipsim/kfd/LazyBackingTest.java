package dev.hipsim.kfd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.kfd.mem.FrameStore;
import dev.hipsim.kfd.topology.DeviceConfig;
import dev.hipsim.kfd.topology.GpuModel;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A 64 GiB device costs only its directory until used; with 1 GiB allocated and touched the backing holds that
 * gigabyte plus a fraction of a percent, and freeing gives it all back.
 */
class LazyBackingTest {
  private static final long GIB = 1L << 30;
  private static final long VA = 0x40_0000_0000L;

  @Test
  void sixtyFourGigabyteDeviceWithOneGigabyteTouched() throws Exception {
    Kfd kfd = Kfd.create(GIB, List.of(DeviceConfig.of(GpuModel.GFX90A)));
    KfdDevice dev = kfd.devices().get(0);
    FrameStore vram = dev.vram();
    assertThat(vram.bytes()).isEqualTo(64 * GIB);
    assertThat(vram.hostBytes()).as("idle 64 GiB device").isLessThan(256 << 10);

    try (KfdProcess p = kfd.open()) {
      p.acquireVm(dev.gpuId());
      long h = p.allocMemoryOfGpu(AllocRequest.of(VA, GIB, dev.gpuId(), AllocFlags.VRAM | AllocFlags.WRITABLE))
          .handle();
      p.mapMemoryToGpu(h, dev.gpuId());
      assertThat(vram.backedPages()).as("allocating and mapping 1 GiB touches only page tables").isLessThan(8);
      p.sdmaFill(dev.gpuId(), VA, 0x5a5a5a5a, GIB, 0);
      assertThat(p.gpuVm(dev.gpuId()).load32(VA + GIB - 4)).isEqualTo(0x5a5a5a5a);

      long pages = GIB / FrameStore.PAGE_SIZE;
      assertThat(vram.backedPages()).isBetween(pages, pages + 8);
      long peak = vram.peakHostBytes();
      System.out.printf("64 GiB device, 1 GiB touched: backing %d bytes (%.4f GiB), page tables %d frames%n", peak,
          peak / (double) GIB, p.gpuVm(dev.gpuId()).tables().tableFrames());
      assertThat(peak).as("1 GiB touched costs 1 GiB and under 1%% more").isLessThan(GIB + GIB / 100);

      p.unmapMemoryFromGpu(h, dev.gpuId());
      p.freeMemoryOfGpu(h);
      assertThat(vram.backedPages()).as("freeing returns the backing").isLessThanOrEqualTo(1);
    }
    assertThat(vram.backedPages()).isZero();
    assertThat(dev.vramUsedBytes()).isZero();
  }
}
