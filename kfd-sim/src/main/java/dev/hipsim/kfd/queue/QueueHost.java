package dev.hipsim.kfd.queue;

import dev.hipsim.isa.mem.GpuMemoryFault;

/** What a queue's packet processor needs from the driver around it. */
public interface QueueHost {
  /** The device's registered consumer, or {@code null} while none is registered. */
  AqlPacketConsumer consumer();

  /** The GPU wrote an event id to a signal's mailbox and raised an interrupt. */
  void interrupt(int eventId);

  /** The queue stopped on a VM fault: the process's memory events fire. */
  void memoryFault(AqlQueue queue, GpuMemoryFault fault);

  /** The queue stopped on another error: the process's hardware-exception events fire. */
  void queueError(AqlQueue queue, QueueError error);
}
