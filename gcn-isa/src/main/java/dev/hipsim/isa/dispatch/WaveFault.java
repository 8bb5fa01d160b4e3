package dev.hipsim.isa.dispatch;

/**
 * A wave stopped the dispatch: the kind says why (memory fault, illegal or unimplemented instruction, trap), the
 * location says where, and for memory faults the address and ROCm's reason.
 */
public final class WaveFault extends DispatchException {
  private static final long serialVersionUID = 1L;

  /** Why the wave stopped. */
  public enum Kind {
    MEMORY_FAULT,
    ILLEGAL_INSTRUCTION,
    UNIMPLEMENTED_INSTRUCTION,
    /** A resource descriptor hipsim does not model (a tiled image, an unsupported image format or type). */
    UNSUPPORTED_RESOURCE,
    TRAP
  }

  private final Kind kind;
  private final WaveLocation location;
  private final long address;
  private final String reason;

  public WaveFault(Kind kind, WaveLocation location, long address, String reason, Throwable cause) {
    super(describe(kind, location, address, reason), cause);
    this.kind = kind;
    this.location = location;
    this.address = address;
    this.reason = reason;
  }

  private static String describe(Kind kind, WaveLocation location, long address, String reason) {
    switch (kind) {
      case MEMORY_FAULT:
        return String.format("memory access fault on address 0x%x. Reason: %s (%s)", address, reason, location);
      case TRAP:
        return "s_trap " + reason + " (" + location + ")";
      default:
        return kind.name().toLowerCase().replace('_', ' ') + ": " + reason + " (" + location + ")";
    }
  }

  public Kind kind() {
    return kind;
  }

  public WaveLocation location() {
    return location;
  }

  /** The faulting address for memory faults, else 0. */
  public long address() {
    return address;
  }

  public String reason() {
    return reason;
  }
}
