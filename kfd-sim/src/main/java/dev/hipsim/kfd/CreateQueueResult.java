package dev.hipsim.kfd;

/**
 * {@code CREATE_QUEUE} outputs. {@code doorbellOffset} is the mmap cookie of the process's doorbell pages (type 3 in
 * bits 63:62, gpu_id in 61:46) or'ed with this queue's byte offset in them (SOC15).
 */
public record CreateQueueResult(int queueId, long doorbellOffset) {
  /** The queue's doorbell as a byte offset in the process's doorbell buffer. */
  public int doorbellByteOffset() {
    return (int) (doorbellOffset & (dev.hipsim.kfd.queue.DoorbellSlice.BYTES - 1));
  }
}
