package dev.hipsim.hsa;

/**
 * Settings fixed at {@link HsaRuntime#init}: what ROCr takes from the environment and the driver.
 *
 * @param xnack whether the process runs with XNACK (page-fault retry) on, as {@code HSA_XNACK=1} asks; it decides
 *     the agents' target IDs ({@code :xnack+} or {@code :xnack-}) and so which code objects load
 * @param sramecc whether the GPUs report SRAM ECC enabled (MI210 and MI300X ship with it on)
 * @param scratchLimitBytes the most virtual memory one queue's scratch backing may take; pages are backed only when
 *     a wave touches them, so a large limit costs nothing until used
 * @param vaBase start of the range the runtime places GPU allocations in (libhsakmt's SVM aperture)
 * @param vaSize size of that range
 * @param stackSizeBytes per-work-item stack for kernels with a dynamic call stack (CLR's device stack size)
 */
public record HsaOptions(boolean xnack, boolean sramecc, long scratchLimitBytes, long vaBase, long vaSize,
    int stackSizeBytes) {

  /** 1 GiB: the default cap on one queue's scratch backing. */
  public static final long DEFAULT_SCRATCH_LIMIT = 1L << 30;
  /** 16 TiB: far from where Linux puts a process's own mappings (0x55…, 0x7f…). */
  public static final long DEFAULT_VA_BASE = 0x1000_0000_0000L;
  public static final long DEFAULT_VA_SIZE = 0x1000_0000_0000L;
  /** CLR's default device stack: 1 KiB per work-item (hipLimitStackSize). */
  public static final int DEFAULT_STACK_SIZE = 1024;
  /** CLR never gives a dynamic-stack dispatch more than 16 KiB per work-item. */
  public static final int MAX_STACK_SIZE = 16 * 1024;

  public HsaOptions {
    if (scratchLimitBytes < 4096) throw new IllegalArgumentException("scratch limit below one page: " + scratchLimitBytes);
    if ((vaBase & 0xfff) != 0 || vaSize <= 0 || vaBase <= 0 || vaBase + vaSize > (1L << 47)) {
      throw new IllegalArgumentException(String.format("VA range [0x%x, +0x%x) is not page-aligned inside the 47-bit "
          + "GPUVM", vaBase, vaSize));
    }
    if (stackSizeBytes < 0 || stackSizeBytes > MAX_STACK_SIZE) {
      throw new IllegalArgumentException("stack size must be 0.." + MAX_STACK_SIZE + ": " + stackSizeBytes);
    }
  }

  public static HsaOptions defaults() {
    return new HsaOptions(false, true, DEFAULT_SCRATCH_LIMIT, DEFAULT_VA_BASE, DEFAULT_VA_SIZE, DEFAULT_STACK_SIZE);
  }

  public HsaOptions withXnack(boolean on) {
    return new HsaOptions(on, sramecc, scratchLimitBytes, vaBase, vaSize, stackSizeBytes);
  }

  public HsaOptions withSramecc(boolean on) {
    return new HsaOptions(xnack, on, scratchLimitBytes, vaBase, vaSize, stackSizeBytes);
  }

  public HsaOptions withScratchLimit(long bytes) {
    return new HsaOptions(xnack, sramecc, bytes, vaBase, vaSize, stackSizeBytes);
  }

  public HsaOptions withStackSize(int bytes) {
    return new HsaOptions(xnack, sramecc, scratchLimitBytes, vaBase, vaSize, bytes);
  }
}
