package dev.hipsim.isa.debug;

/** The address spaces a debugger reads, named as rocgdb names them ({@code group} is LDS). */
public enum AddressSpace {
  /** Global memory: GPU virtual addresses. */
  GLOBAL("global"),
  /** The selected wave's workgroup LDS: byte offsets. */
  LDS("lds"),
  /** A lane's private (scratch) memory: byte offsets into what that lane sees. */
  PRIVATE("private");

  private final String prefix;

  AddressSpace(String prefix) {
    this.prefix = prefix;
  }

  /** The prefix of addresses in this space ({@code global}, {@code lds}, {@code private}). */
  public String prefix() {
    return prefix;
  }
}
