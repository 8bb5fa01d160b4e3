package dev.hipsim.kfd.mem;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FrameStoreTest {
  @Test
  void framesAreBackedOnFirstTouchAndDroppedOnRelease() {
    FrameStore s = new FrameStore(64L << 30);
    assertThat(s.frames()).isEqualTo(16 * 1024 * 1024);
    assertThat(s.backedPages()).isZero();
    long idle = s.hostBytes();
    assertThat(idle).as("a 64 GiB store costs only its directory").isLessThan(200_000);
    assertThat(s.pageIfBacked(12345)).isNull();
    assertThat(s.loadWord(12345L << 12)).isZero();
    assertThat(s.backedPages()).as("reading does not back").isZero();

    s.storeWord((12345L << 12) + 8, 0x1122334455667788L);
    assertThat(s.loadWord((12345L << 12) + 8)).isEqualTo(0x1122334455667788L);
    assertThat(s.backedPages()).isEqualTo(1);
    assertThat(s.page(12345)).isSameAs(s.pageIfBacked(12345));

    s.release(12345);
    assertThat(s.backedPages()).isZero();
    assertThat(s.loadWord((12345L << 12) + 8)).as("released frames read as zero").isZero();
    assertThat(s.peakBackedPages()).isEqualTo(1);
  }

  @Test
  void backingARunKeepsWhatIsWrittenAndChecksItsBounds() {
    FrameStore s = new FrameStore(16L << 20);
    s.storeWord(5L << 12, 42);
    long[] written = s.pageIfBacked(5);
    s.back(3, 600);
    assertThat(s.backedPages()).isEqualTo(600);
    assertThat(s.pageIfBacked(5)).as("a frame backed already keeps its page").isSameAs(written);
    assertThat(s.loadWord(5L << 12)).isEqualTo(42);
    assertThat(s.pageIfBacked(2)).isNull();
    assertThat(s.pageIfBacked(603)).isNull();
    assertThat(s.loadWord(602L << 12)).as("fresh pages read as zero").isZero();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.back(s.frames() - 1, 2))
        .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("frames [4095, +2) of 4096");
    assertThat(s.backedPages()).isEqualTo(600);
  }

  @Test
  void concurrentFirstTouchesAgreeOnOnePage() throws Exception {
    FrameStore s = new FrameStore(1L << 30);
    long[][] seen = new long[4][];
    Thread[] threads = new Thread[4];
    for (int t = 0; t < threads.length; t++) {
      int id = t;
      threads[t] = new Thread(() -> seen[id] = s.page(777));
      threads[t].start();
    }
    for (Thread t : threads) t.join();
    for (long[] p : seen) assertThat(p).isSameAs(seen[0]);
    assertThat(s.backedPages()).isEqualTo(1);
  }
}
