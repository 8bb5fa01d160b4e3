package dev.hipsim.elf;

/** The ELF64 file header ({@code Elf64_Ehdr}), with the identification bytes decoded. */
public record ElfHeader(
    int elfClass,
    int dataEncoding,
    int identVersion,
    int osAbi,
    int abiVersion,
    int type,
    int machine,
    long version,
    long entry,
    long programHeaderOffset,
    long sectionHeaderOffset,
    int flags,
    int headerSize,
    int programHeaderEntrySize,
    int programHeaderCount,
    int sectionHeaderEntrySize,
    int sectionHeaderCount,
    int sectionNameTableIndex) {

  public static final int SIZE = 64;

  public static final int ET_REL = 1;
  public static final int ET_EXEC = 2;
  public static final int ET_DYN = 3;

  public static final int EM_X86_64 = 62;
  public static final int EM_AMDGPU = 224;

  public static final int ELFOSABI_NONE = 0;
  public static final int ELFOSABI_AMDGPU_HSA = 64;

  public boolean isAmdgpu() {
    return machine == EM_AMDGPU;
  }
}
