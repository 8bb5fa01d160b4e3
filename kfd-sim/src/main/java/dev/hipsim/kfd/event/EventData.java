package dev.hipsim.kfd.event;

/** What a fired exception event carries ({@code struct kfd_event_data}'s union). */
public sealed interface EventData {
  /**
   * {@code kfd_hsa_memory_exception_data}: a GPU VM fault. {@code va} is the faulting page's address, as the VM
   * fault registers report it; the failure bits are ROCr's: not present, write to read-only, execute of NX.
   */
  record MemoryException(long va, int gpuId, boolean notPresent, boolean readOnly, boolean noExecute,
      boolean imprecise, String reason) implements EventData {}

  /** {@code kfd_hsa_hw_exception_data}: the queue or device hit an error it cannot continue from. */
  record HwException(int gpuId, int queueId, String reason) implements EventData {}
}
