package dev.hipsim.bundle.host;

import dev.hipsim.bundle.BundleFormatException;
import dev.hipsim.bundle.BundleLocation;
import dev.hipsim.bundle.BundleReader;
import dev.hipsim.bundle.ReadOptions;
import dev.hipsim.bundle.offload.OffloadBinary;
import dev.hipsim.bundle.offload.OffloadBinaryReader;
import dev.hipsim.elf.ByteSource;
import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.ElfFormatException;
import dev.hipsim.elf.ElfHeader;
import dev.hipsim.elf.ElfSymbol;
import dev.hipsim.elf.Relocation;
import dev.hipsim.elf.RelocationSection;
import dev.hipsim.elf.SectionHeader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Finds what {@code __hipRegisterFatBinary} would be handed in a host executable, shared library or relocatable
 * object: every wrapper in {@code .hipFatBinSegment}, its {@code binary} pointer resolved through the relocations
 * (PIE: {@code R_X86_64_RELATIVE}; objects: {@code R_X86_64_64} against a symbol) or the stored value (non-PIE),
 * and the bundle there. Works on stripped files: only section headers and relocations are used, never symbol names.
 */
public final class HostFatBinaries {
  public static final String WRAPPER_SECTION = ".hipFatBinSegment";
  public static final String FATBIN_SECTION = ".hip_fatbin";
  public static final String OFFLOADING_SECTION = ".llvm.offloading";

  private HostFatBinaries() {}

  public static HostOffloadInfo discover(ElfFile elf, ReadOptions options) throws BundleFormatException,
      ElfFormatException {
    ByteSource in = elf.source();
    List<String> warnings = new ArrayList<>();
    Optional<SectionHeader> fatbin = elf.section(FATBIN_SECTION);
    List<BundleLocation> bundles = fatbin.isPresent()
        ? BundleReader.locate(in, fatbin.get().offset(), fatbin.get().fileSize(), options)
        : new ArrayList<>();

    List<FatBinWrapper> wrappers = new ArrayList<>();
    Optional<SectionHeader> segment = elf.section(WRAPPER_SECTION);
    if (segment.isPresent()) {
      SectionHeader s = segment.get();
      if (s.fileSize() % FatBinWrapper.SIZE != 0) {
        throw new BundleFormatException(s.offset(), WRAPPER_SECTION + " is " + s.fileSize()
            + " bytes, not a whole number of 24-byte wrappers");
      }
      Map<Long, Relocation> relocations = relocationsFor(elf, s);
      List<BundleLocation> extra = new ArrayList<>();
      for (int i = 0; i < s.fileSize() / FatBinWrapper.SIZE; i++) {
        wrappers.add(wrapper(elf, s, i, relocations, fatbin, bundles, extra, warnings, options));
      }
      if (fatbin.isEmpty()) bundles.addAll(extra);
    }
    if (fatbin.isEmpty() && !wrappers.isEmpty()) {
      warnings.add("no " + FATBIN_SECTION + " section; bundles were found through the wrappers alone");
    }

    List<OffloadBinary> binaries = new ArrayList<>();
    for (SectionHeader s : elf.sections()) {
      if (s.type() == SectionHeader.SHT_LLVM_OFFLOADING
          || s.name().equals(OFFLOADING_SECTION) && s.type() != SectionHeader.SHT_NOBITS) {
        for (OffloadBinary b : OffloadBinaryReader.readAll(in, s.offset(), s.fileSize(), options)) {
          binaries.add(b);
        }
      }
    }
    return new HostOffloadInfo(List.copyOf(wrappers), fatbin, List.copyOf(bundles), List.copyOf(binaries),
        List.copyOf(warnings));
  }

  /**
   * Relocations that apply to the wrapper section, keyed by the address (or, in relocatable objects, the section
   * offset) they patch.
   */
  private static Map<Long, Relocation> relocationsFor(ElfFile elf, SectionHeader segment) throws ElfFormatException {
    boolean relocatable = elf.header().type() == ElfHeader.ET_REL;
    Map<Long, Relocation> out = new HashMap<>();
    long start = relocatable ? 0 : segment.address();
    long end = start + segment.size();
    for (RelocationSection rs : elf.relocationSections()) {
      if (relocatable && rs.section().info() != segment.index()) continue;
      for (Relocation r : rs.relocations()) {
        if (Long.compareUnsigned(r.offset() - start, end - start) < 0) out.put(r.offset(), r);
      }
    }
    return out;
  }

