package dev.hipsim.elf;

import java.util.Map;

/** Names of ELF constants, spelled as readelf and LLVM spell them. */
public final class ElfNames {
  private ElfNames() {}

  private static final Map<Integer, String> SECTION_TYPES = Map.ofEntries(
      Map.entry(0, "NULL"), Map.entry(1, "PROGBITS"), Map.entry(2, "SYMTAB"), Map.entry(3, "STRTAB"),
      Map.entry(4, "RELA"), Map.entry(5, "HASH"), Map.entry(6, "DYNAMIC"), Map.entry(7, "NOTE"),
      Map.entry(8, "NOBITS"), Map.entry(9, "REL"), Map.entry(10, "SHLIB"), Map.entry(11, "DYNSYM"),
      Map.entry(14, "INIT_ARRAY"), Map.entry(15, "FINI_ARRAY"), Map.entry(16, "PREINIT_ARRAY"),
      Map.entry(17, "GROUP"), Map.entry(18, "SYMTAB SECTION INDICES"), Map.entry(19, "RELR"),
      Map.entry(0x6fff_fff5, "GNU_ATTRIBUTES"), Map.entry(0x6fff_fff6, "GNU_HASH"),
      Map.entry(0x6fff_fff7, "GNU_LIBLIST"), Map.entry(0x6fff_fffd, "VERDEF"), Map.entry(0x6fff_fffe, "VERNEED"),
      Map.entry(0x6fff_ffff, "VERSYM"), Map.entry(0x6fff_4c0b, "LLVM_OFFLOADING"));

  private static final Map<Integer, String> SEGMENT_TYPES = Map.ofEntries(
      Map.entry(0, "NULL"), Map.entry(1, "LOAD"), Map.entry(2, "DYNAMIC"), Map.entry(3, "INTERP"),
      Map.entry(4, "NOTE"), Map.entry(5, "SHLIB"), Map.entry(6, "PHDR"), Map.entry(7, "TLS"),
      Map.entry(0x6474e550, "GNU_EH_FRAME"), Map.entry(0x6474e551, "GNU_STACK"),
      Map.entry(0x6474e552, "GNU_RELRO"), Map.entry(0x6474e553, "GNU_PROPERTY"),
      Map.entry(0x6474e554, "GNU_SFRAME"));

  private static final Map<Long, String> DYNAMIC_TAGS = Map.ofEntries(
      Map.entry(0L, "NULL"), Map.entry(1L, "NEEDED"), Map.entry(2L, "PLTRELSZ"), Map.entry(3L, "PLTGOT"),
      Map.entry(4L, "HASH"), Map.entry(5L, "STRTAB"), Map.entry(6L, "SYMTAB"), Map.entry(7L, "RELA"),
      Map.entry(8L, "RELASZ"), Map.entry(9L, "RELAENT"), Map.entry(10L, "STRSZ"), Map.entry(11L, "SYMENT"),
      Map.entry(12L, "INIT"), Map.entry(13L, "FINI"), Map.entry(14L, "SONAME"), Map.entry(15L, "RPATH"),
      Map.entry(16L, "SYMBOLIC"), Map.entry(17L, "REL"), Map.entry(18L, "RELSZ"), Map.entry(19L, "RELENT"),
      Map.entry(20L, "PLTREL"), Map.entry(21L, "DEBUG"), Map.entry(22L, "TEXTREL"), Map.entry(23L, "JMPREL"),
      Map.entry(24L, "BIND_NOW"), Map.entry(25L, "INIT_ARRAY"), Map.entry(26L, "FINI_ARRAY"),
      Map.entry(27L, "INIT_ARRAYSZ"), Map.entry(28L, "FINI_ARRAYSZ"), Map.entry(29L, "RUNPATH"),
      Map.entry(30L, "FLAGS"), Map.entry(32L, "PREINIT_ARRAY"), Map.entry(33L, "PREINIT_ARRAYSZ"),
      Map.entry(0x6fff_fef5L, "GNU_HASH"), Map.entry(0x6fff_fff0L, "VERSYM"), Map.entry(0x6fff_fff9L, "RELACOUNT"),
      Map.entry(0x6fff_fffaL, "RELCOUNT"), Map.entry(0x6fff_fffbL, "FLAGS_1"), Map.entry(0x6fff_fffcL, "VERDEF"),
      Map.entry(0x6fff_fffdL, "VERDEFNUM"), Map.entry(0x6fff_fffeL, "VERNEED"),
      Map.entry(0x6fff_ffffL, "VERNEEDNUM"), Map.entry(35L, "RELRSZ"), Map.entry(36L, "RELR"),
      Map.entry(37L, "RELRENT"));

