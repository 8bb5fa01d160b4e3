package dev.hipsim.elf;

import java.nio.ByteBuffer;

/**
 * One note: owner name, type and descriptor. {@code descriptor} is a read-only view into the file (no copy);
 * {@code offset} is the file offset of the note's header.
 */
public record ElfNote(String sectionName, long offset, String owner, int type, ByteBuffer descriptor) {
  public static final int NT_AMDGPU_METADATA = 32;
  public static final String AMDGPU_OWNER = "AMDGPU";

  public boolean isAmdgpuMetadata() {
    return AMDGPU_OWNER.equals(owner) && type == NT_AMDGPU_METADATA;
  }

  /** A fresh view of the descriptor (position 0), safe to consume. */
  public ByteBuffer descriptorView() {
    return descriptor.duplicate().order(descriptor.order());
  }
}
