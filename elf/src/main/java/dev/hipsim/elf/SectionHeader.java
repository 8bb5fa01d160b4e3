package dev.hipsim.elf;

/** One section header ({@code Elf64_Shdr}) with its name resolved. */
public record SectionHeader(
    int index,
    String name,
    int nameOffset,
    int type,
    long flags,
    long address,
    long offset,
    long size,
    int link,
    int info,
    long addressAlign,
    long entrySize) {

  public static final int SHT_NULL = 0;
  public static final int SHT_PROGBITS = 1;
  public static final int SHT_SYMTAB = 2;
  public static final int SHT_STRTAB = 3;
  public static final int SHT_RELA = 4;
  public static final int SHT_HASH = 5;
  public static final int SHT_DYNAMIC = 6;
  public static final int SHT_NOTE = 7;
  public static final int SHT_NOBITS = 8;
  public static final int SHT_REL = 9;
  public static final int SHT_DYNSYM = 11;
  public static final int SHT_GNU_VERDEF = 0x6fff_fffd;
  public static final int SHT_GNU_VERNEED = 0x6fff_fffe;
  public static final int SHT_GNU_VERSYM = 0x6fff_ffff;
  public static final int SHT_LLVM_OFFLOADING = 0x6fff_4c0b;

  public static final long SHF_WRITE = 0x1;
  public static final long SHF_ALLOC = 0x2;
  public static final long SHF_EXECINSTR = 0x4;

  /** Bytes this section occupies in the file (zero for NOBITS sections such as .bss). */
  public long fileSize() {
    return type == SHT_NOBITS ? 0 : size;
  }

  /** The section type as readelf prints it. */
  public String typeName() {
    return ElfNames.sectionType(type);
  }

  /** The flags as readelf's one-letter key (W, A, X, M, S, I, L, O, G, T, C, E …). */
  public String flagLetters() {
    return ElfNames.sectionFlags(flags);
  }
}
