package dev.hipsim.isa.exec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JitModeTest {
  @Test
  void onlyTheQuickModeNamedByTheLauncherIsQuick() {
    assertThat(JitMode.of("quick")).isEqualTo(JitMode.QUICK);
    assertThat(JitMode.of("full")).isEqualTo(JitMode.FULL);
    assertThat(JitMode.of(null)).as("a JVM libamdhip64 did not start runs tiered").isEqualTo(JitMode.FULL);
    assertThat(JitMode.of("Quick")).isEqualTo(JitMode.FULL);
  }

  @Test
  void theTestJvmRunsTiered() {
    assertThat(System.getProperty(JitMode.PROPERTY)).isNull();
    assertThat(JitMode.current()).isEqualTo(JitMode.FULL);
  }
}
