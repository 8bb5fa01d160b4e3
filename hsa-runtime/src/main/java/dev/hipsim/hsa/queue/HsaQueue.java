package dev.hipsim.hsa.queue;

import static dev.hipsim.hsa.queue.AmdQueueLayout.*;

import dev.hipsim.hsa.GpuAgent;
import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.HsaStatus;
import dev.hipsim.hsa.memory.Allocation;
import dev.hipsim.hsa.memory.MemoryManager;
import dev.hipsim.hsa.memory.MemoryPool;
import dev.hipsim.hsa.signal.Signal;
import dev.hipsim.hsa.signal.SignalCondition;
import dev.hipsim.hsa.signal.SignalManager;
import dev.hipsim.isa.mem.AtomicOp;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;
import dev.hipsim.kfd.AllocFlags;
import dev.hipsim.kfd.CreateQueueArgs;
import dev.hipsim.kfd.CreateQueueResult;
import dev.hipsim.kfd.KfdException;
import dev.hipsim.kfd.KfdProcess;
import dev.hipsim.kfd.ProcessApertures;
import dev.hipsim.kfd.queue.AmdSignal;
import dev.hipsim.kfd.queue.AqlQueue;
import dev.hipsim.kfd.queue.QueueError;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A user-mode AQL queue as ROCr's AqlQueue sets it up and CLR submits to it: a ring of 64-byte packets in
 * double-mapped system memory, an {@code amd_queue_t} holding the write and read dispatch ids, and a hardware
 * doorbell. Submission reserves a slot with an atomic add on {@code write_dispatch_id}, waits while the ring is full,
 * writes bytes 4..63, publishes the header and setup with a release store and rings the doorbell with the index.
 *
 * <p>Before a dispatch that needs private memory is published, the queue makes sure its scratch backing is large
 * enough and writes {@code scratch_backing_memory_location}, {@code scratch_backing_memory_byte_size} and
 * {@code scratch_wave64_lane_byte_size} (and ROCr's buffer descriptor and COMPUTE_TMPRING_SIZE): the packet
 * processor reads them when it starts the dispatch. The backing only grows, so a packet queued earlier always finds
 * at least what it needs; a replaced backing is freed once every packet submitted before the change completed.
 *
 * <p>Thread-safe: several threads may submit to one queue.
 */
public final class HsaQueue {
  private static final AtomicLong NEXT_ID = new AtomicLong();
  private static final int PACKET = 64;
  private static final long MAX_PARK_NANOS = 500_000;
  private static final long ERROR_POLL_NANOS = 50_000_000;
  /** SQ_BUF_RSRC_WORD1.SWIZZLE_ENABLE. */
  private static final int SRD1_SWIZZLE_ENABLE = 1 << 31;
  /**
   * SQ_BUF_RSRC_WORD3 for GFX9 scratch as ROCr fills it: DST_SEL X/Y/Z/W, NUM_FORMAT UINT, DATA_FORMAT 32,
   * ELEMENT_SIZE 4 bytes, INDEX_STRIDE 64, ADD_TID_ENABLE, TYPE buffer.
   */
  static final int SRD3_GFX9 = 4 | 5 << 3 | 6 << 6 | 7 << 9 | 4 << 12 | 4 << 15 | 1 << 19 | 3 << 21 | 1 << 23;

  private record Retired(Allocation backing, long beforeIndex) {}

  private final GpuAgent agent;
  private final KfdProcess process;
  private final MemoryManager memory;
  private final SignalManager signals;
  private final GpuMemory host;
  private final long scratchLimit;
  private final Allocation ring;
  private final Allocation descriptor;
  private final long doorbellSignal;
  private final long doorbell;
  private final int size;
  private final int queueId;
  private final long id;
  private final int groupApertureHi;
  private final int privateApertureHi;
  private ScratchPlan scratch;
  private Allocation scratchBacking;
  private final List<Retired> retired = new ArrayList<>();
  private volatile boolean destroyed;

  private HsaQueue(GpuAgent agent, KfdProcess process, MemoryManager memory, SignalManager signals, long scratchLimit,
      Allocation ring, Allocation descriptor, long doorbellSignal, long doorbell, int size, int queueId, long id,
      ProcessApertures apertures) {
    this.agent = agent;
    this.process = process;
    this.memory = memory;
    this.signals = signals;
    this.host = memory.hostView();
    this.scratchLimit = scratchLimit;
    this.ring = ring;
    this.descriptor = descriptor;
    this.doorbellSignal = doorbellSignal;
    this.doorbell = doorbell;
    this.size = size;
    this.queueId = queueId;
    this.id = id;
    this.groupApertureHi = (int) (apertures.ldsBase() >>> 32);
    this.privateApertureHi = (int) (apertures.scratchBase() >>> 32);
  }

  /**
   * {@code hsa_queue_create}: a queue of {@code packets} slots (a power of two in
   * [{@link GpuAgent#QUEUE_MIN_PACKETS}, {@link GpuAgent#QUEUE_MAX_PACKETS}]) on {@code agent}.
   *
   * @param systemPool fine-grained system memory for the ring and the {@code amd_queue_t}
   * @param doorbellPage the process's doorbell buffer on the agent's GPU
   */
  public static HsaQueue create(GpuAgent agent, int packets, KfdProcess process, MemoryManager memory,
      SignalManager signals, MemoryPool systemPool, Allocation doorbellPage, long scratchLimit) throws HsaException {
    if (packets < GpuAgent.QUEUE_MIN_PACKETS || packets > GpuAgent.QUEUE_MAX_PACKETS || Integer.bitCount(packets) != 1) {
      throw new HsaException(HsaStatus.INVALID_ARGUMENT, "queue size must be a power of two from "
          + GpuAgent.QUEUE_MIN_PACKETS + " to " + GpuAgent.QUEUE_MAX_PACKETS + " packets: " + packets);
    }
    int gpu = agent.gpuId();
    long ringBytes = (long) packets * PACKET;
    List<Allocation> taken = new ArrayList<>();
    long doorbellSignal = 0;
    try {
      Allocation ring = memory.allocate(systemPool, ringBytes, 2, AllocFlags.GTT | AllocFlags.WRITABLE
          | AllocFlags.EXECUTABLE | AllocFlags.AQL_QUEUE_MEM | AllocFlags.COHERENT | AllocFlags.NO_SUBSTITUTE, gpu,
          List.of(gpu));
      taken.add(ring);
      Allocation desc = memory.allocate(systemPool, AmdQueueLayout.SIZE);
      taken.add(desc);
      doorbellSignal = signals.allocateSlot();
      ProcessApertures apertures = apertures(process, gpu);
      GpuMemory host = memory.hostView();
      byte[] invalid = new byte[(int) ringBytes];
      for (int i = 0; i < packets; i++) invalid[i * PACKET] = (byte) PacketType.INVALID.ordinal();
      host.write(ring.address(), invalid, 0, invalid.length);

      long q = desc.address();
      long queueUid = NEXT_ID.getAndIncrement();
      host.write(q, new byte[AmdQueueLayout.SIZE], 0, AmdQueueLayout.SIZE);
      host.store32(q + TYPE, TYPE_MULTIPLE);
      host.store32(q + FEATURES, FEATURE_KERNEL_DISPATCH);
      host.store64(q + BASE_ADDRESS, ring.address());
      host.store64(q + DOORBELL_SIGNAL, doorbellSignal);
      host.store32(q + QUEUE_SIZE, packets);
      host.store64(q + ID, queueUid);
      host.store32(q + GROUP_SEGMENT_APERTURE_BASE_HI, (int) (apertures.ldsBase() >>> 32));
      host.store32(q + PRIVATE_SEGMENT_APERTURE_BASE_HI, (int) (apertures.scratchBase() >>> 32));
      host.store32(q + MAX_CU_ID, agent.computeUnits() - 1);
      host.store32(q + MAX_WAVE_ID, agent.maxWavesPerCu() - 1);
      host.store32(q + READ_DISPATCH_ID_FIELD_BASE_BYTE_OFFSET, READ_DISPATCH_ID);
      host.store32(q + QUEUE_PROPERTIES, PROPERTIES_IS_PTR64);

      CreateQueueResult created = process.createQueue(CreateQueueArgs.aql(gpu, ring.address(), ringBytes,
          q + WRITE_DISPATCH_ID, q + READ_DISPATCH_ID));
      long doorbell = doorbellPage.address() + created.doorbellByteOffset();
      host.store64(doorbellSignal + AmdSignal.KIND, SignalManager.KIND_DOORBELL);
      host.store64(doorbellSignal + AmdSignal.VALUE, doorbell); // hardware_doorbell_ptr
      host.store64(doorbellSignal + AmdSignal.QUEUE_PTR, q);
      return new HsaQueue(agent, process, memory, signals, scratchLimit, ring, desc, doorbellSignal, doorbell, packets,
          created.queueId(), queueUid, apertures);
    } catch (HsaException | KfdException | GpuMemoryFault e) {
      for (Allocation a : taken) {
        try {
          memory.free(a.address());
        } catch (HsaException ignored) {
          // freeing what we just allocated cannot fail
        }
      }
      if (doorbellSignal != 0) signals.releaseSlot(doorbellSignal);
      if (e instanceof HsaException h) throw h;
      throw new HsaException(HsaStatus.INVALID_QUEUE_CREATION, "creating a " + packets + "-packet queue on " + agent
          + ": " + e.getMessage(), e);
    }
  }

  private static ProcessApertures apertures(KfdProcess process, int gpu) throws HsaException {
    for (ProcessApertures a : process.getProcessAperturesNew()) if (a.gpuId() == gpu) return a;
    throw new HsaException(HsaStatus.INVALID_AGENT, "the driver reports no apertures for gpu_id 0x"
        + Integer.toHexString(gpu));
  }

  // ---------------------------------------------------------------- identity

  public GpuAgent agent() {
    return agent;
  }

  /** The {@code hsa_queue_t*}: the {@code amd_queue_t} address (what kernels receive as queue_ptr). */
  public long address() {
    return descriptor.address();
  }

  /** {@code hsa_queue_t.base_address}: the ring. */
  public long ringAddress() {
    return ring.address();
  }

  /** Ring size in packets. */
  public int size() {
    return size;
  }

  /** {@code hsa_queue_t.id}. */
  public long id() {
    return id;
  }

  /** The driver's queue id. */
  public int kfdQueueId() {
    return queueId;
  }

  /** The queue's doorbell signal ({@code hsa_queue_t.doorbell_signal}, an {@code amd_signal_t} of kind DOORBELL). */
  public long doorbellSignal() {
    return doorbellSignal;
  }

  /** The hardware doorbell's virtual address. */
  public long doorbellAddress() {
    return doorbell;
  }

  /** {@code amd_queue_t.group_segment_aperture_base_hi} (CLR's hidden_shared_base). */
  public int groupSegmentApertureBaseHi() {
    return groupApertureHi;
  }

  /** {@code amd_queue_t.private_segment_aperture_base_hi} (CLR's hidden_private_base). */
  public int privateSegmentApertureBaseHi() {
    return privateApertureHi;
  }

  // ---------------------------------------------------------------- indices

  /** {@code hsa_queue_load_read_index_scacquire}. */
  public long loadReadIndex() throws HsaException {
    return atomic64(AtomicOp.OR, READ_DISPATCH_ID, 0);
  }

  /** {@code hsa_queue_load_write_index_scacquire}. */
  public long loadWriteIndex() throws HsaException {
    return atomic64(AtomicOp.OR, WRITE_DISPATCH_ID, 0);
  }

  /** {@code hsa_queue_add_write_index_screlease}: reserves {@code n} slots; returns the first reserved index. */
  public long addWriteIndex(long n) throws HsaException {
    checkAlive();
    return atomic64(AtomicOp.ADD, WRITE_DISPATCH_ID, n);
  }

  private long atomic64(AtomicOp op, int field, long value) throws HsaException {
    try {
      return host.atomic64(op, address() + field, value, 0);
    } catch (GpuMemoryFault f) {
      throw new HsaException(HsaStatus.INVALID_QUEUE, this + ": " + f.getMessage(), f);
    }
  }

  // ---------------------------------------------------------------- submission

  /**
   * Submits one 64-byte packet (its header and setup in bytes 0..3) the way CLR's dispatchGenericAqlPacket does;
   * returns the packet's dispatch id.
   */
  public long submit(byte[] packet) throws HsaException {
    if (packet.length != PACKET) {
      throw new HsaException(HsaStatus.INVALID_PACKET_FORMAT, "an AQL packet is 64 bytes, not " + packet.length);
    }
    long index = addWriteIndex(1);
    awaitSpace(index);
    writePacket(index, packet);
    ringDoorbell(index);
    return index;
  }

  /**
   * Submits a kernel dispatch packet, first sizing the queue's scratch for its private segment (the packet's
   * {@code private_segment_size} and work-group size decide it).
   */
  public long dispatch(byte[] packet) throws HsaException {
    if (packet.length != PACKET) {
      throw new HsaException(HsaStatus.INVALID_PACKET_FORMAT, "an AQL packet is 64 bytes, not " + packet.length);
    }
    return dispatch(packet, le32(packet, 24) & 0xffff_ffffL);
  }

  /**
   * Submits a kernel dispatch packet with scratch for {@code privateSize} bytes per work-item, which may exceed the
   * packet's {@code private_segment_size}: the device gives each wave the larger of that and the descriptor's
   * fixed size, and CLR caps a dynamic-stack packet at 16 KiB even when the fixed size is larger.
   */
  public long dispatch(byte[] packet, long privateSize) throws HsaException {
    if (packet.length != PACKET) {
      throw new HsaException(HsaStatus.INVALID_PACKET_FORMAT, "an AQL packet is 64 bytes, not " + packet.length);
    }
    if (privateSize > 0) {
      long items = (long) le16(packet, 4) * le16(packet, 6) * le16(packet, 8);
      ensureScratch(privateSize, (int) Math.max(1, (items + ScratchPlan.LANES - 1) / ScratchPlan.LANES));
    }
    return submit(packet);
  }

  /** Waits while the slot of {@code index} still holds a packet the processor has not taken. */
  public void awaitSpace(long index) throws HsaException {
    long park = 1_000;
    while (index - loadReadIndex() >= size) {
      QueueError e = error().orElse(null);
      if (e != null) {
        throw new HsaException(HsaStatus.INVALID_QUEUE, this + " stopped with packets pending: " + e.describe());
      }
      LockSupport.parkNanos(park);
      park = Math.min(MAX_PARK_NANOS, park * 2);
    }
  }

  /** Writes bytes 4..63 of the packet into its slot, then the header and setup dword with a release store. */
  public void writePacket(long index, byte[] packet) throws HsaException {
    long slot = ring.address() + (index & (size - 1)) * PACKET;
    try {
      host.write(slot + 4, packet, 4, PACKET - 4);
      host.atomic32(AtomicOp.SWAP, slot, le32(packet, 0), 0);
    } catch (GpuMemoryFault f) {
      throw new HsaException(HsaStatus.INVALID_QUEUE, this + ": " + f.getMessage(), f);
    }
  }

  /** Rings the doorbell with a dispatch id: a 64-bit store to the doorbell register, as ROCr does on GFX9+. */
  public void ringDoorbell(long index) throws HsaException {
    try {
      host.store64(doorbell, index);
    } catch (GpuMemoryFault f) {
      throw new HsaException(HsaStatus.INVALID_QUEUE, this + ": " + f.getMessage(), f);
    }
  }

  /** Why the packet processor stopped (a memory fault or a bad packet), if it did. */
  public Optional<QueueError> error() {
    AqlQueue q = process.queue(queueId);
    return q == null ? Optional.empty() : Optional.ofNullable(q.error());
  }

  /**
   * Waits until {@code signal} drops to 0 (the usual completion), re-checking every few milliseconds whether the
   * packet processor stopped: a stopped queue will never complete it, so its error is thrown instead of hanging, as
   * ROCr's queue-error callback would report it. Returns false on timeout.
   */
  public boolean awaitCompletion(Signal signal, long timeoutNanos) throws HsaException {
    long start = System.nanoTime();
    while (true) {
      long left = timeoutNanos == Signal.FOREVER ? Signal.FOREVER : timeoutNanos - (System.nanoTime() - start);
      if (signal.wait(SignalCondition.EQ, 0, Math.min(left, ERROR_POLL_NANOS)) == 0) return true;
      QueueError e = error().orElse(null);
      if (e != null) throw new HsaException(statusOf(e), this + " stopped: " + e.describe());
      if (timeoutNanos != Signal.FOREVER && System.nanoTime() - start >= timeoutNanos) return false;
    }
  }

  private static HsaStatus statusOf(QueueError e) {
    if (e instanceof QueueError.MemoryFault) return HsaStatus.MEMORY_APERTURE_VIOLATION;
    if (e instanceof QueueError.InvalidPacket) return HsaStatus.INVALID_PACKET_FORMAT;
    return HsaStatus.EXCEPTION;
  }

  // ---------------------------------------------------------------- scratch

  /** The scratch backing currently published in the {@code amd_queue_t}, if any dispatch needed one. */
  public synchronized Optional<Allocation> scratchBacking() {
    return Optional.ofNullable(scratchBacking);
  }

  private synchronized void ensureScratch(long privateSize, int wavesPerGroup) throws HsaException {
    checkAlive();
    reclaimScratch();
    long laneGranule = ScratchPlan.WAVE_GRANULE / ScratchPlan.LANES;
    long lane = (privateSize + laneGranule - 1) / laneGranule * laneGranule;
    if (scratch != null && scratch.laneBytes() >= lane && scratch.slots() >= wavesPerGroup) return;
    long want = Math.max(lane, scratch == null ? 0 : scratch.laneBytes());
    long maxSlots = (long) agent.computeUnits() * agent.maxScratchSlotsPerCu();
    ScratchPlan plan = ScratchPlan.of(want, maxSlots, Math.min(scratchLimit, agent.vramPool().size()), wavesPerGroup);
    Allocation backing;
    while (true) {
      try {
        backing = memory.allocate(agent.vramPool(), plan.bytes());
        break;
      } catch (HsaException e) {
        // As ROCr retries with less: fewer slots only limit how many waves run at once.
        if (e.status() != HsaStatus.OUT_OF_RESOURCES || plan.slots() / 2 < wavesPerGroup) {
          throw new HsaException(HsaStatus.OUT_OF_RESOURCES, String.format("no VRAM for %d bytes of scratch per "
              + "work-item on %s: %s", privateSize, agent, e.getMessage()), e);
        }
        plan = plan.withSlots(plan.slots() / 2);
      }
    }
    if (scratchBacking != null) retired.add(new Retired(scratchBacking, loadWriteIndex()));
    scratch = plan;
    scratchBacking = backing;
    publishScratch(backing.address(), plan, maxSlots);
  }

  private void publishScratch(long base, ScratchPlan plan, long maxSlots) throws HsaException {
    long q = address();
    long bytes = plan.bytes();
    int xcc = Math.max(1, agent.xccCount());
    long wavesize = plan.waveBytes() / ScratchPlan.WAVE_GRANULE;
    long waves = Math.min(Math.min(bytes / xcc / plan.waveBytes(), maxSlots), 0xfff);
    try {
      host.store32(q + SCRATCH_RESOURCE_DESCRIPTOR, (int) base);
      host.store32(q + SCRATCH_RESOURCE_DESCRIPTOR + 4, (int) ((base >>> 32) & 0xffff) | SRD1_SWIZZLE_ENABLE);
      host.store32(q + SCRATCH_RESOURCE_DESCRIPTOR + 8, (int) Math.min(bytes / xcc, 0xffff_ffffL));
      host.store32(q + SCRATCH_RESOURCE_DESCRIPTOR + 12, SRD3_GFX9);
      host.store32(q + COMPUTE_TMPRING_SIZE, (int) (waves | (wavesize & 0x1fff) << 12));
      host.store64(q + SCRATCH_BACKING_MEMORY_LOCATION, base);
      host.store64(q + SCRATCH_BACKING_MEMORY_BYTE_SIZE, bytes);
      host.store32(q + SCRATCH_WAVE64_LANE_BYTE_SIZE, (int) plan.laneBytes());
    } catch (GpuMemoryFault f) {
      throw new HsaException(HsaStatus.INVALID_QUEUE, this + ": " + f.getMessage(), f);
    }
  }

  /** Frees replaced backings that no packet can still be using. */
  private void reclaimScratch() throws HsaException {
    if (retired.isEmpty()) return;
    AqlQueue q = process.queue(queueId);
    long done = q == null ? Long.MAX_VALUE : q.processed();
    for (Iterator<Retired> it = retired.iterator(); it.hasNext(); ) {
      Retired r = it.next();
      if (done >= r.beforeIndex()) {
        memory.free(r.backing().address());
        it.remove();
      }
    }
  }

  // ---------------------------------------------------------------- teardown

  /** {@code hsa_queue_destroy}: stops the packet processor and frees the ring, descriptor and scratch. */
  public synchronized void destroy() throws HsaException {
    checkAlive();
    destroyed = true;
    try {
      process.destroyQueue(queueId);
    } catch (KfdException e) {
      throw new HsaException(HsaStatus.INVALID_QUEUE, this + ": " + e.getMessage(), e);
    }
    memory.free(ring.address());
    memory.free(descriptor.address());
    if (scratchBacking != null) memory.free(scratchBacking.address());
    for (Retired r : retired) memory.free(r.backing().address());
    retired.clear();
    signals.releaseSlot(doorbellSignal);
  }

  public boolean isDestroyed() {
    return destroyed;
  }

  private void checkAlive() throws HsaException {
    if (destroyed) throw new HsaException(HsaStatus.INVALID_QUEUE, this + " was destroyed");
  }

  private static int le16(byte[] b, int at) {
    return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8;
  }

  private static int le32(byte[] b, int at) {
    return le16(b, at) | le16(b, at + 2) << 16;
  }

  @Override
  public String toString() {
    return String.format("queue %d (0x%x) on %s", id, address(), agent.name());
  }
}
