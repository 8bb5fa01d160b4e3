package dev.hipsim.hsa.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.elf.AmdgpuTarget;
import dev.hipsim.elf.AmdgpuTarget.FeatureState;
import dev.hipsim.hsa.HsaOptions;
import dev.hipsim.hsa.TestMachine;
import org.junit.jupiter.api.Test;

/** ROCr's ISA compatibility: processor (or generic family), then xnack and sramecc where the code object pins them. */
class TargetCheckTest {
  private static AmdgpuTarget target(String processor, FeatureState xnack, FeatureState sramecc) {
    return new AmdgpuTarget(AmdgpuTarget.machineCode(processor), processor, xnack, sramecc, 5, 0);
  }

  @Test
  void featuresLeftAnyRunEitherWayPinnedOnesMustMatch() throws Exception {
    try (TestMachine m = TestMachine.standard(); TestMachine x = new TestMachine(HsaOptions.defaults().withXnack(true)
        .withSramecc(false))) {
      for (FeatureState any : new FeatureState[] {FeatureState.ANY, FeatureState.UNSUPPORTED}) {
        assertThatCode(() -> TargetCheck.check(target("gfx90a", any, any), m.gfx90a)).doesNotThrowAnyException();
        assertThatCode(() -> TargetCheck.check(target("gfx90a", any, any), x.gfx90a)).doesNotThrowAnyException();
      }
      TargetCheck.check(target("gfx90a", FeatureState.OFF, FeatureState.ON), m.gfx90a);
      TargetCheck.check(target("gfx90a", FeatureState.ON, FeatureState.OFF), x.gfx90a);
      assertThatThrownBy(() -> TargetCheck.check(target("gfx90a", FeatureState.ANY, FeatureState.OFF), m.gfx90a))
          .hasMessageContaining("amdgcn-amd-amdhsa--gfx90a:sramecc-").hasMessageContaining(m.gfx90a.isaName())
          .hasMessageContaining("built for sramecc- and the agent runs with sramecc+");
      assertThatThrownBy(() -> TargetCheck.check(target("gfx942", FeatureState.ON, FeatureState.ANY), m.gfx942))
          .hasMessageContaining("built for xnack+ and the agent runs with xnack-");
      assertThatThrownBy(() -> TargetCheck.check(target("gfx90a", FeatureState.ANY, FeatureState.ANY), m.gfx942))
          .hasMessageContaining("processor gfx90a is not gfx942");
      assertThatCode(() -> TargetCheck.check(target("gfx9-4-generic", FeatureState.ANY, FeatureState.ANY), m.gfx942))
          .as("a generic processor covers its family").doesNotThrowAnyException();
      assertThatThrownBy(() -> TargetCheck.check(target("gfx9-4-generic", FeatureState.ANY, FeatureState.ANY),
          m.gfx90a)).hasMessageContaining("processor gfx9-4-generic is not gfx90a");
      assertThat(m.gfx942.isaName()).isEqualTo("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-");
    }
  }
}
