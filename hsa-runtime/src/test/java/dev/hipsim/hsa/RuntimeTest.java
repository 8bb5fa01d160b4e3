package dev.hipsim.hsa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.hsa.memory.MemoryPool;
import org.junit.jupiter.api.Test;

/** Agents and pools as rocminfo would list them for an MI210 and an MI300X. */
class RuntimeTest {
  @Test
  void agentsAreTheCpuThenTheGpusOfTheTopology() throws Exception {
    try (TestMachine m = TestMachine.standard()) {
      assertThat(m.runtime.agents()).hasSize(3);
      assertThat(m.runtime.agents().get(0)).isInstanceOf(CpuAgent.class);
      assertThat(m.runtime.agents().get(0).deviceType()).isEqualTo(DeviceType.CPU);
      assertThat(m.runtime.agents().get(0).nodeId()).isZero();

      GpuAgent a = m.gfx90a;
      assertThat(a.deviceType()).isEqualTo(DeviceType.GPU);
      assertThat(a.name()).isEqualTo("gfx90a");
      assertThat(a.isaName()).isEqualTo("amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-");
      assertThat(a.marketingName()).isEqualTo("AMD Instinct MI210");
      assertThat(a.nodeId()).isEqualTo(1);
      assertThat(a.computeUnits()).isEqualTo(104);
      assertThat(a.wavefrontSize()).isEqualTo(64);
      assertThat(a.maxWavesPerCu()).isEqualTo(32);
      assertThat(a.maxScratchSlotsPerCu()).isEqualTo(32);
      assertThat(a.ldsBytes()).isEqualTo(64 * 1024);
      assertThat(a.chipId()).isEqualTo(0x740f);
      assertThat(a.localMemoryBytes()).isEqualTo(TestMachine.VRAM);

      GpuAgent b = m.gfx942;
      assertThat(b.isaName()).isEqualTo("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-");
      assertThat(b.computeUnits()).isEqualTo(304);
      assertThat(b.xccCount()).isEqualTo(8);
      assertThat(m.runtime.gpuAgent(b.gpuId())).isSameAs(b);
      assertThatThrownBy(() -> m.runtime.gpuAgent(0x1234)).isInstanceOf(HsaException.class)
          .hasMessageContaining("0x1234");
    }
  }

  @Test
  void xnackModeAndSrameccShapeTheIsaName() throws Exception {
    try (TestMachine m = new TestMachine(HsaOptions.defaults().withXnack(true).withSramecc(false))) {
      assertThat(m.gfx90a.isaName()).isEqualTo("amdgcn-amd-amdhsa--gfx90a:sramecc-:xnack+");
      assertThat(m.gfx90a.xnack()).isTrue();
      assertThat(m.gfx90a.sramecc()).isFalse();
    }
  }

  @Test
  void poolsCarryRocrsFlags() throws Exception {
    try (TestMachine m = TestMachine.standard()) {
      CpuAgent cpu = m.runtime.cpuAgent();
      assertThat(cpu.memoryPools()).extracting(MemoryPool::globalFlags)
          .containsExactly(MemoryPool.FINE_GRAINED, MemoryPool.KERNARG_INIT | MemoryPool.FINE_GRAINED,
              MemoryPool.COARSE_GRAINED);
      assertThat(cpu.kernargPool().accessibleByAll()).isTrue();
      assertThat(cpu.fineGrainedPool().toString()).contains("FINE GRAINED");
      MemoryPool vram = m.gfx90a.vramPool();
      assertThat(vram.isCoarseGrained()).isTrue();
      assertThat(vram.size()).isEqualTo(TestMachine.VRAM);
      assertThat(vram.accessibleByAll()).isFalse();
      assertThat(vram.allocationGranule()).isEqualTo(4096);
      MemoryPool lds = m.gfx90a.memoryPools().get(1);
      assertThat(lds.segment()).isEqualTo(MemoryPool.Segment.GROUP);
      assertThat(lds.size()).isEqualTo(64 * 1024);
      assertThat(lds.runtimeAllocAllowed()).isFalse();
      assertThatThrownBy(() -> lds.allocate(64)).isInstanceOf(HsaException.class)
          .extracting(e -> ((HsaException) e).status()).isEqualTo(HsaStatus.INVALID_MEMORY_POOL);
    }
  }

  @Test
  void shutdownFreesEverythingAndRefusesNewWork() throws Exception {
    TestMachine m = TestMachine.standard();
    m.runtime.createQueue(m.gfx90a, 64);
    m.runtime.createSignal(1);
    m.gfx942.vramPool().allocate(1 << 20);
    m.runtime.shutdown();
    assertThat(m.kfd.processes()).isEmpty();
    assertThat(m.kfd.devices()).allSatisfy(d -> assertThat(d.vramUsedBytes()).isZero());
    assertThatThrownBy(() -> m.runtime.createSignal(0)).isInstanceOf(HsaException.class)
        .hasMessageContaining("HSA_STATUS_ERROR_NOT_INITIALIZED");
    m.runtime.shutdown(); // idempotent
  }
}
