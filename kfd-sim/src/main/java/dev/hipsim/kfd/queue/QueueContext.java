package dev.hipsim.kfd.queue;

import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;
import dev.hipsim.kfd.ProcessApertures;
import dev.hipsim.kfd.topology.NodeProperties;

/** What the packet processor tells a {@link AqlPacketConsumer} about the queue a packet came from. */
public interface QueueContext {
  int queueId();

  int gpuId();

  /** The agent's topology properties (CUs, wave size, LDS size ...). */
  NodeProperties node();

  /** The queue's process address space on this device: kernel objects, kernargs, buffers, signals. */
  GpuMemory memory();

  /** The process's LDS, scratch and GPUVM apertures on this device (flat addressing). */
  ProcessApertures apertures();

  long ringBaseAddress();

  long ringSizeBytes();

  long readPointerAddress();

  long writePointerAddress();

  /**
   * The {@code hsa_queue_t}/{@code amd_queue_t} address, as the CP derives it: the read pointer minus the
   * {@code read_dispatch_id_field_base_byte_offset} stored right after it. This is the kernel's queue_ptr.
   */
  default long queueAddress() throws GpuMemoryFault {
    long offset = memory().load32(readPointerAddress() + 8) & 0xffff_ffffL;
    return readPointerAddress() - offset;
  }
}
