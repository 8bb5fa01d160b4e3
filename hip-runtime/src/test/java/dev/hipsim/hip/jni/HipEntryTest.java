package dev.hipsim.hip.jni;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class HipEntryTest {
  @Test
  void aLiveNonDaemonThreadKeepsTheJvmFromBeingDestroyed() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Thread worker = new Thread(() -> {
      try {
        release.await();
      } catch (InterruptedException ignored) {
        Thread.currentThread().interrupt();
      }
    }, "non-daemon-worker");
    worker.start();
    try {
      assertThat(HipEntry.shutdown()).isFalse();
    } finally {
      release.countDown();
      worker.join();
    }
  }

  @Test
  void bootRejectsALibraryBuiltFromAnotherTable() {
    assertThat(HipEntry.boot(0x1234, "/x/libamdhip64.so.5"))
        .startsWith("/x/libamdhip64.so.5 was built from a different API table than the Java runtime (0000000000001234 vs ")
        .endsWith("); rebuild hipsim");
  }
}
