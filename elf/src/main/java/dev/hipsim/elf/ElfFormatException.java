package dev.hipsim.elf;

import java.io.IOException;

/**
 * An ELF file is truncated, corrupt or uses something this reader does not support. The message always names the
 * file offset of the problem and what was expected there.
 */
public class ElfFormatException extends IOException {
  private static final long serialVersionUID = 1L;
  private final long offset;

  public ElfFormatException(long offset, String problem) {
    super(String.format("at file offset 0x%x: %s", offset, problem));
    this.offset = offset;
  }

  /** File offset (from the start of the ELF image) where the problem was found. */
  public long offset() {
    return offset;
  }
}
