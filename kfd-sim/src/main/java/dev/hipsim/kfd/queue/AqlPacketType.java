package dev.hipsim.kfd.queue;

/** {@code hsa_packet_type_t}: bits 7:0 of an AQL packet's header. */
public enum AqlPacketType {
  VENDOR_SPECIFIC,
  INVALID,
  KERNEL_DISPATCH,
  BARRIER_AND,
  AGENT_DISPATCH,
  BARRIER_OR;

  /** The type for a header's low byte, or {@code null} for a value HSA does not define. */
  public static AqlPacketType of(int value) {
    return value >= 0 && value < values().length ? values()[value] : null;
  }
}
