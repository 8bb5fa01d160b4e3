package dev.hipsim.hsa.memory;

import dev.hipsim.hsa.Agent;
import dev.hipsim.hsa.HsaException;

/**
 * {@code hsa_amd_memory_pool_t}: memory an agent owns, described as ROCr describes it (segment, global flags, size,
 * granule). GPU pools hold VRAM (coarse-grained: coherent for the GPU only between dispatches) and the group segment
 * (LDS, not allocatable); the CPU's hold system memory (fine-grained and kernarg, visible to every GPU).
 */
public final class MemoryPool {
  /** {@code hsa_amd_segment_t}. */
  public enum Segment { GLOBAL, READONLY, PRIVATE, GROUP }

  /** Where the pool's bytes physically are. */
  public enum Placement {
    /** The owning GPU's VRAM. */
    VRAM,
    /** System memory (GTT), mapped to every GPU. */
    SYSTEM,
    /** On-chip LDS: reported, never allocated. */
    LDS
  }

  /** {@code HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_*}. */
  public static final int KERNARG_INIT = 1;
  public static final int FINE_GRAINED = 2;
  public static final int COARSE_GRAINED = 4;
  public static final int EXTENDED_SCOPE_FINE_GRAINED = 8;

  /** Allocation granule and alignment: one 4 KiB page. */
  public static final long GRANULE = 4096;

  private final Agent owner;
  private final Segment segment;
  private final int globalFlags;
  private final Placement placement;
  private final long size;
  private final MemoryManager manager;

  public MemoryPool(Agent owner, Segment segment, int globalFlags, Placement placement, long size,
      MemoryManager manager) {
    this.owner = owner;
    this.segment = segment;
    this.globalFlags = globalFlags;
    this.placement = placement;
    this.size = size;
    this.manager = manager;
  }

  /** {@code hsa_amd_memory_pool_allocate}: returns the address of {@code bytes} new bytes (zeroed). */
  public long allocate(long bytes) throws HsaException {
    return manager.allocate(this, bytes).address();
  }

  public Agent owner() {
    return owner;
  }

  public Segment segment() {
    return segment;
  }

  /** {@code HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS}. */
  public int globalFlags() {
    return globalFlags;
  }

  public Placement placement() {
    return placement;
  }

  /** {@code HSA_AMD_MEMORY_POOL_INFO_SIZE}, in bytes. */
  public long size() {
    return size;
  }

  public boolean isFineGrained() {
    return (globalFlags & FINE_GRAINED) != 0;
  }

  public boolean isCoarseGrained() {
    return (globalFlags & COARSE_GRAINED) != 0;
  }

  public boolean isKernargInit() {
    return (globalFlags & KERNARG_INIT) != 0;
  }

  /** {@code HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED}. */
  public boolean runtimeAllocAllowed() {
    return placement != Placement.LDS;
  }

  /** {@code HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL}: system memory is mapped to every GPU. */
  public boolean accessibleByAll() {
    return placement == Placement.SYSTEM;
  }

  public long allocationGranule() {
    return runtimeAllocAllowed() ? GRANULE : 0;
  }

  @Override
  public String toString() {
    StringBuilder flags = new StringBuilder();
    if (isKernargInit()) flags.append("KERNARG, ");
    if (isFineGrained()) flags.append("FINE GRAINED, ");
    if (isCoarseGrained()) flags.append("COARSE GRAINED, ");
    String f = flags.length() == 0 ? "" : "; FLAGS: " + flags.substring(0, flags.length() - 2);
    return "pool of " + owner.name() + " (" + placement + "; segment " + segment + f + ")";
  }
}
