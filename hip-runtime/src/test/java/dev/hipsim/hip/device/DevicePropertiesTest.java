package dev.hipsim.hip.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class DevicePropertiesTest {
  @Test
  void everyValueNamesAFieldOfSomeLayout() {
    for (DeviceModel m : DeviceModel.ALL) {
      for (String field : DeviceProperties.of(m).keySet()) {
        assertThat(DevicePropertiesLayouts.R0600.has(field) || DevicePropertiesLayouts.R0000.has(field)).as(field).isTrue();
      }
    }
  }

  @Test
  void mi210() {
    Map<String, Object> p = DeviceProperties.of(DeviceModel.forName("gfx90a"));
    assertThat(p).containsEntry("name", "AMD Instinct MI210").containsEntry("gcnArchName", "gfx90a:sramecc+:xnack-")
        .containsEntry("totalGlobalMem", 68_702_699_520L).containsEntry("multiProcessorCount", 104)
        .containsEntry("clockRate", 1_700_000).containsEntry("memoryClockRate", 1_600_000)
        .containsEntry("memoryBusWidth", 4096).containsEntry("l2CacheSize", 8_388_608).containsEntry("warpSize", 64)
        .containsEntry("maxThreadsPerBlock", 1024).containsEntry("sharedMemPerBlock", 65_536L)
        .containsEntry("regsPerBlock", 65_536).containsEntry("maxThreadsPerMultiProcessor", 2048)
        .containsEntry("sharedMemPerMultiprocessor", 6_815_744L).containsEntry("gcnArch", 910)
        .containsEntry("major", 9).containsEntry("minor", 0).containsEntry("totalConstMem", 2_147_483_647L);
    assertThat((int[]) p.get("maxGridSize")).containsExactly(2_147_483_647, 65_536, 65_536);
  }

  @Test
  void mi300x() {
    DeviceModel m = DeviceModel.forName("gfx942");
    assertThat(m).isSameAs(DeviceModel.forName("MI300X"));
    Map<String, Object> p = DeviceProperties.of(m);
    assertThat(p).containsEntry("name", "AMD Instinct MI300X").containsEntry("gcnArchName", "gfx942:sramecc+:xnack-")
        .containsEntry("totalGlobalMem", 206_141_652_992L).containsEntry("multiProcessorCount", 304)
        .containsEntry("clockRate", 2_100_000).containsEntry("memoryClockRate", 1_300_000)
        .containsEntry("memoryBusWidth", 8192).containsEntry("l2CacheSize", 4_194_304)
        .containsEntry("sharedMemPerMultiprocessor", 19_922_944L).containsEntry("gcnArch", 942)
        .containsEntry("major", 9).containsEntry("minor", 4);
  }

  @Test
  void archFlagsAreClrs() {
    // hasGlobalInt32Atomics .. hasWarpShuffle (bits 0-10), hasThreadFenceSystem (12), has3dGrid (15).
    assertThat(DeviceProperties.ARCH_FLAGS).isEqualTo(0x97ff);
  }

  @Test
  void unknownDevicesAreRejected() {
    assertThatThrownBy(() -> DeviceModel.forName("gfx1100")).hasMessage("unknown device 'gfx1100' (expected gfx90a or gfx942)");
  }

  @Test
  void attributesFollowTheProperties() {
    Map<String, Object> p = DeviceProperties.of(DeviceModel.MI300X);
    assertThat(DeviceAttributes.forCode(63).value().applyAsLong(p)).isEqualTo(304);
    assertThat(DeviceAttributes.forCode(84).value().applyAsLong(p)).isEqualTo(Integer.MAX_VALUE);
    assertThat(DeviceAttributes.forCode(29).value().applyAsLong(p)).isEqualTo(Integer.MAX_VALUE);
    assertThat(DeviceAttributes.forCode(30).value().applyAsLong(p)).isEqualTo(65_536);
    assertThat(DeviceAttributes.forCode(12).value().applyAsLong(p)).isEqualTo(1);
    assertThat(DeviceAttributes.forCode(10005).pointer()).isTrue();
    assertThat(DeviceAttributes.forCode(21)).isNull();
    assertThat(DeviceAttributes.all()).hasSize(88);
  }
}
