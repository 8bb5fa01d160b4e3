package dev.hipsim.kfd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.isa.mem.AtomicOp;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;
import dev.hipsim.kfd.event.EventData;
import dev.hipsim.kfd.event.EventTable;
import dev.hipsim.kfd.event.EventType;
import dev.hipsim.kfd.queue.AmdSignal;
import dev.hipsim.kfd.queue.AqlPacket;
import dev.hipsim.kfd.queue.AqlPacketType;
import dev.hipsim.kfd.queue.AqlQueue;
import dev.hipsim.kfd.queue.PacketExecutionException;
import dev.hipsim.kfd.queue.QueueContext;
import dev.hipsim.kfd.queue.QueueError;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** AQL queues as ROCr drives them: packets in a ring, a doorbell, and the CP handing packets to the consumer. */
class QueueTest {
  private static final long RING = 0x20_0000_0000L;
  private static final long QUEUE_DESC = 0x20_0010_0000L;
  private static final long SIGNALS = 0x20_0020_0000L;
  private static final long EVENT_PAGE = 0x20_0030_0000L;
  private static final long DOORBELLS = 0x20_0040_0000L;
  private static final int PACKETS = 4;

  private Rig rig;
  private GpuMemory host;
  private AqlQueue queue;
  private int queueId;
  private CreateQueueResult created;
  private final List<AqlPacket> seen = Collections.synchronizedList(new ArrayList<>());
  private final List<QueueContext> contexts = Collections.synchronizedList(new ArrayList<>());

  @BeforeEach
  void setUp() throws Exception {
    rig = new Rig(32L << 20);
    host = rig.process.hostMemory();
    int rw = AllocFlags.WRITABLE;
    // The ring is double-mapped system memory, as ROCr allocates it (AQL_QUEUE_MEM).
    rig.mapped(RING, 2 * 4096, AllocFlags.GTT | rw | AllocFlags.EXECUTABLE | AllocFlags.AQL_QUEUE_MEM);
    rig.mapped(QUEUE_DESC, 4096, AllocFlags.GTT | rw);
    rig.mapped(SIGNALS, 4096, AllocFlags.GTT | rw);
    long page = rig.mapped(EVENT_PAGE, EventTable.SIGNAL_EVENT_LIMIT * 8, AllocFlags.GTT | rw);
    rig.mapped(DOORBELLS, 8192, AllocFlags.DOORBELL | rw | AllocFlags.COHERENT);
    for (int i = 0; i < PACKETS; i++) host.store16(RING + 64L * i, (short) AqlPacketType.INVALID.ordinal());
    host.store32(QUEUE_DESC + 136, 128); // read_dispatch_id_field_base_byte_offset
    created = rig.process.createQueue(
        CreateQueueArgs.aql(rig.gpu, RING, PACKETS * 64, QUEUE_DESC + 56, QUEUE_DESC + 128));
    queueId = created.queueId();
    queue = rig.process.queue(queueId);
    rig.process.createEvent(EventType.SIGNAL.value(), true, 0, page); // installs the event page
    rig.device.setPacketConsumer((packet, q) -> {
      seen.add(packet);
      contexts.add(q);
      if (packet.kernelObject() == 0xbad) q.memory().load32(0x7777_0000L);
      if (packet.kernelObject() == 0xdead) throw new PacketExecutionException("illegal instruction at pc 0x100");
    });
  }

  @AfterEach
  void tearDown() {
    rig.close();
  }

  /** Writes a dispatch packet at {@code index} the way CLR does: body first, then the header with release. */
  private void dispatch(long index, long kernelObject, long signal) throws GpuMemoryFault {
    long slot = RING + (index % PACKETS) * 64;
    host.store16(slot + 4, (short) 256);
    host.store16(slot + 6, (short) 1);
    host.store16(slot + 8, (short) 1);
    host.store32(slot + 12, 1024 * (int) (index + 1));
    host.store32(slot + 16, 1);
    host.store32(slot + 20, 1);
    host.store32(slot + 24, 16);
    host.store32(slot + 28, 4096);
    host.store64(slot + 32, kernelObject);
    host.store64(slot + 40, 0x30_0000_0000L + index * 256);
    host.store64(slot + 56, signal);
    int header = AqlPacketType.KERNEL_DISPATCH.ordinal() | (1 << 8) | (2 << 9) | (2 << 11);
    host.atomic32(AtomicOp.SWAP, slot, header | (1 << 16), 0);
  }

