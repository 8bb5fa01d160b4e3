package dev.hipsim.kfd.queue;

import dev.hipsim.isa.mem.AtomicOp;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;
import dev.hipsim.kfd.ProcessApertures;
import dev.hipsim.kfd.topology.NodeProperties;
import java.util.concurrent.locks.LockSupport;

/**
 * A user-mode AQL queue and the packet processor (the CP's HQD) that serves it on its own thread. Ringing the
 * doorbell with a packet's dispatch id makes every packet up to it eligible; the processor takes them in order,
 * waits for each header to leave INVALID, invalidates the slot and advances {@code read_dispatch_id}, runs barrier
 * packets itself and hands the others to the device's {@link AqlPacketConsumer}, then completes the packet's signal.
 * A fault or bad packet stops the queue; {@link #error()} says why.
 */
public final class AqlQueue implements QueueContext {
  private static final long MAX_POLL_NANOS = 1_000_000L;

  /** Creation properties, as validated by CREATE_QUEUE. */
  public record Properties(long ringBase, long ringBytes, long readPointer, long writePointer, int priority,
      int percentage) {}

  private final int queueId;
  private final NodeProperties node;
  private final GpuMemory memory;
  private final ProcessApertures apertures;
  private final Properties props;
  private final QueueHost host;
  private final Object monitor = new Object();
  private int doorbellIndex = -1;
  private long target;
  private long processed;
  private boolean stopping;
  private volatile QueueError error;
  private Thread worker;

  public AqlQueue(int queueId, NodeProperties node, GpuMemory memory, ProcessApertures apertures, Properties props,
      QueueHost host) {
    this.queueId = queueId;
    this.node = node;
    this.memory = memory;
    this.apertures = apertures;
    this.props = props;
    this.host = host;
  }

  void doorbell(int index) {
    this.doorbellIndex = index;
  }

  public int doorbellIndex() {
    return doorbellIndex;
  }

  /** Starts the packet processor thread. */
  public void start() {
    synchronized (monitor) {
      if (worker != null) return;
      worker = new Thread(this::run, "hipsim-cp-gpu" + node.gpuId() + "-q" + queueId);
      worker.setDaemon(true);
      worker.start();
    }
  }

  /** Stops the processor, waiting up to {@code millis} for the packet in progress to finish. */
  public void stop(long millis) throws InterruptedException {
    Thread t;
    synchronized (monitor) {
      stopping = true;
      monitor.notifyAll();
      t = worker;
    }
    if (t != null && t != Thread.currentThread()) {
      t.interrupt();
      t.join(millis);
    }
  }

  /** A doorbell write: packets with dispatch ids up to {@code value} may be processed. */
  public void ring(long value) {
    synchronized (monitor) {
      if (value + 1 > target) target = value + 1;
      monitor.notifyAll();
    }
  }

  /** Packets completed so far (the next dispatch id the processor will take). */
  public long processed() {
    synchronized (monitor) {
      return processed;
    }
  }

  /** Why the queue stopped, or {@code null} while it runs. */
  public QueueError error() {
    return error;
  }

  /** Waits until every packet rung so far is done or the queue stopped; false on timeout. */
  public boolean awaitIdle(long millis) throws InterruptedException {
    long deadline = System.currentTimeMillis() + millis;
    synchronized (monitor) {
      while (processed < target && error == null) {
        long left = deadline - System.currentTimeMillis();
        if (left <= 0) return false;
        monitor.wait(left);
      }
      return true;
    }
  }

