package dev.hipsim.isa.debug.dwarf;

/** A malformed or unsupported DWARF section: says which section and at which byte offset. */
public final class DwarfException extends Exception {
  private static final long serialVersionUID = 1L;

  private final String section;
  private final long offset;

  public DwarfException(String section, long offset, String message) {
    super(section + " at offset 0x" + Long.toHexString(offset) + ": " + message);
    this.section = section;
    this.offset = offset;
  }

  public String section() {
    return section;
  }

  public long offset() {
    return offset;
  }
}