  private void barrier(long index, boolean and, long... deps) throws GpuMemoryFault {
    long slot = RING + (index % PACKETS) * 64;
    for (int i = 0; i < 5; i++) host.store64(slot + 8 + 8L * i, i < deps.length ? deps[i] : 0);
    host.store64(slot + 56, 0);
    int type = (and ? AqlPacketType.BARRIER_AND : AqlPacketType.BARRIER_OR).ordinal();
    host.atomic32(AtomicOp.SWAP, slot, type | (1 << 8), 0);
  }

  private void ring(long index) throws GpuMemoryFault {
    host.store64(DOORBELLS + created.doorbellByteOffset(), index); // the mapped doorbell, as ROCr writes it
  }

  private long signal(int i, long value, long mailbox, int eventId) throws GpuMemoryFault {
    long s = SIGNALS + 64L * i;
    host.store64(s + AmdSignal.KIND, 1);
    host.store64(s + AmdSignal.VALUE, value);
    host.store64(s + AmdSignal.EVENT_MAILBOX_PTR, mailbox);
    host.store32(s + AmdSignal.EVENT_ID, eventId);
    return s;
  }

  @Test
  void packetsReachTheConsumerInOrderAcrossRingWraps() throws Exception {
    CreateEventResult ev = rig.process.createEvent(EventType.SIGNAL.value(), true, 0, 0);
    long sig = signal(0, 10, EVENT_PAGE + 8L * ev.eventSlotIndex(), ev.eventId());
    for (long i = 0; i < 10; i++) {
      while (i - host.load64(QUEUE_DESC + 128) >= PACKETS) Thread.onSpinWait(); // ring full: wait for the CP
      long index = host.atomic64(AtomicOp.ADD, QUEUE_DESC + 56, 1, 0);
      assertThat(index).isEqualTo(i);
      dispatch(index, 0x1000 + index, sig);
      ring(index);
    }
    assertThat(queue.awaitIdle(5000)).isTrue();
    assertThat(seen).extracting(AqlPacket::kernelObject)
        .containsExactly(0x1000L, 0x1001L, 0x1002L, 0x1003L, 0x1004L, 0x1005L, 0x1006L, 0x1007L, 0x1008L, 0x1009L);
    AqlPacket p = seen.get(5);
    assertThat(p.index()).isEqualTo(5);
    assertThat(p.address()).isEqualTo(RING + 64L);
    assertThat(p.type()).isEqualTo(AqlPacketType.KERNEL_DISPATCH);
    assertThat(p.barrier()).isTrue();
    assertThat(p.acquireFenceScope()).isEqualTo(2);
    assertThat(p.releaseFenceScope()).isEqualTo(2);
    assertThat(p.dimensions()).isEqualTo(1);
    assertThat(p.workgroupSizeX()).isEqualTo(256);
    assertThat(p.gridSizeX()).isEqualTo(6 * 1024);
    assertThat(p.privateSegmentSize()).isEqualTo(16);
    assertThat(p.groupSegmentSize()).isEqualTo(4096);
    assertThat(p.kernargAddress()).isEqualTo(0x30_0000_0000L + 5 * 256);
    assertThat(p.completionSignal()).isEqualTo(sig);
    assertThat(host.load64(QUEUE_DESC + 128)).as("read_dispatch_id").isEqualTo(10);
    assertThat(AmdSignal.value(host, sig)).as("completion signal decremented per packet").isZero();
    for (int i = 0; i < PACKETS; i++) {
      assertThat(host.load16(RING + 64L * i) & 0xff).as("consumed slots are INVALID again").isEqualTo(1);
    }
    QueueContext q = contexts.get(0);
    assertThat(q.queueAddress()).isEqualTo(QUEUE_DESC);
    assertThat(q.gpuId()).isEqualTo(rig.gpu);
    assertThat(q.node().waveFrontSize()).isEqualTo(64);
    assertThat(q.apertures().ldsBase()).isEqualTo(1L << 48);
    assertThat(q.memory()).isSameAs(rig.vm);
    EventTable.WaitResult w = rig.process.waitEvents(new int[] {ev.eventId()}, false, 2000);
    assertThat(w.status()).as("the mailbox interrupt set the event").isEqualTo(EventTable.WaitResult.Status.COMPLETE);
  }

  @Test
  void theRingIsDoubleMapped() throws Exception {
    host.store64(RING + 8, 0x1234_5678_9abc_def0L);
    assertThat(rig.vm.load64(RING + 4096 + 8)).as("the second mapping aliases the first").isEqualTo(0x1234_5678_9abc_def0L);
    rig.vm.store32(RING + 4096 + 16, 77);
    assertThat(host.load32(RING + 16)).isEqualTo(77);
  }

