package dev.hipsim.isa.mem;

/**
 * An access to an address that is not mapped, or mapped without the permission the access needs. Carries what the
 * hardware would report (address, kind, reason in ROCm's wording) so callers can add the wave, lane and PC.
 */
public class GpuMemoryFault extends Exception {
  private static final long serialVersionUID = 1L;

  /** ROCm's wording for an unmapped page. */
  public static final String PAGE_NOT_PRESENT = "Page not present or supervisor privilege";
  /** ROCm's wording for a write to a read-only page. */
  public static final String WRITE_TO_READ_ONLY = "Write access to a read-only page";
  /** ROCm's wording for executing a non-executable page. */
  public static final String EXECUTE_NOT_ALLOWED = "Execute access to a page marked NX";

  private final long address;
  private final AccessKind kind;
  private final String reason;

  public GpuMemoryFault(long address, AccessKind kind, String reason) {
    super(String.format("GPU memory fault on address 0x%x (%s): %s", address, kind.name().toLowerCase(), reason));
    this.address = address;
    this.kind = kind;
    this.reason = reason;
  }

  public long address() {
    return address;
  }

  public AccessKind kind() {
    return kind;
  }

  public String reason() {
    return reason;
  }
}
