package dev.hipsim.hsa.loader;

import dev.hipsim.elf.AmdgpuTarget;
import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.ElfFormatException;
import dev.hipsim.elf.ElfHeader;
import dev.hipsim.elf.ElfSymbol;
import dev.hipsim.elf.ProgramHeader;
import dev.hipsim.elf.Relocation;
import dev.hipsim.elf.RelocationSection;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An AMDGPU HSA code object checked and prepared for loading, before any device memory is involved: its target, the
 * PT_LOAD segments and the span they occupy once placed, the dynamic relocations to apply, and its kernel and
 * variable symbols. What ROCr's loader reads from the ELF in {@code LoadSegmentsV2} and symbol creation.
 */
public final class CodeObject {
  /** One loadable segment: where its bytes are in the image and where they go relative to the load base. */
  public record Segment(long loadOffset, long fileOffset, long fileSize, long memorySize, int flags) {}

  /** A kernel: its descriptor symbol {@code NAME.kd} and where the descriptor lies relative to the load base. */
  public record KernelSymbol(String name, String descriptorSymbol, long descriptorOffset) {}

  /** A variable (device global) defined by the code object. */
  public record VariableSymbol(String name, long offset, long size, int binding) {}

  /** A dynamic relocation to apply after placement. */
  public record DynamicRelocation(long offset, int type, String typeName, String symbol, long symbolValue,
      boolean symbolDefined, long addend) {}

  private final ElfFile elf;
  private final AmdgpuTarget target;
  private final long firstVaddr;
  private final long span;
  private final List<Segment> segments;
  private final Map<String, KernelSymbol> kernels;
  private final Map<String, VariableSymbol> variables;
  private final List<DynamicRelocation> relocations;

  private CodeObject(ElfFile elf) throws CodeObjectException, ElfFormatException {
    this.elf = elf;
    ElfHeader h = elf.header();
    if (h.machine() != ElfHeader.EM_AMDGPU) {
      throw new CodeObjectException("not an AMDGPU code object: e_machine is " + h.machine() + " (expected 224)");
    }
    if (h.osAbi() != ElfHeader.ELFOSABI_AMDGPU_HSA) {
      throw new CodeObjectException("not an HSA code object: OS/ABI is " + h.osAbi() + " (expected 64, AMDGPU_HSA)");
    }
    this.target = elf.amdgpuTarget();
    if (target.codeObjectVersion() < 4 || target.codeObjectVersion() > 6) {
      throw new CodeObjectException("code object version " + target.codeObjectVersion()
          + " is not supported (versions 4, 5 and 6 are)");
    }
    List<Segment> segs = new ArrayList<>();
    long first = -1;
    long end = 0;
    for (ProgramHeader p : elf.segments()) {
      if (p.type() != ProgramHeader.PT_LOAD) continue;
      if (first < 0) first = p.virtualAddress();
      if (p.virtualAddress() < first) {
        throw new CodeObjectException(String.format("PT_LOAD segment %d at 0x%x precedes the first one at 0x%x",
            p.index(), p.virtualAddress(), first));
      }
      if (p.fileSize() > p.memorySize()) {
        throw new CodeObjectException("PT_LOAD segment " + p.index() + " has more file bytes than memory bytes");
      }
      segs.add(new Segment(p.virtualAddress() - first, p.offset(), p.fileSize(), p.memorySize(), p.flags()));
      end = Math.max(end, p.virtualAddress() + p.memorySize());
    }
    if (segs.isEmpty()) throw new CodeObjectException("the code object has no PT_LOAD segment");
    this.firstVaddr = first;
    this.span = end - first;
    this.segments = Collections.unmodifiableList(segs);

    Map<String, KernelSymbol> ks = new LinkedHashMap<>();
    Map<String, VariableSymbol> vs = new LinkedHashMap<>();
    List<ElfSymbol> symbols = elf.dynamicSymbols().isEmpty() ? elf.symbols() : elf.dynamicSymbols();
    for (ElfSymbol s : symbols) {
      if (!s.isDefined() || s.binding() == ElfSymbol.STB_LOCAL) continue;
      if (s.type() == ElfSymbol.STT_OBJECT && s.name().endsWith(".kd")) {
        String name = s.name().substring(0, s.name().length() - 3);
        ks.put(name, new KernelSymbol(name, s.name(), s.value() - first));
      } else if (s.type() == ElfSymbol.STT_OBJECT) {
        vs.put(s.name(), new VariableSymbol(s.name(), s.value() - first, s.size(), s.binding()));
      }
    }
    this.kernels = Collections.unmodifiableMap(ks);
    this.variables = Collections.unmodifiableMap(vs);

    List<DynamicRelocation> rs = new ArrayList<>();
    for (RelocationSection section : elf.relocationSections()) {
      if (!section.section().name().equals(".rela.dyn") && !section.section().name().equals(".rel.dyn")) continue;
      for (Relocation r : section.relocations()) {
        ElfSymbol s = r.symbol();
        rs.add(new DynamicRelocation(r.offset() - first, r.type(), r.typeName(), s == null ? null : s.name(),
            s == null ? 0 : s.value() - first, s != null && s.isDefined(), r.addend()));
      }
    }
    this.relocations = Collections.unmodifiableList(rs);
  }

