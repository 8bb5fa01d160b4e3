package dev.hipsim.cli;

import dev.hipsim.bundle.FatBinaryFile;
import dev.hipsim.bundle.host.PointerSource;
import dev.hipsim.elf.AmdgpuTarget.FeatureState;
import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.ElfHeader;
import dev.hipsim.elf.ProgramHeader;
import java.util.Locale;

/** Short names shared by the text and JSON reports. */
final class Describe {
  private Describe() {}

  static String kind(FatBinaryFile.Kind kind) {
    switch (kind) {
      case HOST_ELF: return "host-elf";
      case CODE_OBJECT: return "code-object";
      case BUNDLES: return "bundle";
      default: return "offload-binary";
    }
  }

  /** "executable", "pie-executable", "shared-library" or "relocatable-object". */
  static String elfType(ElfFile elf) {
    int type = elf.header().type();
    if (type == ElfHeader.ET_REL) return "relocatable-object";
    if (type == ElfHeader.ET_EXEC) return "executable";
    if (type == ElfHeader.ET_DYN) {
      boolean interp = elf.segments().stream().anyMatch(p -> p.type() == ProgramHeader.PT_INTERP);
      return interp ? "pie-executable" : "shared-library";
    }
    return "type-" + type;
  }

  static String machine(ElfFile elf) {
    int m = elf.header().machine();
    return m == ElfHeader.EM_X86_64 ? "x86-64" : m == ElfHeader.EM_AMDGPU ? "amdgpu" : "machine-" + m;
  }

  static String pointerSource(PointerSource s) {
    return s.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  static String feature(FeatureState s) {
    return s.name().toLowerCase(Locale.ROOT);
  }

  static String hex(long v) {
    return "0x" + Long.toHexString(v);
  }
}
