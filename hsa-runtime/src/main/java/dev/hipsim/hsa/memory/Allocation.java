package dev.hipsim.hsa.memory;

/**
 * A block of memory the runtime allocated through the driver: where it is, how big, from which pool, and the KFD
 * buffer behind it.
 *
 * @param address its GPU virtual address (also the CPU address for system memory)
 * @param size bytes the caller asked for, rounded up to whole pages
 * @param span virtual address range it takes (twice the size for a double-mapped AQL ring)
 * @param pool the pool it came from
 * @param handle the KFD buffer handle
 * @param kfdFlags the {@code KFD_IOC_ALLOC_MEM_FLAGS_*} it was allocated with
 * @param gpuId the GPU whose VRAM holds it (or that the system buffer was allocated through)
 * @param mappedOn the gpu_ids whose page tables map it
 */
public record Allocation(long address, long size, long span, MemoryPool pool, long handle, int kfdFlags, int gpuId,
    java.util.List<Integer> mappedOn) {

  public Allocation {
    mappedOn = java.util.List.copyOf(mappedOn);
  }

  public boolean contains(long a) {
    return a >= address && a - address < span;
  }

  /** Whether {@code [a, a + length)} lies inside this allocation. */
  public boolean contains(long a, long length) {
    return length >= 0 && contains(a) && length <= span - (a - address);
  }

  public boolean isVram() {
    return pool.placement() == MemoryPool.Placement.VRAM;
  }

  @Override
  public String toString() {
    return String.format("[0x%x, 0x%x) from the %s", address, address + span, pool);
  }
}
