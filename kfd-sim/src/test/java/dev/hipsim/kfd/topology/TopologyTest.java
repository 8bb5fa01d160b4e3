package dev.hipsim.kfd.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.kfd.Kfd;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The nodes report what rocminfo shows for an MI210 and an MI300X. */
class TopologyTest {
  private final Kfd kfd = Kfd.create(1L << 30,
      List.of(DeviceConfig.of(GpuModel.GFX90A), DeviceConfig.of(GpuModel.GFX942), new DeviceConfig(GpuModel.GFX90A,
          16L << 30)));

  @Test
  void cpuNodeComesFirst() {
    NodeProperties cpu = kfd.topology().node(0);
    assertThat(cpu.isGpu()).isFalse();
    assertThat(cpu.cpuCoresCount()).isEqualTo(Runtime.getRuntime().availableProcessors());
    assertThat(kfd.topology().gpus()).hasSize(3);
  }

  @Test
  void mi210() {
    NodeProperties n = kfd.topology().node(1);
    assertThat(n.name()).isEqualTo("gfx90a");
    assertThat(n.marketingName()).isEqualTo("AMD Instinct MI210");
    assertThat(n.computeUnits()).isEqualTo(104);
    assertThat(n.simdPerCu()).isEqualTo(4);
    assertThat(n.shaderEngines()).isEqualTo(8);
    assertThat(n.simdArraysPerEngine()).isEqualTo(1);
    assertThat(n.waveFrontSize()).isEqualTo(64);
    assertThat(n.maxWavesPerCu()).isEqualTo(32);
    assertThat(n.ldsSizeInKb()).isEqualTo(64);
    assertThat(n.localMemSize()).isEqualTo(64L << 30);
    assertThat(n.maxEngineClkFcompute()).isEqualTo(1700);
    assertThat(n.deviceId()).isEqualTo(29711);
    assertThat(n.vendorId()).isEqualTo(0x1002);
    assertThat(n.gfxTargetVersion()).isEqualTo(90010);
    assertThat(n.l1CacheKib()).isEqualTo(16);
    assertThat(n.l2CacheKib()).isEqualTo(8192);
    assertThat(n.memoryType()).isEqualTo("HBM2e");
    assertThat(n.numXcc()).isEqualTo(1);
  }

  @Test
  void mi300x() {
    NodeProperties n = kfd.topology().node(2);
    assertThat(n.name()).isEqualTo("gfx942");
    assertThat(n.marketingName()).isEqualTo("AMD Instinct MI300X");
    assertThat(n.computeUnits()).isEqualTo(304);
    assertThat(n.shaderEngines()).isEqualTo(32);
    assertThat(n.waveFrontSize()).isEqualTo(64);
    assertThat(n.maxWavesPerCu()).isEqualTo(32);
    assertThat(n.ldsSizeInKb()).isEqualTo(64);
    assertThat(n.localMemSize()).isEqualTo(192L << 30);
    assertThat(n.maxEngineClkFcompute()).isEqualTo(2100);
    assertThat(n.deviceId()).isEqualTo(29857);
    assertThat(n.gfxTargetVersion()).isEqualTo(90402);
    assertThat(n.l1CacheKib()).isEqualTo(32);
    assertThat(n.l2CacheKib()).isEqualTo(4096);
    assertThat(n.l3CacheKib()).isEqualTo(262144);
    assertThat(n.memoryType()).isEqualTo("HBM3");
    assertThat(n.numXcc()).isEqualTo(8);
  }

  @Test
  void vramSizeIsConfigurable() {
    NodeProperties n = kfd.topology().node(3);
    assertThat(n.localMemSize()).isEqualTo(16L << 30);
    assertThat(kfd.device(n.gpuId()).vram().bytes()).isEqualTo(16L << 30);
    assertThat(kfd.topology().byGpuId(n.gpuId())).isSameAs(n);
  }
}
