package dev.hipsim.bundle.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.elf.AmdgpuTarget.FeatureState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TargetIdTest {
  @Test
  void parsesProcessorAndFeaturesAndSpellsThemCanonically() throws Exception {
    TargetId id = TargetId.parse("gfx90a:xnack-:sramecc+");
    assertThat(id.processor()).isEqualTo("gfx90a");
    assertThat(id.feature("xnack")).isEqualTo(FeatureState.OFF);
    assertThat(id.feature("sramecc")).isEqualTo(FeatureState.ON);
    assertThat(id.feature("tgsplit")).isEqualTo(FeatureState.ANY);
    assertThat(id.toString()).isEqualTo("gfx90a:sramecc+:xnack-");
    assertThat(id.fileNameSafe()).isEqualTo("gfx90a_sramecc+_xnack-");
    assertThat(TargetId.parse("gfx9-4-generic").isGeneric()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "gfx90a:", "gfx90a:xnack", "gfx90a:xnack*", "gfx90a:xnack+:xnack-", ":xnack+",
      "gfx 90a", "gfx90a:+"})
  void rejectsMalformedTargetIds(String text) {
    assertThatThrownBy(() -> TargetId.parse(text)).isInstanceOf(EntryIdFormatException.class)
        .hasMessageContaining("target ID");
  }

  @Test
  void parsesWhatUsersTypeForADevice() throws Exception {
    assertThat(TargetId.parseDevice("gfx942").toString()).isEqualTo("gfx942");
    assertThat(TargetId.parseDevice("amdgcn-amd-amdhsa--gfx90a:xnack+").toString()).isEqualTo("gfx90a:xnack+");
    assertThat(TargetId.parseDevice("hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-:sramecc+").toString())
        .isEqualTo("gfx90a:sramecc+:xnack-");
  }

  @ParameterizedTest
  @CsvSource({
      "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-, HIPV4, amdgcn-amd-amdhsa-, gfx90a:xnack-, hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-",
      "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-:sramecc+, HIPV4, amdgcn-amd-amdhsa-, gfx90a:sramecc+:xnack-, hipv4-amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-",
      "hip-amdgcn-amd-amdhsa--gfx942, HIP, amdgcn-amd-amdhsa-, gfx942, hip-amdgcn-amd-amdhsa--gfx942",
      "hip-amdgcn-amd-amdhsa-gfx906, HIP, amdgcn-amd-amdhsa-, gfx906, hip-amdgcn-amd-amdhsa--gfx906",
      "hipv4-amdgcn-amd-amdhsa--gfx9-4-generic, HIPV4, amdgcn-amd-amdhsa-, gfx9-4-generic, hipv4-amdgcn-amd-amdhsa--gfx9-4-generic",
      "openmp-amdgcn-amd-amdhsa--gfx90a, OPENMP, amdgcn-amd-amdhsa-, gfx90a, openmp-amdgcn-amd-amdhsa--gfx90a",
      "host-x86_64-unknown-linux-gnu-, HOST, x86_64-unknown-linux-gnu, , host-x86_64-unknown-linux-gnu",
      "host-x86_64-unknown-linux, HOST, x86_64-unknown-linux, , host-x86_64-unknown-linux",
  })
  void parsesEntryIds(String id, OffloadKind kind, String triple, String target, String canonical) throws Exception {
    EntryId e = EntryId.parse(id);
    assertThat(e.kind()).isEqualTo(kind);
    assertThat(e.triple()).isEqualTo(triple);
    assertThat(e.target().map(TargetId::toString).orElse(null)).isEqualTo(target);
    assertThat(e.canonical()).isEqualTo(canonical);
    assertThat(EntryId.parse(e.canonical())).isEqualTo(e);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "cuda-nvptx64-nvidia-cuda--sm_80", "hipv4-amdgcn-amd", "hipv4", "host",
      "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack", "hipv4--amd-amdhsa--gfx90a"})
  void rejectsMalformedEntryIds(String id) {
    assertThatThrownBy(() -> EntryId.parse(id)).isInstanceOf(EntryIdFormatException.class);
  }
}
