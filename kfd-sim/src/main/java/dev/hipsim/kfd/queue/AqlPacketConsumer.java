package dev.hipsim.kfd.queue;

import dev.hipsim.isa.mem.GpuMemoryFault;

/**
 * Executes the packets of the device's queues: the dispatcher registers one with
 * {@link dev.hipsim.kfd.KfdDevice#setPacketConsumer}. The packet processor (the CP) calls it on the queue's own
 * thread, one packet at a time in queue order, for kernel-dispatch, agent-dispatch and vendor-specific packets; it
 * handles barrier packets, header invalidation, the read index and completion signals itself.
 *
 * <p>{@link #execute} returns when the packet's work is complete; the processor then signals its completion. A
 * {@link GpuMemoryFault} becomes a VM fault of the process (memory events fire, the queue stops), a
 * {@link PacketExecutionException} a hardware exception of the queue.
 */
@FunctionalInterface
public interface AqlPacketConsumer {
  void execute(AqlPacket packet, QueueContext queue) throws GpuMemoryFault, PacketExecutionException;
}
