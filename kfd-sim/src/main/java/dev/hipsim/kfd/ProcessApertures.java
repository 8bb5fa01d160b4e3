package dev.hipsim.kfd;

/**
 * {@code struct kfd_process_device_apertures} for one GPU (kfd_flat_memory.c, GFX9): the flat-address windows of
 * LDS and scratch (4 GiB each, in the high half of the 64-bit space) and the GPUVM range user allocations use.
 */
public record ProcessApertures(long ldsBase, long ldsLimit, long scratchBase, long scratchLimit, long gpuvmBase,
    long gpuvmLimit, int gpuId) {

  /** MAKE_LDS_APP_BASE_V9: 1 << 48. */
  public static final long LDS_BASE = 1L << 48;
  /** MAKE_SCRATCH_APP_BASE_V9: 2 << 48. */
  public static final long SCRATCH_BASE = 2L << 48;
  /** AMDGPU_VA_RESERVED_BOTTOM: the first 64 KiB stay unmapped. */
  public static final long GPUVM_BASE = 1L << 16;
  /** 48-bit VM up to the hole (AMDGPU_GMC_HOLE_START). */
  public static final long GPUVM_LIMIT = (1L << 47) - 1;

  public static ProcessApertures gfx9(int gpuId) {
    return new ProcessApertures(LDS_BASE, LDS_BASE | 0xffff_ffffL, SCRATCH_BASE, SCRATCH_BASE | 0xffff_ffffL,
        GPUVM_BASE, GPUVM_LIMIT, gpuId);
  }

  public boolean inGpuvm(long va, long size) {
    return va >= gpuvmBase && size >= 0 && va + size - 1 <= gpuvmLimit && va + size - 1 >= va;
  }
}
