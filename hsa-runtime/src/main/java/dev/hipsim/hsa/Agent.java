package dev.hipsim.hsa;

import dev.hipsim.hsa.memory.MemoryPool;
import dev.hipsim.kfd.topology.NodeProperties;
import java.util.List;

/**
 * An HSA agent ({@code hsa_agent_t}): the host CPU or a GPU of the KFD topology, with the memory pools it owns.
 * Agents come from {@link HsaRuntime#agents()}, CPU first, then the GPUs in topology order, as ROCr lists them.
 */
public sealed interface Agent permits CpuAgent, GpuAgent {
  /** {@code HSA_AGENT_INFO_NAME}: {@code gfx90a} for a GPU, the CPU's name for the host. */
  String name();

  DeviceType deviceType();

  /** {@code HSA_AGENT_INFO_NODE}: the KFD topology node. */
  default int nodeId() {
    return properties().nodeId();
  }

  /** The node's KFD topology properties (what rocminfo reports). */
  NodeProperties properties();

  /** {@code hsa_amd_agent_iterate_memory_pools}. */
  List<MemoryPool> memoryPools();
}
