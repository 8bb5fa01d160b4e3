package dev.hipsim.hip.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.hsa.HsaException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MachineOptionsTest {
  @Test
  void readsThreadsAndWatchdogFromTheEnvironment() throws Exception {
    var o = Machine.options(Map.of(Machine.THREADS_VARIABLE, " 3 ", Machine.WATCHDOG_VARIABLE, "1.5"));
    assertThat(o.threads()).isEqualTo(3);
    assertThat(o.timeLimitNanos()).isEqualTo(1_500_000_000L);
    assertThat(Machine.options(Map.of()).threads()).isEqualTo(Runtime.getRuntime().availableProcessors());
  }

  @Test
  void refusesValuesItCannotUseNamingTheVariable() {
    assertThatThrownBy(() -> Machine.options(Map.of(Machine.THREADS_VARIABLE, "abc")))
        .isInstanceOf(HsaException.class).hasMessageContaining("HIPSIM_THREADS=abc: expected a whole number from 1 to");
    assertThatThrownBy(() -> Machine.options(Map.of(Machine.THREADS_VARIABLE, "0")))
        .isInstanceOf(HsaException.class).hasMessageContaining("HIPSIM_THREADS=0");
    assertThatThrownBy(() -> Machine.options(Map.of(Machine.WATCHDOG_VARIABLE, "-1")))
        .isInstanceOf(HsaException.class).hasMessageContaining("HIPSIM_WATCHDOG_SECONDS=-1: expected a number");
    assertThatThrownBy(() -> Machine.options(Map.of(Machine.WATCHDOG_VARIABLE, "NaN")))
        .isInstanceOf(HsaException.class);
  }
}
