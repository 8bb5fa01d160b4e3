package dev.hipsim.hsa.queue;

import static dev.hipsim.hsa.queue.AmdQueueLayout.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.hsa.GpuAgent;
import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.RecordingConsumer;
import dev.hipsim.hsa.TestMachine;
import dev.hipsim.hsa.dispatch.AqlPackets;
import dev.hipsim.hsa.signal.Signal;
import dev.hipsim.hsa.signal.SignalCondition;
import dev.hipsim.hsa.signal.SignalManager;
import dev.hipsim.isa.dispatch.DispatchPacket;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.kfd.ProcessApertures;
import dev.hipsim.kfd.queue.AmdSignal;
import dev.hipsim.kfd.queue.AqlPacket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The queue as ROCr lays it out and CLR submits to it, against kfd-sim's packet processor. */
class QueueTest {
  private TestMachine m;
  private RecordingConsumer consumer;
  private GpuMemory host;

  @BeforeEach
  void setUp() throws Exception {
    m = TestMachine.standard();
    consumer = new RecordingConsumer();
    m.device(m.gfx90a).setPacketConsumer(consumer);
    host = m.runtime.memory().hostView();
  }

  @AfterEach
  void tearDown() {
    consumer.release();
    m.close();
  }

  private static byte[] packet(long kernelObject, long signal) {
    return AqlPackets.kernelDispatch(new DispatchPacket(AqlPackets.defaultDispatchHeader(), 1, 64, 1, 1, 64, 1, 1, 0,
        0, kernelObject, 0, signal));
  }

  @Test
  void theAmdQueueIsLaidOutAsRocrDoes() throws Exception {
    HsaQueue q = m.runtime.createQueue(m.gfx90a, 128);
    long a = q.address();
    assertThat(a % ALIGNMENT).isZero();
    assertThat(host.load32(a + TYPE)).isEqualTo(TYPE_MULTIPLE);
    assertThat(host.load32(a + FEATURES)).isEqualTo(FEATURE_KERNEL_DISPATCH);
    assertThat(host.load64(a + BASE_ADDRESS)).isEqualTo(q.ringAddress());
    assertThat(host.load32(a + QUEUE_SIZE)).isEqualTo(128);
    assertThat(host.load64(a + ID)).isEqualTo(q.id());
    assertThat(host.load64(a + WRITE_DISPATCH_ID)).isZero();
    assertThat(host.load64(a + READ_DISPATCH_ID)).isZero();
    assertThat(host.load32(a + READ_DISPATCH_ID_FIELD_BASE_BYTE_OFFSET)).isEqualTo(READ_DISPATCH_ID);
    assertThat(host.load32(a + QUEUE_PROPERTIES)).isEqualTo(PROPERTIES_IS_PTR64);
    assertThat(host.load32(a + MAX_CU_ID)).isEqualTo(103);
    assertThat(host.load32(a + MAX_WAVE_ID)).isEqualTo(31);
    assertThat(host.load32(a + GROUP_SEGMENT_APERTURE_BASE_HI)).isEqualTo((int) (ProcessApertures.LDS_BASE >>> 32));
    assertThat(host.load32(a + PRIVATE_SEGMENT_APERTURE_BASE_HI))
        .isEqualTo((int) (ProcessApertures.SCRATCH_BASE >>> 32));
    long doorbellSignal = host.load64(a + DOORBELL_SIGNAL);
    assertThat(doorbellSignal).isEqualTo(q.doorbellSignal());
    assertThat(host.load64(doorbellSignal + AmdSignal.KIND)).isEqualTo(SignalManager.KIND_DOORBELL);
    assertThat(host.load64(doorbellSignal + AmdSignal.VALUE)).isEqualTo(q.doorbellAddress());
    assertThat(host.load64(doorbellSignal + AmdSignal.QUEUE_PTR)).isEqualTo(a);
    for (int i = 0; i < 128; i++) {
      assertThat(host.load16(q.ringAddress() + 64L * i)).as("slot %d starts INVALID", i).isEqualTo((short) 1);
    }
    assertThat(m.runtime.memory().hostView().load16(q.ringAddress() + 128 * 64))
        .as("the ring is mapped twice back to back").isEqualTo((short) 1);
  }

  @Test
  void theDeviceSeesTheQueueItWasGiven() throws Exception {
    HsaQueue q = m.runtime.createQueue(m.gfx90a, 64);
    Signal done = m.runtime.createSignal(1);
    long id = q.submit(packet(0x1000, done.handle()));
    assertThat(id).isZero();
    assertThat(done.wait(SignalCondition.EQ, 0, TimeUnit.SECONDS.toNanos(5))).isZero();
    RecordingConsumer.Seen s = consumer.seen().get(0);
    assertThat(s.queueAddress()).as("the CP finds amd_queue_t from the read pointer").isEqualTo(q.address());
    assertThat(s.packet().kernelObject()).isEqualTo(0x1000);
    assertThat(q.loadReadIndex()).isEqualTo(1);
    assertThat(q.loadWriteIndex()).isEqualTo(1);
  }

