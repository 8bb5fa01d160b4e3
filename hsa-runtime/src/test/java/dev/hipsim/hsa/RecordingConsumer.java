package dev.hipsim.hsa;

import dev.hipsim.hsa.queue.AmdQueueLayout;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;
import dev.hipsim.kfd.queue.AqlPacket;
import dev.hipsim.kfd.queue.AqlPacketConsumer;
import dev.hipsim.kfd.queue.PacketExecutionException;
import dev.hipsim.kfd.queue.QueueContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A stand-in for the dispatcher: records every packet the packet processor hands over, with the kernarg bytes and
 * the queue's scratch fields as the device sees them through the GPU VM at that moment. It can be held at a gate.
 */
public final class RecordingConsumer implements AqlPacketConsumer {
  /** Kernarg bytes captured per dispatch. */
  public static final int KERNARG_BYTES = 512;

  /** One packet as the device received it. */
  public record Seen(AqlPacket packet, byte[] kernarg, long queueAddress, long scratchLocation, long scratchBytes,
      int scratchLaneBytes, int tmpring) {}

  private final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
  private volatile CountDownLatch gate;
  private volatile String failWith;

  /** Holds every packet until {@link #release()}. */
  public void hold() {
    gate = new CountDownLatch(1);
  }

  public void release() {
    CountDownLatch g = gate;
    gate = null;
    if (g != null) g.countDown();
  }

  /** Makes the next packets fail as an illegal instruction would. */
  public void failWith(String message) {
    failWith = message;
  }

  public List<Seen> seen() {
    synchronized (seen) {
      return List.copyOf(seen);
    }
  }

  @Override
  public void execute(AqlPacket packet, QueueContext queue) throws GpuMemoryFault, PacketExecutionException {
    CountDownLatch g = gate;
    if (g != null) {
      try {
        if (!g.await(20, TimeUnit.SECONDS)) throw new PacketExecutionException("test gate never opened");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new PacketExecutionException("interrupted at the gate");
      }
    }
    if (failWith != null) throw new PacketExecutionException(failWith);
    GpuMemory m = queue.memory();
    long q = queue.queueAddress();
    byte[] kernarg = new byte[KERNARG_BYTES];
    if (packet.kernargAddress() != 0) m.read(packet.kernargAddress(), kernarg, 0, kernarg.length);
    seen.add(new Seen(packet, kernarg, q, m.load64(q + AmdQueueLayout.SCRATCH_BACKING_MEMORY_LOCATION),
        m.load64(q + AmdQueueLayout.SCRATCH_BACKING_MEMORY_BYTE_SIZE),
        m.load32(q + AmdQueueLayout.SCRATCH_WAVE64_LANE_BYTE_SIZE), m.load32(q + AmdQueueLayout.COMPUTE_TMPRING_SIZE)));
  }
}