  private static final String[] X86_64_RELOCATIONS = {
    "R_X86_64_NONE", "R_X86_64_64", "R_X86_64_PC32", "R_X86_64_GOT32", "R_X86_64_PLT32", "R_X86_64_COPY",
    "R_X86_64_GLOB_DAT", "R_X86_64_JUMP_SLOT", "R_X86_64_RELATIVE", "R_X86_64_GOTPCREL", "R_X86_64_32",
    "R_X86_64_32S", "R_X86_64_16", "R_X86_64_PC16", "R_X86_64_8", "R_X86_64_PC8", "R_X86_64_DTPMOD64",
    "R_X86_64_DTPOFF64", "R_X86_64_TPOFF64", "R_X86_64_TLSGD", "R_X86_64_TLSLD", "R_X86_64_DTPOFF32",
    "R_X86_64_GOTTPOFF", "R_X86_64_TPOFF32", "R_X86_64_PC64", "R_X86_64_GOTOFF64", "R_X86_64_GOTPC32",
    "R_X86_64_GOT64", "R_X86_64_GOTPCREL64", "R_X86_64_GOTPC64", "R_X86_64_GOTPLT64", "R_X86_64_PLTOFF64",
    "R_X86_64_SIZE32", "R_X86_64_SIZE64", "R_X86_64_GOTPC32_TLSDESC", "R_X86_64_TLSDESC_CALL",
    "R_X86_64_TLSDESC", "R_X86_64_IRELATIVE", "R_X86_64_RELATIVE64", null, null, "R_X86_64_GOTPCRELX",
    "R_X86_64_REX_GOTPCRELX"
  };

  private static final String[] AMDGPU_RELOCATIONS = {
    "R_AMDGPU_NONE", "R_AMDGPU_ABS32_LO", "R_AMDGPU_ABS32_HI", "R_AMDGPU_ABS64", "R_AMDGPU_REL32",
    "R_AMDGPU_REL64", "R_AMDGPU_ABS32", "R_AMDGPU_GOTPCREL", "R_AMDGPU_GOTPCREL32_LO", "R_AMDGPU_GOTPCREL32_HI",
    "R_AMDGPU_REL32_LO", "R_AMDGPU_REL32_HI", null, "R_AMDGPU_RELATIVE64", "R_AMDGPU_REL16"
  };

  /** Section type name; unknown OS, processor and user types as readelf shows them. */
  public static String sectionType(int type) {
    String name = SECTION_TYPES.get(type);
    if (name != null) return name;
    return rangeName(type & 0xffff_ffffL);
  }

  public static String segmentType(int type) {
    String name = SEGMENT_TYPES.get(type);
    if (name != null) return name;
    return rangeName(type & 0xffff_ffffL);
  }

  public static String dynamicTag(long tag) {
    String name = DYNAMIC_TAGS.get(tag);
    return name != null ? name : String.format("0x%x", tag);
  }

  private static String rangeName(long value) {
    if (value >= 0x6000_0000L && value <= 0x6fff_ffffL) return String.format("LOOS+0x%x", value - 0x6000_0000L);
    if (value >= 0x7000_0000L && value <= 0x7fff_ffffL) return String.format("LOPROC+0x%x", value - 0x7000_0000L);
    if (value >= 0x8000_0000L && value <= 0xffff_ffffL) return String.format("LOUSER+0x%x", value - 0x8000_0000L);
    return String.format("<unknown>: %x", value);
  }

  /** readelf's one-letter section flag key, in its order (lowest bit first). */
  public static String sectionFlags(long flags) {
    StringBuilder out = new StringBuilder();
    char[] letters = {'W', 'A', 'X', 0, 'M', 'S', 'I', 'L', 'O', 'G', 'T', 'C'};
    for (int bit = 0; bit < letters.length; bit++) {
      if (letters[bit] != 0 && (flags & (1L << bit)) != 0) out.append(letters[bit]);
    }
    if ((flags & 0x20_0000L) != 0) out.append('R');
    if ((flags & 0x100_0000L) != 0) out.append('D');
    if ((flags & 0x8000_0000L) != 0) out.append('E');
    long known = 0xff7L | 0x20_0000L | 0x100_0000L | 0x8000_0000L;
    long rest = flags & ~known;
    if ((rest & 0x0ff0_0000L) != 0) out.append('o');
    if ((rest & 0x7000_0000L) != 0) out.append('p');
    if ((rest & ~0x7ff0_0000L) != 0) out.append('x');
    return out.toString();
  }

  /** Relocation type name for a machine ({@link ElfHeader#EM_X86_64} or {@link ElfHeader#EM_AMDGPU}). */
  public static String relocationType(int machine, int type) {
    String[] table = machine == ElfHeader.EM_AMDGPU ? AMDGPU_RELOCATIONS
        : machine == ElfHeader.EM_X86_64 ? X86_64_RELOCATIONS : null;
    if (table != null && type >= 0 && type < table.length && table[type] != null) return table[type];
    return "R_UNKNOWN_" + type;
  }

  public static String symbolType(int type) {
    switch (type) {
      case 0: return "NOTYPE";
      case 1: return "OBJECT";
      case 2: return "FUNC";
      case 3: return "SECTION";
      case 4: return "FILE";
      case 5: return "COMMON";
      case 6: return "TLS";
      case 10: return "GNU_IFUNC"; // also STT_AMDGPU_HSA_KERNEL on AMDGPU, which readelf shows this way
      default: return "<" + type + ">";
    }
  }

  public static String symbolBinding(int binding) {
    switch (binding) {
      case 0: return "LOCAL";
      case 1: return "GLOBAL";
      case 2: return "WEAK";
      case 10: return "UNIQUE";
      default: return "<" + binding + ">";
    }
  }

  public static String symbolVisibility(int visibility) {
    switch (visibility) {
      case 0: return "DEFAULT";
      case 1: return "INTERNAL";
      case 2: return "HIDDEN";
      default: return "PROTECTED";
    }
  }
}
