package dev.hipsim.elf;

/**
 * A symbol from {@code .symtab} or {@code .dynsym}. For dynamic symbols, {@code version} is the GNU symbol version
 * name (null when the file has no version information or the symbol is local/global without a version) and
 * {@code versionHidden} tells whether it is a non-default version ({@code @} rather than {@code @@}).
 */
public record ElfSymbol(
    int index,
    String name,
    long value,
    long size,
    int info,
    int other,
    int sectionIndex,
    String version,
    boolean versionHidden,
    boolean versionDefined) {

  public static final int STT_NOTYPE = 0;
  public static final int STT_OBJECT = 1;
  public static final int STT_FUNC = 2;
  public static final int STT_SECTION = 3;
  public static final int STT_FILE = 4;
  public static final int STT_AMDGPU_HSA_KERNEL = 10;

  public static final int STB_LOCAL = 0;
  public static final int STB_GLOBAL = 1;
  public static final int STB_WEAK = 2;

  public static final int SHN_UNDEF = 0;
  public static final int SHN_ABS = 0xfff1;
  public static final int SHN_COMMON = 0xfff2;

  public int type() {
    return info & 0xf;
  }

  public int binding() {
    return info >>> 4;
  }

  public int visibility() {
    return other & 0x3;
  }

  public boolean isDefined() {
    return sectionIndex != SHN_UNDEF;
  }
}
