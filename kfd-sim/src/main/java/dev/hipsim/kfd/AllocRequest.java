package dev.hipsim.kfd;

import java.nio.ByteBuffer;

/**
 * {@code struct kfd_ioctl_alloc_memory_of_gpu_args}, inputs. For {@link AllocFlags#USERPTR}, {@code mmapOffset} is
 * the CPU address of the user memory and {@code userBuffer} the memory itself (shared, not copied); both are
 * ignored otherwise.
 */
public record AllocRequest(long vaAddr, long size, int gpuId, int flags, long mmapOffset, ByteBuffer userBuffer) {
  public static AllocRequest of(long vaAddr, long size, int gpuId, int flags) {
    return new AllocRequest(vaAddr, size, gpuId, flags, 0, null);
  }

  public static AllocRequest userptr(long vaAddr, long size, int gpuId, int flags, long cpuAddress,
      ByteBuffer buffer) {
    return new AllocRequest(vaAddr, size, gpuId, flags | AllocFlags.USERPTR, cpuAddress, buffer);
  }
}
