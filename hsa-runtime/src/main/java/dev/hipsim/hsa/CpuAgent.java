package dev.hipsim.hsa;

import dev.hipsim.hsa.memory.MemoryPool;
import dev.hipsim.kfd.topology.NodeProperties;
import java.util.List;

/**
 * The host agent: it owns the system-memory pools, the fine-grained one GPUs read and write coherently and the
 * kernarg pool dispatches take their argument segments from.
 */
public final class CpuAgent implements Agent {
  private final NodeProperties properties;
  private List<MemoryPool> pools = List.of();

  CpuAgent(NodeProperties properties) {
    this.properties = properties;
  }

  void pools(List<MemoryPool> pools) {
    this.pools = List.copyOf(pools);
  }

  @Override
  public String name() {
    return properties.marketingName();
  }

  @Override
  public DeviceType deviceType() {
    return DeviceType.CPU;
  }

  @Override
  public NodeProperties properties() {
    return properties;
  }

  @Override
  public List<MemoryPool> memoryPools() {
    return pools;
  }

  /** The fine-grained system pool (hipHostMalloc's memory). */
  public MemoryPool fineGrainedPool() {
    return pools.stream().filter(p -> p.isFineGrained() && !p.isKernargInit()).findFirst().orElseThrow();
  }

  /** The pool with {@code KERNARG_INIT}: where kernarg segments live. */
  public MemoryPool kernargPool() {
    return pools.stream().filter(MemoryPool::isKernargInit).findFirst().orElseThrow();
  }

  /** The coarse-grained system pool. */
  public MemoryPool coarseGrainedPool() {
    return pools.stream().filter(MemoryPool::isCoarseGrained).findFirst().orElseThrow();
  }

  @Override
  public String toString() {
    return "CPU agent (node " + nodeId() + ")";
  }
}
