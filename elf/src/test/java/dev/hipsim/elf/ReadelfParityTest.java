package dev.hipsim.elf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.testing.Corpus;
import dev.hipsim.testing.ReadelfText;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** The ELF reader agrees with GNU readelf's recorded output, field by field, on every file of the corpus. */
class ReadelfParityTest {

  @TestFactory
  Stream<DynamicTest> hostBinaries() {
    return Corpus.hostBinaries().stream().map(p ->
        DynamicTest.dynamicTest(Corpus.root().relativize(p).toString(), () -> compare(p, Corpus.recorded(p, "readelf.txt"))));
  }

  @TestFactory
  Stream<DynamicTest> codeObjects() {
    return Corpus.codeObjects().stream().map(c ->
        DynamicTest.dynamicTest(c.toString(), () -> compare(c.hsaco(), c.file("readelf.txt"))));
  }

  @Test
  void corpusIsComplete() {
    assertThat(Corpus.hostBinaries()).hasSizeGreaterThan(90);
    assertThat(Corpus.codeObjects()).hasSizeGreaterThan(140);
  }

  static void compare(Path file, Path recorded) throws Exception {
    ReadelfText expected = ReadelfText.parse(recorded);
    SoftAssertions soft = new SoftAssertions();
    try (ElfFile elf = ElfFile.open(file)) {
      compareHeader(elf, expected, soft);
      compareSections(elf, expected, soft);
      compareSegments(elf, expected, soft);
      compareDynamic(elf, expected, soft);
      compareRelocations(elf, expected, soft);
      compareSymbols(elf, expected, soft);
      compareNotes(elf, expected, soft);
      compareVersions(elf, expected, soft);
    }
    soft.assertAll();
  }

  private static void compareHeader(ElfFile elf, ReadelfText expected, SoftAssertions soft) throws Exception {
    ElfHeader h = elf.header();
    soft.assertThat(expected.header.get("Type")).as("type").startsWith(
        h.type() == ElfHeader.ET_DYN ? "DYN" : h.type() == ElfHeader.ET_EXEC ? "EXEC" : "REL");
    soft.assertThat(expected.header.get("OS/ABI")).as("OS/ABI")
        .isEqualTo(h.osAbi() == ElfHeader.ELFOSABI_AMDGPU_HSA ? "AMD HSA" : "UNIX - System V");
    soft.assertThat(Integer.parseInt(expected.header.get("ABI Version"))).as("ABI version").isEqualTo(h.abiVersion());
    soft.assertThat(expected.header.get("Machine")).as("machine")
        .isEqualTo(h.machine() == ElfHeader.EM_AMDGPU ? "AMD GPU" : "Advanced Micro Devices X86-64");
    soft.assertThat(Long.decode(expected.header.get("Entry point address"))).as("entry").isEqualTo(h.entry());
    soft.assertThat(expected.header.get("Start of program headers")).as("phoff")
        .isEqualTo(h.programHeaderOffset() + " (bytes into file)");
    soft.assertThat(expected.header.get("Start of section headers")).as("shoff")
        .isEqualTo(h.sectionHeaderOffset() + " (bytes into file)");
    soft.assertThat(expected.header.get("Number of program headers")).isEqualTo(Integer.toString(h.programHeaderCount()));
    soft.assertThat(expected.header.get("Number of section headers")).isEqualTo(Integer.toString(h.sectionHeaderCount()));
    soft.assertThat(expected.header.get("Section header string table index"))
        .isEqualTo(Integer.toString(h.sectionNameTableIndex()));
    String[] flags = expected.header.get("Flags").split(", ");
    soft.assertThat(Long.decode(flags[0])).as("flags").isEqualTo(h.flags() & 0xffff_ffffL);
    if (h.isAmdgpu()) {
      AmdgpuTarget t = elf.amdgpuTarget();
      if (!flags[1].startsWith("<unknown")) soft.assertThat(t.processor()).as("processor").isEqualTo(flags[1]);
      soft.assertThat("xnack " + t.xnack().name().toLowerCase()).isEqualTo(flags[2]);
      soft.assertThat("sramecc " + t.sramecc().name().toLowerCase()).isEqualTo(flags[3]);
    }
  }

  private static void compareSections(ElfFile elf, ReadelfText expected, SoftAssertions soft) {
    soft.assertThat(elf.sections()).as("section count").hasSameSizeAs(expected.sections);
    for (int i = 0; i < Math.min(elf.sections().size(), expected.sections.size()); i++) {
      SectionHeader s = elf.sections().get(i);
      ReadelfText.Section e = expected.sections.get(i);
      soft.assertThat(new ReadelfText.Section(s.index(), s.name(), s.typeName(), s.address(), s.offset(), s.size(),
          s.entrySize(), s.flagLetters(), s.link(), s.info(), s.addressAlign())).as("section %d", i).isEqualTo(e);
    }
  }