  @Test
  void packetsWrapAroundTheRingInOrder() throws Exception {
    HsaQueue q = m.runtime.createQueue(m.gfx90a, 64);
    int n = 64 * 3 + 7;
    Signal done = m.runtime.createSignal(n);
    for (int i = 0; i < n; i++) assertThat(q.submit(packet(0x10_0000 + i, done.handle()))).isEqualTo(i);
    assertThat(done.wait(SignalCondition.EQ, 0, TimeUnit.SECONDS.toNanos(10))).isZero();
    assertThat(consumer.seen()).hasSize(n);
    for (int i = 0; i < n; i++) {
      AqlPacket p = consumer.seen().get(i).packet();
      assertThat(p.kernelObject()).isEqualTo(0x10_0000 + i);
      assertThat(p.index()).isEqualTo(i);
      assertThat(p.address()).isEqualTo(q.ringAddress() + 64L * (i % 64));
    }
    assertThat(q.loadReadIndex()).isEqualTo(n);
  }

  @Test
  void aFullRingMakesTheProducerWaitForSpace() throws Exception {
    HsaQueue q = m.runtime.createQueue(m.gfx90a, 64);
    consumer.hold();
    Signal done = m.runtime.createSignal(70);
    // 64 slots; the CP has taken packet 0 (it is held at the gate), so 65 fit before the producer must wait.
    for (int i = 0; i < 65; i++) q.submit(packet(i, done.handle()));
    CompletableFuture<Long> blocked = CompletableFuture.supplyAsync(() -> {
      try {
        long last = 0;
        for (int i = 65; i < 70; i++) last = q.submit(packet(i, done.handle()));
        return last;
      } catch (HsaException e) {
        throw new IllegalStateException(e);
      }
    });
    Thread.sleep(50);
    assertThat(blocked).as("the producer waits while index - read_dispatch_id >= size").isNotDone();
    assertThat(q.loadWriteIndex()).isEqualTo(66);
    consumer.release();
    assertThat(blocked.get(5, TimeUnit.SECONDS)).isEqualTo(69);
    assertThat(done.wait(SignalCondition.EQ, 0, TimeUnit.SECONDS.toNanos(5))).isZero();
    assertThat(consumer.seen()).extracting(s -> s.packet().kernelObject()).containsExactly(
        java.util.stream.LongStream.range(0, 70).boxed().toArray(Long[]::new));
  }

  @Test
  void aStoppedQueueIsReportedToAProducerWaitingForSpace() throws Exception {
    HsaQueue q = m.runtime.createQueue(m.gfx90a, 64);
    consumer.failWith("illegal instruction at pc 0x1234");
    for (int i = 0; i < 65; i++) q.submit(packet(i, 0));
    assertThatThrownBy(() -> q.submit(packet(99, 0))).isInstanceOf(HsaException.class)
        .hasMessageContaining("stopped with packets pending").hasMessageContaining("illegal instruction at pc 0x1234");
    assertThat(q.error()).get().extracting(e -> e.packetIndex()).isEqualTo(0L);
  }

  @Test
  void sizesAreChecked() throws Exception {
    for (int bad : new int[] {0, 32, 96, 1 << 18}) {
      assertThatThrownBy(() -> m.runtime.createQueue(m.gfx90a, bad)).isInstanceOf(HsaException.class)
          .hasMessageContaining("power of two from 64 to 131072");
    }
    assertThatThrownBy(() -> m.runtime.createQueue(m.gfx90a, 64).submit(new byte[63]))
        .hasMessageContaining("64 bytes, not 63");
  }

  @Test
  void destroyStopsTheQueueAndFreesItsMemory() throws Exception {
    int before = m.runtime.memory().allocationCount();
    HsaQueue q = m.runtime.createQueue(m.gfx942, GpuAgent.QUEUE_MIN_PACKETS);
    int during = m.runtime.memory().allocationCount();
    q.destroy();
    assertThat(m.runtime.memory().allocationCount()).isLessThan(during).isGreaterThanOrEqualTo(before);
    assertThat(m.kfd.processes().get(0).queue(q.kfdQueueId())).isNull();
    assertThatThrownBy(() -> q.submit(packet(1, 0))).hasMessageContaining("was destroyed");
  }
}
