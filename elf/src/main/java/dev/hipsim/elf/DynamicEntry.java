package dev.hipsim.elf;

/** One {@code Elf64_Dyn} entry of the dynamic section. */
public record DynamicEntry(long tag, long value) {
  public static final long DT_NULL = 0;
  public static final long DT_NEEDED = 1;
  public static final long DT_SONAME = 14;
  public static final long DT_RPATH = 15;
  public static final long DT_RUNPATH = 29;

  public String tagName() {
    return ElfNames.dynamicTag(tag);
  }
}
