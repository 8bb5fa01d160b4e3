package dev.hipsim.hsa.queue;

/** {@code hsa_packet_type_t}: bits 7:0 of an AQL packet header. */
public enum PacketType {
  VENDOR_SPECIFIC,
  INVALID,
  KERNEL_DISPATCH,
  BARRIER_AND,
  AGENT_DISPATCH,
  BARRIER_OR
}
