package dev.hipsim.hsa;

import dev.hipsim.bundle.target.TargetFeature;
import dev.hipsim.bundle.target.TargetId;
import dev.hipsim.hsa.memory.MemoryPool;
import dev.hipsim.kfd.topology.NodeProperties;
import java.util.List;

/**
 * A simulated GPU as an HSA agent: its ISA (the target ID with the process's xnack and sramecc modes, as ROCr builds
 * it), the limits rocminfo prints, and its pools (coarse-grained VRAM, and the group segment).
 */
public final class GpuAgent implements Agent {
  /** {@code HSA_AGENT_INFO_QUEUE_MIN_SIZE}, in packets. */
  public static final int QUEUE_MIN_PACKETS = 64;
  /** {@code HSA_AGENT_INFO_QUEUE_MAX_SIZE}, in packets (ROCr's 0x20000). */
  public static final int QUEUE_MAX_PACKETS = 0x20000;
  /** {@code HSA_AGENT_INFO_QUEUES_MAX}. */
  public static final int QUEUES_MAX = 128;
  /** {@code HSA_AGENT_INFO_WORKGROUP_MAX_SIZE}; also the limit of each dimension. */
  public static final int WORKGROUP_MAX_SIZE = 1024;
  /** {@code HSA_AGENT_INFO_GRID_MAX_SIZE}: grid sizes are 32-bit work-item counts. */
  public static final long GRID_MAX_SIZE = 0xffff_ffffL;

  private final NodeProperties properties;
  private final TargetId targetId;
  private List<MemoryPool> pools = List.of();

  GpuAgent(NodeProperties properties, boolean xnack, boolean sramecc) {
    this.properties = properties;
    this.targetId = new TargetId(properties.name(),
        List.of(new TargetFeature("sramecc", sramecc), new TargetFeature("xnack", xnack)));
  }

  void pools(List<MemoryPool> pools) {
    this.pools = List.copyOf(pools);
  }

  /** The KFD gpu_id driver calls address this GPU by. */
  public int gpuId() {
    return properties.gpuId();
  }

  @Override
  public String name() {
    return properties.name();
  }

  @Override
  public DeviceType deviceType() {
    return DeviceType.GPU;
  }

  @Override
  public NodeProperties properties() {
    return properties;
  }

  @Override
  public List<MemoryPool> memoryPools() {
    return pools;
  }

  /** The agent's target ID, e.g. {@code gfx90a:sramecc+:xnack-}. */
  public TargetId targetId() {
    return targetId;
  }

  /** {@code HSA_ISA_INFO_NAME} of the agent's ISA, e.g. {@code amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-}. */
  public String isaName() {
    return "amdgcn-amd-amdhsa--" + targetId;
  }

  /** {@code HSA_AMD_AGENT_INFO_PRODUCT_NAME}. */
  public String marketingName() {
    return properties.marketingName();
  }

  public String vendorName() {
    return "AMD";
  }

  public int chipId() {
    return properties.deviceId();
  }

  public int computeUnits() {
    return properties.computeUnits();
  }

  public int simdsPerCu() {
    return properties.simdPerCu();
  }

  public int shaderEngines() {
    return properties.shaderEngines();
  }

  public int wavefrontSize() {
    return properties.waveFrontSize();
  }

  public int maxWavesPerCu() {
    return properties.maxWavesPerCu();
  }

  /** ROCr's scratch slots: waves per CU that may hold scratch at once. */
  public int maxScratchSlotsPerCu() {
    return properties.maxSlotsScratchCu();
  }

  /** LDS per work-group, in bytes ({@code HSA_AMD_AGENT_INFO_... GROUP segment size}). */
  public int ldsBytes() {
    return properties.ldsSizeInKb() * 1024;
  }

  public int maxClockMhz() {
    return properties.maxEngineClkFcompute();
  }

  public int xccCount() {
    return properties.numXcc();
  }

  public long localMemoryBytes() {
    return properties.localMemSize();
  }

  public boolean xnack() {
    return targetId.feature("xnack") == dev.hipsim.elf.AmdgpuTarget.FeatureState.ON;
  }

  public boolean sramecc() {
    return targetId.feature("sramecc") == dev.hipsim.elf.AmdgpuTarget.FeatureState.ON;
  }

  /** The coarse-grained VRAM pool (hipMalloc's memory, code objects, scratch). */
  public MemoryPool vramPool() {
    return pools.stream().filter(p -> p.isCoarseGrained() && p.segment() == MemoryPool.Segment.GLOBAL).findFirst()
        .orElseThrow();
  }

  @Override
  public String toString() {
    return name() + " (node " + nodeId() + ", gpu_id 0x" + Integer.toHexString(gpuId()) + ", " + isaName() + ")";
  }
}
