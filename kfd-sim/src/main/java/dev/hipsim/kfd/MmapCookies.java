package dev.hipsim.kfd;

/** KFD's mmap offsets (kfd_priv.h): bits 63:62 the type, 61:46 the gpu_id, the rest type-specific. */
public final class MmapCookies {
  private MmapCookies() {}

  public static final int TYPE_SHIFT = 62;
  public static final long TYPE_DOORBELL = 3L << TYPE_SHIFT;
  public static final long TYPE_EVENTS = 2L << TYPE_SHIFT;
  public static final long TYPE_RESERVED_MEM = 1L << TYPE_SHIFT;
  public static final long TYPE_MMIO = 0L;
  public static final int GPU_ID_SHIFT = 46;

  public static long gpuId(int gpuId) {
    return ((long) gpuId & 0xffff) << GPU_ID_SHIFT;
  }
}