  @Test
  void barrierAndWaitsForItsDependencies() throws Exception {
    long dep = signal(1, 1, 0, 0);
    barrier(0, true, dep, 0);
    dispatch(1, 0x2000, 0);
    host.store64(QUEUE_DESC + 56, 2);
    ring(1);
    Thread.sleep(100);
    assertThat(seen).as("held by the barrier").isEmpty();
    host.atomic64(AtomicOp.SWAP, dep + AmdSignal.VALUE, 0, 0);
    assertThat(queue.awaitIdle(5000)).isTrue();
    assertThat(seen).extracting(AqlPacket::kernelObject).containsExactly(0x2000L);
  }

  @Test
  void barrierOrNeedsOneDependency() throws Exception {
    long a = signal(1, 1, 0, 0);
    long b = signal(2, 0, 0, 0);
    barrier(0, false, a, b);
    dispatch(1, 0x3000, 0);
    ring(1);
    assertThat(queue.awaitIdle(5000)).isTrue();
    assertThat(seen).hasSize(1);
  }

  @Test
  void aMemoryFaultStopsTheQueueAndFiresMemoryEvents() throws Exception {
    CreateEventResult mem = rig.process.createEvent(EventType.MEMORY.value(), false, 0, 0);
    dispatch(0, 0xbad, 0);
    dispatch(1, 0x1001, 0);
    rig.process.ringDoorbell(queueId, 1);
    EventTable.WaitResult w = rig.process.waitEvents(new int[] {mem.eventId()}, false, 5000);
    assertThat(w.status()).isEqualTo(EventTable.WaitResult.Status.COMPLETE);
    EventData.MemoryException data = (EventData.MemoryException) w.data().get(mem.eventId());
    assertThat(data.va()).isEqualTo(0x7777_0000L);
    assertThat(data.gpuId()).isEqualTo(rig.gpu);
    assertThat(data.notPresent()).isTrue();
    assertThat(data.reason()).isEqualTo("Page not present or supervisor privilege");
    assertThat(queue.awaitIdle(5000)).isTrue();
    assertThat(queue.error()).isInstanceOf(QueueError.MemoryFault.class);
    assertThat(queue.error().packetIndex()).isZero();
    Thread.sleep(50);
    assertThat(seen).as("nothing after the fault").hasSize(1);
  }

  @Test
  void badPacketsRaiseHardwareExceptions() throws Exception {
    CreateEventResult hw = rig.process.createEvent(EventType.HW_EXCEPTION.value(), false, 0, 0);
    host.atomic32(AtomicOp.SWAP, RING, 7, 0); // not an HSA packet type
    ring(0);
    EventTable.WaitResult w = rig.process.waitEvents(new int[] {hw.eventId()}, false, 5000);
    assertThat(w.status()).isEqualTo(EventTable.WaitResult.Status.COMPLETE);
    assertThat(queue.error()).isInstanceOf(QueueError.InvalidPacket.class);
    assertThat(queue.error().describe()).contains("invalid packet type 7");
  }

  @Test
  void consumerErrorsStopTheQueue() throws Exception {
    dispatch(0, 0xdead, 0);
    ring(0);
    assertThat(queue.awaitIdle(5000)).isTrue();
    assertThat(queue.error()).isInstanceOf(QueueError.ExecutionFailed.class);
    assertThat(queue.error().describe()).contains("illegal instruction");
  }

  @Test
  void packetsWaitForAConsumer() throws Exception {
    rig.device.setPacketConsumer(null);
    dispatch(0, 0x4000, 0);
    ring(0);
    Thread.sleep(50);
    assertThat(queue.processed()).isZero();
    rig.device.setPacketConsumer((packet, q) -> seen.add(packet));
    assertThat(queue.awaitIdle(5000)).isTrue();
    assertThat(seen).hasSize(1);
  }

  @Test
  void theGpuCanRingADoorbellItMapped() throws Exception {
    dispatch(0, 0x5000, 0);
    rig.vm.store64(DOORBELLS + created.doorbellByteOffset(), 0);
    assertThat(queue.awaitIdle(5000)).isTrue();
    assertThat(seen).hasSize(1);
    assertThat(created.doorbellOffset() >>> 62).as("doorbell mmap type").isEqualTo(3);
    assertThat((created.doorbellOffset() >>> 46) & 0xffff).isEqualTo(rig.gpu);
  }

  @Test
  void destroyStopsTheProcessor() throws Exception {
    rig.process.destroyQueue(queueId);
    assertThat(rig.process.queue(queueId)).isNull();
    assertThatThrownBy(() -> rig.process.destroyQueue(queueId)).isInstanceOfSatisfying(KfdException.class,
        e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL));
    Thread.sleep(20);
    assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().endsWith("-q" + queueId) && t.isAlive());
  }
}