  private static void compareSegments(ElfFile elf, ReadelfText expected, SoftAssertions soft) {
    soft.assertThat(elf.segments()).as("segment count").hasSameSizeAs(expected.segments);
    for (int i = 0; i < Math.min(elf.segments().size(), expected.segments.size()); i++) {
      ProgramHeader p = elf.segments().get(i);
      String flags = "" + ((p.flags() & ProgramHeader.PF_R) != 0 ? 'R' : ' ')
          + ((p.flags() & ProgramHeader.PF_W) != 0 ? 'W' : ' ') + ((p.flags() & ProgramHeader.PF_X) != 0 ? 'E' : ' ');
      soft.assertThat(new ReadelfText.Segment(p.typeName(), p.offset(), p.virtualAddress(), p.physicalAddress(),
          p.fileSize(), p.memorySize(), flags, p.align())).as("segment %d", i).isEqualTo(expected.segments.get(i));
    }
  }

  private static void compareDynamic(ElfFile elf, ReadelfText expected, SoftAssertions soft) throws Exception {
    List<DynamicEntry> entries = elf.dynamic();
    soft.assertThat(entries).as("dynamic entries").hasSameSizeAs(expected.dynamic);
    for (int i = 0; i < Math.min(entries.size(), expected.dynamic.size()); i++) {
      DynamicEntry d = entries.get(i);
      ReadelfText.Dynamic e = expected.dynamic.get(i);
      soft.assertThat(d.tag()).as("dynamic %d tag", i).isEqualTo(e.tag());
      soft.assertThat(d.tagName()).as("dynamic %d tag name", i).isEqualTo(e.tagName());
      String v = e.value();
      if (v.startsWith("Shared library: [") || v.startsWith("Library soname: [") || v.startsWith("Library runpath: [")
          || v.startsWith("Library rpath: [")) {
        soft.assertThat(elf.dynamicString(d.value())).as("dynamic %d string", i)
            .isEqualTo(v.substring(v.indexOf('[') + 1, v.length() - 1));
      } else if (v.startsWith("0x")) {
        soft.assertThat(d.value()).as("dynamic %d value", i).isEqualTo(Long.parseUnsignedLong(v.substring(2), 16));
      } else if (v.endsWith(" (bytes)") || v.matches("\\d+")) {
        soft.assertThat(d.value()).as("dynamic %d value", i).isEqualTo(Long.parseLong(v.split(" ")[0]));
      }
    }
  }

  private static void compareRelocations(ElfFile elf, ReadelfText expected, SoftAssertions soft) throws Exception {
    List<RelocationSection> sections = elf.relocationSections();
    soft.assertThat(sections.stream().map(r -> r.section().name()).toList()).as("relocation sections")
        .isEqualTo(expected.relocations.stream().map(ReadelfText.RelocSection::name).toList());
    for (int i = 0; i < Math.min(sections.size(), expected.relocations.size()); i++) {
      List<Relocation> ours = sections.get(i).relocations();
      List<ReadelfText.Reloc> theirs = expected.relocations.get(i).entries();
      soft.assertThat(ours).as("relocations in %s", sections.get(i).section().name()).hasSameSizeAs(theirs);
      for (int j = 0; j < Math.min(ours.size(), theirs.size()); j++) {
        Relocation r = ours.get(j);
        ReadelfText.Reloc e = theirs.get(j);
        soft.assertThat(r.offset()).isEqualTo(e.offset());
        soft.assertThat(((long) r.symbolIndex() << 32) | (r.type() & 0xffff_ffffL)).isEqualTo(e.info());
        soft.assertThat(r.typeName()).isEqualTo(e.type());
        String rest;
        if (r.symbol() == null) {
          rest = Long.toHexString(r.addend());
        } else {
          String name = r.symbol().name().isEmpty() && r.symbol().type() == ElfSymbol.STT_SECTION
              ? elf.sections().get(r.symbol().sectionIndex()).name() : r.symbol().name();
          if (r.symbol().version() != null) name += "@" + r.symbol().version();
          rest = String.format("%016x %s %s %x", r.symbol().value(), name, r.addend() < 0 ? "-" : "+",
              Math.abs(r.addend()));
        }
        soft.assertThat(rest).as("relocation %d of %s", j, sections.get(i).section().name()).isEqualTo(e.rest());
      }
    }
  }

