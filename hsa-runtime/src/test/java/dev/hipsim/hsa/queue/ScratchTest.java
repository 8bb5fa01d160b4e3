package dev.hipsim.hsa.queue;

import static dev.hipsim.hsa.queue.AmdQueueLayout.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.hsa.GpuAgent;
import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.HsaOptions;
import dev.hipsim.hsa.HsaStatus;
import dev.hipsim.hsa.RecordingConsumer;
import dev.hipsim.hsa.TestMachine;
import dev.hipsim.hsa.dispatch.AqlPackets;
import dev.hipsim.hsa.memory.Allocation;
import dev.hipsim.hsa.memory.MemoryPool;
import dev.hipsim.hsa.signal.Signal;
import dev.hipsim.hsa.signal.SignalCondition;
import dev.hipsim.isa.dispatch.DispatchPacket;
import dev.hipsim.isa.mem.GpuMemory;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The scratch backing the runtime publishes in amd_queue_t before it rings the doorbell for a dispatch. */
class ScratchTest {
  private static final long GIB = 1L << 30;

  private static byte[] dispatch(int privateBytes, int groupX, long signal) {
    return AqlPackets.kernelDispatch(new DispatchPacket(AqlPackets.defaultDispatchHeader(), 1, groupX, 1, 1, groupX,
        1, 1, privateBytes, 0, 0x2000, 0, signal));
  }

  private static void run(HsaQueue q, Signal s, int privateBytes, int groupX) throws HsaException {
    s.store(1);
    q.dispatch(dispatch(privateBytes, groupX, s.handle()));
    assertThat(s.wait(SignalCondition.EQ, 0, TimeUnit.SECONDS.toNanos(5))).isZero();
  }

  @Test
  void theBackingIsSizedForEveryScratchSlotAndOnlyGrows() throws Exception {
    try (TestMachine m = TestMachine.standard()) {
      RecordingConsumer c = new RecordingConsumer();
      m.device(m.gfx90a).setPacketConsumer(c);
      HsaQueue q = m.runtime.createQueue(m.gfx90a, 64);
      Signal s = m.runtime.createSignal(1);
      GpuMemory host = m.runtime.memory().hostView();

      run(q, s, 0, 256);
      assertThat(c.seen().get(0).scratchLocation()).as("no scratch until a dispatch needs it").isZero();
      assertThat(q.scratchBacking()).isEmpty();

      run(q, s, 100, 256);
      RecordingConsumer.Seen first = c.seen().get(1);
      long slots = 104 * 32;
      assertThat(first.scratchLaneBytes()).as("100 bytes rounded to 16 (1 KiB per wave64)").isEqualTo(112);
      assertThat(first.scratchBytes()).isEqualTo(slots * 112 * 64);
      Allocation backing = q.scratchBacking().orElseThrow();
      assertThat(first.scratchLocation()).isEqualTo(backing.address());
      assertThat(backing.pool()).isSameAs(m.gfx90a.vramPool());
      assertThat(first.tmpring()).as("WAVES | WAVESIZE (KiB) << 12").isEqualTo((int) (slots | 7 << 12));
      long a = q.address() + SCRATCH_RESOURCE_DESCRIPTOR;
      assertThat(host.load32(a)).isEqualTo((int) backing.address());
      assertThat(host.load32(a + 4)).isEqualTo((int) ((backing.address() >>> 32) & 0xffff) | 1 << 31);
      assertThat(host.load32(a + 8)).isEqualTo((int) (slots * 112 * 64));
      assertThat(host.load32(a + 12)).isEqualTo(0x00EA4FAC);

      run(q, s, 48, 1024);
      assertThat(c.seen().get(2).scratchLocation()).as("a smaller need keeps the backing").isEqualTo(first.scratchLocation());
      assertThat(c.seen().get(2).scratchLaneBytes()).isEqualTo(112);

      run(q, s, 16 * 1024, 64);
      RecordingConsumer.Seen big = c.seen().get(3);
      assertThat(big.scratchLaneBytes()).isEqualTo(16 * 1024);
      assertThat(big.scratchBytes()).as("capped at the 1 GiB limit: 1024 slots of 1 MiB").isEqualTo(GIB);
      assertThat(big.scratchLocation()).isNotEqualTo(first.scratchLocation());
      assertThat(m.runtime.memory().find(first.scratchLocation())).as("kept until earlier packets finish").isPresent();

      run(q, s, 8, 64);
      assertThat(m.runtime.memory().find(first.scratchLocation())).as("freed once they have").isEmpty();
      assertThat(c.seen().get(4).scratchLocation()).isEqualTo(big.scratchLocation());
      q.destroy();
      assertThat(m.runtime.memory().find(big.scratchLocation())).isEmpty();
    }
  }

  @Test
  void theLimitBoundsTheSlotsButAWorkGroupMustFit() throws Exception {
    try (TestMachine m = new TestMachine(HsaOptions.defaults().withScratchLimit(8L << 20))) {
      RecordingConsumer c = new RecordingConsumer();
      m.device(m.gfx942).setPacketConsumer(c);
      HsaQueue q = m.runtime.createQueue(m.gfx942, 64);
      Signal s = m.runtime.createSignal(1);
      run(q, s, 1024, 1024);
      RecordingConsumer.Seen seen = c.seen().get(0);
      assertThat(seen.scratchBytes()).isEqualTo(8L << 20);
      assertThat(seen.tmpring() & 0xfff).as("waves per XCC (8 XCCs)").isEqualTo(128 / 8);
      assertThatThrownBy(() -> q.dispatch(dispatch(16 * 1024, 1024, 0))).isInstanceOf(HsaException.class)
          .hasMessageContaining("a work-group of 16 waves needs 16777216 bytes of scratch")
          .hasMessageContaining("limit of 8388608 bytes")
          .extracting(e -> ((HsaException) e).status()).isEqualTo(HsaStatus.OUT_OF_RESOURCES);
      assertThat(q.loadWriteIndex()).as("nothing was submitted").isEqualTo(1);
    }
  }

  @Test
  void shortVramGivesFewerSlots() throws Exception {
    try (TestMachine m = new TestMachine(HsaOptions.defaults(), 256L << 20)) {
      RecordingConsumer c = new RecordingConsumer();
      m.device(m.gfx90a).setPacketConsumer(c);
      HsaQueue q = m.runtime.createQueue(m.gfx90a, 64);
      Signal s = m.runtime.createSignal(1);
      run(q, s, 16 * 1024, 256);
      long bytes = c.seen().get(0).scratchBytes();
      assertThat(bytes).isLessThan(256L << 20).isGreaterThanOrEqualTo(4L << 20);
      assertThat(Long.bitCount(bytes / (1L << 20))).as("halved from 1 GiB").isEqualTo(1);
    }
  }

  @Test
  void planRoundsLanesAndCapsSlots() throws Exception {
    ScratchPlan p = ScratchPlan.of(1, 3328, GIB, 1);
    assertThat(p.laneBytes()).isEqualTo(16);
    assertThat(p.waveBytes()).isEqualTo(1024);
    assertThat(p.slots()).isEqualTo(3328);
    assertThat(ScratchPlan.of(17, 100, GIB, 1).laneBytes()).isEqualTo(32);
    assertThat(ScratchPlan.of(16384, 9728, GIB, 1).slots()).isEqualTo(1024);
    assertThat(ScratchPlan.of(16384, 9728, GIB, 1).bytes()).isEqualTo(GIB);
    assertThat(MemoryPool.GRANULE).isEqualTo(4096);
    assertThat(GpuAgent.QUEUE_MIN_PACKETS).isEqualTo(64);
  }
}