  private static FatBinWrapper wrapper(ElfFile elf, SectionHeader segment, int i, Map<Long, Relocation> relocations,
      Optional<SectionHeader> fatbin, List<BundleLocation> bundles, List<BundleLocation> extra, List<String> warnings,
      ReadOptions options) throws BundleFormatException, ElfFormatException {
    ByteSource in = elf.source();
    boolean relocatable = elf.header().type() == ElfHeader.ET_REL;
    long at = segment.offset() + (long) FatBinWrapper.SIZE * i;
    long magic = in.u32(at);
    WrapperKind kind = WrapperKind.ofMagic(magic).orElseThrow(() -> new BundleFormatException(at, String.format(
        "wrapper %d has magic 0x%08x; expected 0x48495046 (HIPF) or 0x4B504948 (HIPK)", i, magic)));
    long version = in.u32(at + 4);
    if (version != 1) warnings.add("wrapper " + i + " has version " + version + " (CLR accepts only 1)");
    long stored = in.u64(at + 8);
    long reserved = in.u64(at + 16);
    long fieldAddress = (relocatable ? 0 : segment.address()) + (long) FatBinWrapper.SIZE * i + 8;
    Relocation r = relocations.get(fieldAddress);
    long address;
    long fileOffset;
    PointerSource source;
    if (r != null) {
      if (r.type() == Relocation.R_X86_64_RELATIVE && !relocatable) {
        address = r.addend();
        source = PointerSource.RELATIVE_RELOCATION;
        fileOffset = fileOffset(elf, address, at + 8);
      } else if (r.type() == Relocation.R_X86_64_64 && r.symbol() != null) {
        source = PointerSource.SYMBOL_RELOCATION;
        address = r.symbol().value() + r.addend();
        fileOffset = relocatable ? objectFileOffset(elf, r.symbol(), r.addend(), at + 8)
            : fileOffset(elf, address, at + 8);
      } else {
        throw new BundleFormatException(at + 8, "wrapper " + i + "'s binary pointer is patched by a relocation of"
            + " type " + r.typeName() + ", which cannot be resolved statically");
      }
    } else {
      if (stored == 0) {
        throw new BundleFormatException(at + 8, "wrapper " + i + "'s binary pointer is null and no relocation"
            + " fills it");
      }
      if (relocatable) {
        throw new BundleFormatException(at + 8, "wrapper " + i + " in a relocatable object has no relocation");
      }
      address = stored;
      source = PointerSource.STORED_VALUE;
      fileOffset = fileOffset(elf, address, at + 8);
    }
    OptionalInt bundleIndex = OptionalInt.empty();
    if (kind == WrapperKind.HIPF) {
      for (BundleLocation b : bundles) {
        if (b.offset() == fileOffset) bundleIndex = OptionalInt.of(b.index());
      }
      if (bundleIndex.isEmpty()) {
        if (fatbin.isPresent()) {
          throw new BundleFormatException(at + 8, String.format("wrapper %d points to 0x%x (file offset 0x%x), where"
              + " no bundle of %s starts", i, address, fileOffset, FATBIN_SECTION));
        }
        BundleLocation found = BundleReader.locateOne(in, fileOffset, in.size(), extra.size(), options);
        extra.add(found);
        bundleIndex = OptionalInt.of(found.index());
      }
    }
    return new FatBinWrapper(i, at, kind, version, address, source, fileOffset, reserved, bundleIndex);
  }

  private static long fileOffset(ElfFile elf, long address, long referrer) throws BundleFormatException {
    try {
      return elf.fileOffsetOf(address);
    } catch (ElfFormatException e) {
      throw new BundleFormatException(referrer, String.format("the wrapper's binary pointer 0x%x is not in any"
          + " loadable part of the file", address));
    }
  }

  private static long objectFileOffset(ElfFile elf, ElfSymbol symbol, long addend, long referrer)
      throws BundleFormatException {
    int index = symbol.sectionIndex();
    if (index <= 0 || index >= elf.sections().size()) {
      throw new BundleFormatException(referrer, "the wrapper's relocation refers to symbol '" + symbol.name()
          + "' in section " + index + ", which does not exist");
    }
    SectionHeader s = elf.sections().get(index);
    long within = symbol.value() + addend;
    if (within < 0 || within >= s.fileSize()) {
      throw new BundleFormatException(referrer, "the wrapper's relocation points " + within + " bytes into "
          + s.name() + ", which has " + s.fileSize());
    }
    return s.offset() + within;
  }
}
