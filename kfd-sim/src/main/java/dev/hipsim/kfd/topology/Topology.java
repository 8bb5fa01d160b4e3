package dev.hipsim.kfd.topology;

import java.util.List;

/** The KFD topology: node 0 is the CPU, nodes 1.. the GPUs, as {@code /sys/class/kfd/kfd/topology/nodes}. */
public record Topology(List<NodeProperties> nodes) {
  public Topology {
    nodes = List.copyOf(nodes);
  }

  public NodeProperties node(int nodeId) {
    return nodes.get(nodeId);
  }

  /** The node with this gpu_id, or {@code null}. */
  public NodeProperties byGpuId(int gpuId) {
    for (NodeProperties n : nodes) if (n.isGpu() && n.gpuId() == gpuId) return n;
    return null;
  }

  public List<NodeProperties> gpus() {
    return nodes.stream().filter(NodeProperties::isGpu).toList();
  }
}