  private void run() {
    long index = 0;
    long backoff = 1_000;
    while (true) {
      synchronized (monitor) {
        while (!stopping && (index >= target || error != null || host.consumer() == null)) {
          try {
            monitor.wait(host.consumer() == null ? 10 : 0);
          } catch (InterruptedException e) {
            if (stopping) return;
          }
        }
        if (stopping) return;
      }
      try {
        if (process(index)) {
          index++;
          backoff = 1_000;
          synchronized (monitor) {
            processed = index;
            monitor.notifyAll();
          }
        } else {
          // Rung but not yet published (several producers): poll the header with a growing pause.
          LockSupport.parkNanos(backoff);
          backoff = Math.min(MAX_POLL_NANOS, backoff * 2);
        }
      } catch (GpuMemoryFault f) {
        halt(new QueueError.MemoryFault(index, f));
        host.memoryFault(this, f);
      } catch (PacketExecutionException e) {
        QueueError err = new QueueError.ExecutionFailed(index, e);
        halt(err);
        host.queueError(this, err);
      } catch (InvalidPacket e) {
        QueueError err = new QueueError.InvalidPacket(index, e.header);
        halt(err);
        host.queueError(this, err);
      } catch (InterruptedException e) {
        synchronized (monitor) {
          if (stopping) return;
        }
      }
    }
  }

  private void halt(QueueError err) {
    synchronized (monitor) {
      error = err;
      monitor.notifyAll();
    }
  }

  private boolean process(long index)
      throws GpuMemoryFault, PacketExecutionException, InvalidPacket, InterruptedException {
    long slot = props.ringBase() + ((index * AqlPacket.SIZE) & (props.ringBytes() - 1));
    int first = memory.atomic32(AtomicOp.OR, slot, 0, 0);
    int header = first & 0xffff;
    AqlPacketType type = AqlPacketType.of(header & 0xff);
    if (type == AqlPacketType.INVALID) return false;
    if (type == null) throw new InvalidPacket(header);
    byte[] raw = new byte[AqlPacket.SIZE];
    memory.read(slot, raw, 0, raw.length);
    for (int k = 0; k < 4; k++) raw[k] = (byte) (first >>> (8 * k));
    AqlPacket packet = new AqlPacket(index, slot, raw);
    // The slot is consumed: hand it back to the producers before the work runs, as the CP does.
    memory.store16(slot, (short) ((header & ~0xff) | AqlPacketType.INVALID.ordinal()));
    memory.atomic64(AtomicOp.SWAP, props.readPointer(), index + 1, 0);
    if (type == AqlPacketType.BARRIER_AND || type == AqlPacketType.BARRIER_OR) {
      awaitDependencies(packet, type == AqlPacketType.BARRIER_AND);
    } else {
      AqlPacketConsumer consumer = host.consumer();
      if (consumer == null) throw new PacketExecutionException("no packet consumer registered for the device");
      consumer.execute(packet, this);
    }
    if (packet.completionSignal() != 0) AmdSignal.complete(memory, packet.completionSignal(), host);
    return true;
  }

  private void awaitDependencies(AqlPacket packet, boolean all) throws GpuMemoryFault, InterruptedException {
    long backoff = 1_000;
    while (true) {
      int pending = 0;
      int present = 0;
      for (int i = 0; i < 5; i++) {
        long signal = packet.dependentSignal(i);
        if (signal == 0) continue;
        present++;
        if (AmdSignal.value(memory, signal) != 0) pending++;
      }
      boolean ready = all ? pending == 0 : (present == 0 || pending < present);
      if (ready) return;
      synchronized (monitor) {
        if (stopping) throw new InterruptedException("queue destroyed");
      }
      LockSupport.parkNanos(backoff);
      backoff = Math.min(MAX_POLL_NANOS, backoff * 2);
    }
  }

  private static final class InvalidPacket extends Exception {
    private static final long serialVersionUID = 1L;
    final int header;

    InvalidPacket(int header) {
      super(null, null, false, false);
      this.header = header;
    }
  }

  // ---------------------------------------------------------------- QueueContext

  @Override
  public int queueId() {
    return queueId;
  }

  @Override
  public int gpuId() {
    return node.gpuId();
  }

  @Override
  public NodeProperties node() {
    return node;
  }

  @Override
  public GpuMemory memory() {
    return memory;
  }

  @Override
  public ProcessApertures apertures() {
    return apertures;
  }

  @Override
  public long ringBaseAddress() {
    return props.ringBase();
  }

  @Override
  public long ringSizeBytes() {
    return props.ringBytes();
  }

  @Override
  public long readPointerAddress() {
    return props.readPointer();
  }

  @Override
  public long writePointerAddress() {
    return props.writePointer();
  }

  public Properties properties() {
    return props;
  }
}
