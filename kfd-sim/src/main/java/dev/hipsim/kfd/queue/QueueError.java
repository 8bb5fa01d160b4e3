package dev.hipsim.kfd.queue;

import dev.hipsim.isa.mem.GpuMemoryFault;

/** Why a queue stopped processing. */
public sealed interface QueueError {
  /** The packet with this dispatch id that the queue stopped at. */
  long packetIndex();

  String describe();

  /** A GPU VM fault while reading the ring or executing a packet. */
  record MemoryFault(long packetIndex, GpuMemoryFault fault) implements QueueError {
    @Override
    public String describe() {
      return "packet " + packetIndex + ": " + fault.getMessage();
    }
  }

  /** A header whose type is not an HSA packet type. */
  record InvalidPacket(long packetIndex, int header) implements QueueError {
    @Override
    public String describe() {
      return String.format("packet %d: invalid packet type %d (header 0x%04x)", packetIndex, header & 0xff, header);
    }
  }

  /** The consumer could not execute the packet. */
  record ExecutionFailed(long packetIndex, PacketExecutionException cause) implements QueueError {
    @Override
    public String describe() {
      return "packet " + packetIndex + ": " + cause.getMessage();
    }
  }
}
