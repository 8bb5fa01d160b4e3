package dev.hipsim.bundle.metadata;

import java.io.IOException;

/**
 * A code object's {@code NT_AMDGPU_METADATA} note is not valid MessagePack, or does not have the shape AMDGPUUsage
 * defines (a required key missing, a value of the wrong type). The message names the note's file offset and the
 * kernel and key concerned.
 */
public final class MetadataFormatException extends IOException {
  private static final long serialVersionUID = 1L;
  private final long offset;

  public MetadataFormatException(long offset, String problem) {
    super(String.format("at file offset 0x%x: NT_AMDGPU_METADATA: %s", offset, problem));
    this.offset = offset;
  }

  /** File offset of the note's descriptor. */
  public long offset() {
    return offset;
  }
}
