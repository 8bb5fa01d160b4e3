package dev.hipsim.elf;

/**
 * One relocation. {@code addend} is explicit for RELA sections and zero for REL sections (where the addend is stored
 * at the place being relocated). {@code symbol} is the referenced symbol, or null for symbol index 0.
 */
public record Relocation(long offset, int type, int symbolIndex, long addend, ElfSymbol symbol, int machine) {

  public static final int R_X86_64_64 = 1;
  public static final int R_X86_64_GLOB_DAT = 6;
  public static final int R_X86_64_JUMP_SLOT = 7;
  public static final int R_X86_64_RELATIVE = 8;

  public static final int R_AMDGPU_ABS32_LO = 1;
  public static final int R_AMDGPU_ABS32_HI = 2;
  public static final int R_AMDGPU_ABS64 = 3;
  public static final int R_AMDGPU_ABS32 = 6;
  public static final int R_AMDGPU_RELATIVE64 = 13;

  /** The relocation type's name, as LLVM and readelf spell it for this file's machine. */
  public String typeName() {
    return ElfNames.relocationType(machine, type);
  }
}