  /** Checks and prepares a code object held in a buffer (not copied). */
  public static CodeObject parse(ByteBuffer image) throws CodeObjectException {
    try {
      return new CodeObject(ElfFile.parse(image));
    } catch (ElfFormatException e) {
      throw new CodeObjectException("corrupt code object: " + e.getMessage(), e);
    }
  }

  public ElfFile elf() {
    return elf;
  }

  public AmdgpuTarget target() {
    return target;
  }

  /** Bytes needed to place every segment: {@code last.p_vaddr + last.p_memsz - first.p_vaddr}. */
  public long span() {
    return span;
  }

  /** Virtual address of the first PT_LOAD segment; load offsets are relative to it. */
  public long firstVirtualAddress() {
    return firstVaddr;
  }

  public List<Segment> segments() {
    return segments;
  }

  public Map<String, KernelSymbol> kernels() {
    return kernels;
  }

  public Map<String, VariableSymbol> variables() {
    return variables;
  }

  public List<DynamicRelocation> relocations() {
    return relocations;
  }

  /**
   * The placed image: {@link #span()} bytes with every segment's file bytes at its load offset and zeros elsewhere,
   * relocated for a load at {@code base} (what is then copied to device memory).
   *
   * @param externalSymbol resolves symbols the code object does not define (agent-global variables), or returns
   *     null when there is none
   */
  public byte[] placedImage(long base, java.util.function.Function<String, Long> externalSymbol)
      throws CodeObjectException {
    if (span > Integer.MAX_VALUE) throw new CodeObjectException("code object spans " + span + " bytes");
    byte[] image = new byte[(int) span];
    ByteBuffer whole;
    try {
      whole = elf.source().slice(0, elf.source().size());
    } catch (ElfFormatException e) {
      throw new CodeObjectException(e.getMessage(), e);
    }
    for (Segment s : segments) {
      whole.get((int) s.fileOffset(), image, (int) s.loadOffset(), (int) s.fileSize());
    }
    ByteBuffer out = ByteBuffer.wrap(image).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    for (DynamicRelocation r : relocations) {
      long symbol;
      if (r.symbol() == null) {
        symbol = 0;
      } else if (r.symbolDefined()) {
        symbol = base + r.symbolValue();
      } else {
        Long external = externalSymbol.apply(r.symbol());
        if (external == null) {
          throw new CodeObjectException(dev.hipsim.hsa.HsaStatus.VARIABLE_UNDEFINED, "undefined symbol " + r.symbol()
              + " referenced by a " + r.typeName() + String.format(" relocation at offset 0x%x", r.offset())
              + " (define it with defineAgentGlobalVariable before loading)");
        }
        symbol = external;
      }
      int width = r.type() == Relocation.R_AMDGPU_ABS64 || r.type() == Relocation.R_AMDGPU_RELATIVE64 ? 8 : 4;
      if (r.offset() < 0 || r.offset() > span - width) {
        throw new CodeObjectException(String.format("relocation at offset 0x%x lies outside the %d-byte image",
            r.offset(), span));
      }
      int at = (int) r.offset();
      switch (r.type()) {
        case Relocation.R_AMDGPU_ABS32_LO: out.putInt(at, (int) (symbol + r.addend())); break;
        case Relocation.R_AMDGPU_ABS32_HI: out.putInt(at, (int) ((symbol + r.addend()) >>> 32)); break;
        case Relocation.R_AMDGPU_ABS32: out.putInt(at, (int) (symbol + r.addend())); break;
        case Relocation.R_AMDGPU_ABS64: out.putLong(at, symbol + r.addend()); break;
        case Relocation.R_AMDGPU_RELATIVE64: out.putLong(at, base + r.addend() - firstVaddr); break;
        default:
          throw new CodeObjectException("dynamic relocation " + r.typeName() + String.format(" at offset 0x%x", r.offset())
              + " is not supported by the loader (ROCr applies ABS32_LO/HI, ABS32, ABS64 and RELATIVE64)");
      }
    }
    return image;
  }
}
