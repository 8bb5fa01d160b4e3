package dev.hipsim.elf;

/** One program header ({@code Elf64_Phdr}): a segment. */
public record ProgramHeader(
    int index,
    int type,
    int flags,
    long offset,
    long virtualAddress,
    long physicalAddress,
    long fileSize,
    long memorySize,
    long align) {

  public static final int PT_NULL = 0;
  public static final int PT_LOAD = 1;
  public static final int PT_DYNAMIC = 2;
  public static final int PT_INTERP = 3;
  public static final int PT_NOTE = 4;
  public static final int PT_PHDR = 6;

  public static final int PF_X = 1;
  public static final int PF_W = 2;
  public static final int PF_R = 4;

  public String typeName() {
    return ElfNames.segmentType(type);
  }

  /** Whether {@code vaddr} lies in this segment's file-backed part. */
  public boolean containsInFile(long vaddr) {
    return Long.compareUnsigned(vaddr, virtualAddress) >= 0
        && Long.compareUnsigned(vaddr - virtualAddress, fileSize) < 0;
  }
}
