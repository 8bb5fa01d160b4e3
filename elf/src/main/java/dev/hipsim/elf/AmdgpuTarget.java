package dev.hipsim.elf;

import java.util.Map;

/**
 * What an AMDGPU code object's header says about its target: the processor from {@code e_flags}, the xnack and
 * sramecc feature states, and the code-object version from OS/ABI and ABI version.
 */
public record AmdgpuTarget(
    int machineCode,
    String processor,
    FeatureState xnack,
    FeatureState sramecc,
    int codeObjectVersion,
    int genericVersion) {

  /** State of a target feature in a code object (and, for matching, what an entry requires). */
  public enum FeatureState {
    /** The processor has no such feature. */
    UNSUPPORTED,
    /** Compiled to run with the feature on or off. */
    ANY,
    OFF,
    ON
  }

  public static final int EF_AMDGPU_MACH = 0xff;
  static final int XNACK_MASK_V4 = 0x300;
  static final int SRAMECC_MASK_V4 = 0xc00;
  static final int XNACK_V3 = 0x100;
  static final int SRAMECC_V3 = 0x200;

  /** Processor names by {@code EF_AMDGPU_MACH} value, as LLVM names them (llvm/BinaryFormat/ELF.h). */
  private static final Map<Integer, String> PROCESSORS = Map.ofEntries(
      Map.entry(0x20, "gfx600"), Map.entry(0x21, "gfx601"), Map.entry(0x22, "gfx700"), Map.entry(0x23, "gfx701"),
      Map.entry(0x24, "gfx702"), Map.entry(0x25, "gfx703"), Map.entry(0x26, "gfx704"), Map.entry(0x28, "gfx801"),
      Map.entry(0x29, "gfx802"), Map.entry(0x2a, "gfx803"), Map.entry(0x2b, "gfx810"), Map.entry(0x2c, "gfx900"),
      Map.entry(0x2d, "gfx902"), Map.entry(0x2e, "gfx904"), Map.entry(0x2f, "gfx906"), Map.entry(0x30, "gfx908"),
      Map.entry(0x31, "gfx909"), Map.entry(0x32, "gfx90c"), Map.entry(0x33, "gfx1010"), Map.entry(0x34, "gfx1011"),
      Map.entry(0x35, "gfx1012"), Map.entry(0x36, "gfx1030"), Map.entry(0x37, "gfx1031"),
      Map.entry(0x38, "gfx1032"), Map.entry(0x39, "gfx1033"), Map.entry(0x3a, "gfx602"), Map.entry(0x3b, "gfx705"),
      Map.entry(0x3c, "gfx805"), Map.entry(0x3d, "gfx1035"), Map.entry(0x3e, "gfx1034"), Map.entry(0x3f, "gfx90a"),
      Map.entry(0x40, "gfx940"), Map.entry(0x41, "gfx1100"), Map.entry(0x42, "gfx1013"), Map.entry(0x43, "gfx1150"),
      Map.entry(0x44, "gfx1103"), Map.entry(0x45, "gfx1036"), Map.entry(0x46, "gfx1101"),
      Map.entry(0x47, "gfx1102"), Map.entry(0x48, "gfx1200"), Map.entry(0x49, "gfx1250"),
      Map.entry(0x4a, "gfx1151"), Map.entry(0x4b, "gfx941"), Map.entry(0x4c, "gfx942"), Map.entry(0x4e, "gfx1201"),
      Map.entry(0x4f, "gfx950"), Map.entry(0x51, "gfx9-generic"), Map.entry(0x52, "gfx10-1-generic"),
      Map.entry(0x53, "gfx10-3-generic"), Map.entry(0x54, "gfx11-generic"), Map.entry(0x55, "gfx1152"),
      Map.entry(0x58, "gfx1153"), Map.entry(0x59, "gfx12-generic"), Map.entry(0x5f, "gfx9-4-generic"));

  /** Processor name for an {@code EF_AMDGPU_MACH} value, or null when unknown. */
  public static String processorName(int mach) {
    return PROCESSORS.get(mach);
  }

  /** The {@code EF_AMDGPU_MACH} value of a processor name, or -1. */
  public static int machineCode(String processor) {
    for (Map.Entry<Integer, String> e : PROCESSORS.entrySet()) {
      if (e.getValue().equals(processor)) return e.getKey();
    }
    return -1;
  }

  /** Decodes the target of an AMDGPU ELF header. */
  public static AmdgpuTarget of(ElfHeader header) throws ElfFormatException {
    if (header.machine() != ElfHeader.EM_AMDGPU) {
      throw new ElfFormatException(18, "e_machine is " + header.machine() + ", not EM_AMDGPU (224)");
    }
    int flags = header.flags();
    int mach = flags & EF_AMDGPU_MACH;
    String name = PROCESSORS.get(mach);
    if (name == null) name = String.format("unknown-0x%x", mach);
    int version = codeObjectVersion(header);
    FeatureState xnack;
    FeatureState sramecc;
    if (version <= 3) {
      xnack = (flags & XNACK_V3) != 0 ? FeatureState.ON : FeatureState.ANY;
      sramecc = (flags & SRAMECC_V3) != 0 ? FeatureState.ON : FeatureState.ANY;
    } else {
      xnack = FeatureState.values()[(flags & XNACK_MASK_V4) >>> 8];
      sramecc = FeatureState.values()[(flags & SRAMECC_MASK_V4) >>> 10];
    }
    int generic = version >= 6 ? flags >>> 24 : 0;
    return new AmdgpuTarget(mach, name, xnack, sramecc, version, generic);
  }

  /** Code-object version from OS/ABI and ABI version: HSA ABI 0..4 are versions 2..6. */
  public static int codeObjectVersion(ElfHeader header) throws ElfFormatException {
    if (header.osAbi() != ElfHeader.ELFOSABI_AMDGPU_HSA) {
      throw new ElfFormatException(7, "OS/ABI is " + header.osAbi() + ", not ELFOSABI_AMDGPU_HSA (64)");
    }
    if (header.abiVersion() > 4) {
      throw new ElfFormatException(8, "unknown AMDGPU HSA ABI version " + header.abiVersion()
          + " (known: 0..4 for code objects v2..v6)");
    }
    return header.abiVersion() + 2;
  }

  /**
   * The target ID as LLVM and ROCm spell it: processor, then the features that are not ANY or UNSUPPORTED, sramecc
   * before xnack (e.g. {@code gfx90a:xnack-}).
   */
  public String targetId() {
    StringBuilder id = new StringBuilder(processor);
    if (sramecc == FeatureState.ON || sramecc == FeatureState.OFF) id.append(":sramecc").append(sramecc == FeatureState.ON ? '+' : '-');
    if (xnack == FeatureState.ON || xnack == FeatureState.OFF) id.append(":xnack").append(xnack == FeatureState.ON ? '+' : '-');
    return id.toString();
  }
}