  private static void compareSymbols(ElfFile elf, ReadelfText expected, SoftAssertions soft) throws Exception {
    List<ReadelfText.SymbolTable> tables = new ArrayList<>();
    if (!elf.dynamicSymbols().isEmpty()) tables.add(new ReadelfText.SymbolTable(".dynsym", convert(elf, elf.dynamicSymbols())));
    if (!elf.symbols().isEmpty()) tables.add(new ReadelfText.SymbolTable(".symtab", convert(elf, elf.symbols())));
    List<ReadelfText.SymbolTable> theirs = new ArrayList<>();
    for (ReadelfText.SymbolTable t : expected.symbolTables) {
      List<ReadelfText.Symbol> normalised = new ArrayList<>();
      for (ReadelfText.Symbol s : t.symbols()) {
        String name = s.name();
        name = name.replaceFirst(" \\(\\d+\\)$", "");
        normalised.add(new ReadelfText.Symbol(s.index(), s.value(), s.size(), s.type(), s.bind(), s.visibility(),
            s.ndx(), name));
      }
      theirs.add(new ReadelfText.SymbolTable(t.name(), normalised));
    }
    soft.assertThat(tables.stream().map(ReadelfText.SymbolTable::name).toList()).as("symbol tables")
        .isEqualTo(theirs.stream().map(ReadelfText.SymbolTable::name).toList());
    for (int t = 0; t < Math.min(tables.size(), theirs.size()); t++) {
      List<ReadelfText.Symbol> ours = tables.get(t).symbols();
      List<ReadelfText.Symbol> expectedSymbols = theirs.get(t).symbols();
      soft.assertThat(ours).as("%s size", tables.get(t).name()).hasSameSizeAs(expectedSymbols);
      for (int i = 0; i < Math.min(ours.size(), expectedSymbols.size()); i++) {
        soft.assertThat(ours.get(i)).as("%s[%d]", tables.get(t).name(), i).isEqualTo(expectedSymbols.get(i));
      }
    }
  }

  private static List<ReadelfText.Symbol> convert(ElfFile elf, List<ElfSymbol> symbols) {
    List<ReadelfText.Symbol> out = new ArrayList<>();
    for (ElfSymbol s : symbols) {
      String ndx = s.sectionIndex() == ElfSymbol.SHN_UNDEF ? "UND" : s.sectionIndex() == ElfSymbol.SHN_ABS ? "ABS"
          : s.sectionIndex() == ElfSymbol.SHN_COMMON ? "COM" : Integer.toString(s.sectionIndex());
      String name = s.name();
      if (s.version() != null) name += (s.versionDefined() && !s.versionHidden() ? "@@" : "@") + s.version();
      out.add(new ReadelfText.Symbol(s.index(), s.value(), s.size(), ElfNames.symbolType(s.type()),
          ElfNames.symbolBinding(s.binding()), ElfNames.symbolVisibility(s.visibility()), ndx, name));
    }
    return out;
  }

  private static void compareNotes(ElfFile elf, ReadelfText expected, SoftAssertions soft) throws Exception {
    // readelf lists notes per note section and again per PT_NOTE segment; compare against the section listing.
    List<ReadelfText.Note> theirs = expected.notes.stream()
        .filter(n -> elf.sections().stream().anyMatch(s -> s.name().equals(n.section()))).toList();
    List<ElfNote> ours = elf.notes();
    soft.assertThat(ours).as("notes").hasSameSizeAs(theirs);
    for (int i = 0; i < Math.min(ours.size(), theirs.size()); i++) {
      ElfNote n = ours.get(i);
      ReadelfText.Note e = theirs.get(i);
      soft.assertThat(n.sectionName()).isEqualTo(e.section());
      soft.assertThat(n.owner()).isEqualTo(e.owner());
      soft.assertThat((long) n.descriptor().remaining()).as("note %d size", i).isEqualTo(e.dataSize());
      int data = e.description().indexOf("description data: ");
      if (n.isAmdgpuMetadata() && data >= 0) {
        ByteBuffer d = n.descriptorView();
        byte[] bytes = new byte[d.remaining()];
        d.get(bytes);
        String hex = HexFormat.ofDelimiter(" ").formatHex(bytes);
        soft.assertThat(hex.equals(e.description().substring(data + "description data: ".length()).trim()))
            .as("metadata note %d bytes equal readelf's", i).isTrue();
      }
    }
  }

  private static void compareVersions(ElfFile elf, ReadelfText expected, SoftAssertions soft) throws Exception {
    List<VersionNeed> needs = elf.versionNeeds();
    soft.assertThat(needs).as("version needs").hasSameSizeAs(expected.versionNeeds);
    for (int i = 0; i < Math.min(needs.size(), expected.versionNeeds.size()); i++) {
      VersionNeed n = needs.get(i);
      ReadelfText.VersionNeed e = expected.versionNeeds.get(i);
      soft.assertThat(n.file()).isEqualTo(e.file());
      soft.assertThat(n.versions()).hasSize(e.count());
      for (int j = 0; j < Math.min(n.versions().size(), e.versions().size()); j++) {
        VersionNeed.Aux a = n.versions().get(j);
        soft.assertThat(a.name()).isEqualTo(e.versions().get(j)[0]);
        soft.assertThat(a.index()).isEqualTo(Integer.parseInt(e.versions().get(j)[2]));
      }
    }
  }
}
