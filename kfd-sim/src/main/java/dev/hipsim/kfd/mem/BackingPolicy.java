package dev.hipsim.kfd.mem;

/**
 * When the driver gives a new buffer's frames host memory: at allocation, as long as the simulated memory already
 * backed plus the buffer stays within {@code allocationBudgetBytes}, and otherwise on first touch.
 *
 * <p>A GPU's VRAM exists before a kernel writes it; backed lazily, a kernel that is the first to write its output
 * buffer pays for that memory inside the dispatch: a {@code long[512]} per page, and the host's page fault when the
 * heap's memory is fresh. Cold vadd 4M spent 15-25 ms of its 70-90 ms doing that. Backed at allocation, the cost
 * moves to {@code hipMalloc}, where a real driver clears new VRAM too. The budget keeps what a program allocates and
 * never touches (a large workspace, a 64 GiB device's worth of buffers) from filling the heap: past it, memory is
 * backed on first touch as before.
 */
public record BackingPolicy(long allocationBudgetBytes) {
  /** Every frame backed on first touch. */
  public static final BackingPolicy LAZY = new BackingPolicy(0);

  public BackingPolicy {
    if (allocationBudgetBytes < 0) {
      throw new IllegalArgumentException("allocation budget must not be negative: " + allocationBudgetBytes);
    }
  }

  /** Backing at allocation while the simulated memory's host pages fill at most a quarter of the JVM's heap. */
  public static BackingPolicy quarterOfHeap() {
    return new BackingPolicy(Runtime.getRuntime().maxMemory() / 4);
  }

  /** Whether a buffer of {@code bytes} is backed now, with {@code backedBytes} of host memory held already. */
  public boolean backsAtAllocation(long bytes, long backedBytes) {
    return bytes <= allocationBudgetBytes - backedBytes;
  }
}
