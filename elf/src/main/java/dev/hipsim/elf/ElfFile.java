package dev.hipsim.elf;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * A parsed ELF64 little-endian file: a host x86-64 program or library, or an AMDGPU code object.
 *
 * <p>The headers are read when the file is opened; symbols, relocations, notes and version tables are read on first
 * use. Nothing is copied wholesale: section contents are returned as read-only views of the underlying source, so a
 * library with a 1.3 GB {@code .hip_fatbin} section costs only its headers in heap.
 *
 * <p>All offsets and sizes read from the file are checked against the file before use; a file that is truncated or
 * inconsistent produces an {@link ElfFormatException} naming the offset.
 */
public final class ElfFile implements Closeable {
  private static final byte[] MAGIC = {0x7f, 'E', 'L', 'F'};
  private static final int SHN_XINDEX = 0xffff;
  private static final int SHN_LORESERVE = 0xff00;
  private static final int MAX_NAME = 1 << 20;

  private final ByteSource source;
  private final ElfHeader header;
  private final List<SectionHeader> sections;
  private final List<ProgramHeader> segments;

  private List<ElfSymbol> symbols;
  private List<ElfSymbol> dynamicSymbols;
  private List<VersionNeed> versionNeeds;
  private List<VersionDef> versionDefs;

  private ElfFile(ByteSource source) throws ElfFormatException {
    this.source = source;
    this.header = readHeader(source);
    this.segments = readSegments();
    this.sections = readSections();
  }

  /** Opens and parses a file; close the result to release it. */
  public static ElfFile open(Path path) throws IOException {
    ByteSource source = ByteSource.open(path);
    try {
      return new ElfFile(source);
    } catch (ElfFormatException e) {
      source.close();
      throw e;
    }
  }

  /** Parses an ELF image held in a buffer (from its position to its limit), without copying it. */
  public static ElfFile parse(ByteBuffer image) throws ElfFormatException {
    return new ElfFile(ByteSource.of(image));
  }

  public static ElfFile parse(byte[] image) throws ElfFormatException {
    return new ElfFile(ByteSource.of(image));
  }

  /** Parses an ELF image from any byte source (the caller keeps ownership of the source). */
  public static ElfFile parse(ByteSource source) throws ElfFormatException {
    return new ElfFile(source);
  }

  /** Whether the bytes at {@code offset} of a buffer start with the ELF magic. */
  public static boolean hasElfMagic(ByteBuffer buffer, int offset) {
    if (offset < 0 || buffer.limit() - offset < 4) return false;
    for (int i = 0; i < 4; i++) {
      if (buffer.get(offset + i) != MAGIC[i]) return false;
    }
    return true;
  }

  public ByteSource source() {
    return source;
  }

  public ElfHeader header() {
    return header;
  }

  public List<SectionHeader> sections() {
    return sections;
  }

  public List<ProgramHeader> segments() {
    return segments;
  }

  /** The first section with this name. */
  public Optional<SectionHeader> section(String name) {
    for (SectionHeader s : sections) {
      if (s.name().equals(name)) return Optional.of(s);
    }
    return Optional.empty();
  }

  /** A read-only view of a section's bytes in the file (empty for NOBITS). */
  public ByteBuffer data(SectionHeader section) throws ElfFormatException {
    return source.slice(section.offset(), section.fileSize());
  }

  /** A read-only view of a segment's file-backed bytes. */
  public ByteBuffer data(ProgramHeader segment) throws ElfFormatException {
    return source.slice(segment.offset(), segment.fileSize());
  }

  /** The AMDGPU target described by the header; fails for files that are not AMDGPU code objects. */
  public AmdgpuTarget amdgpuTarget() throws ElfFormatException {
    return AmdgpuTarget.of(header);
  }

  /**
   * Maps a virtual address to its file offset through the PT_LOAD segments (or, for files without segments such as
   * relocatable objects, through the allocated sections).
   */
  public long fileOffsetOf(long virtualAddress) throws ElfFormatException {
    for (ProgramHeader p : segments) {
      if (p.type() == ProgramHeader.PT_LOAD && p.containsInFile(virtualAddress)) {
        return p.offset() + (virtualAddress - p.virtualAddress());
      }
    }
    if (segments.isEmpty()) {
      for (SectionHeader s : sections) {
        if ((s.flags() & SectionHeader.SHF_ALLOC) != 0 && s.type() != SectionHeader.SHT_NOBITS
            && Long.compareUnsigned(virtualAddress - s.address(), s.size()) < 0) {
          return s.offset() + (virtualAddress - s.address());
        }
      }
    }
    throw new ElfFormatException(header.programHeaderOffset(),
        String.format("virtual address 0x%x is not in the file-backed part of any loadable segment", virtualAddress));
  }

  /** Symbols of {@code .symtab} (empty when the file is stripped). */
  public List<ElfSymbol> symbols() throws ElfFormatException {
    if (symbols == null) {
      symbols = readSymbolTable(SectionHeader.SHT_SYMTAB, false);
    }
    return symbols;
  }

  /** Symbols of {@code .dynsym}, with their GNU versions resolved. */
  public List<ElfSymbol> dynamicSymbols() throws ElfFormatException {
    if (dynamicSymbols == null) {
      dynamicSymbols = readSymbolTable(SectionHeader.SHT_DYNSYM, true);
    }
    return dynamicSymbols;
  }

  /** The first symbol of that name in {@code .symtab}, else in {@code .dynsym}. */
  public Optional<ElfSymbol> findSymbol(String name) throws ElfFormatException {
    for (ElfSymbol s : symbols()) {
      if (s.name().equals(name)) return Optional.of(s);
    }
    for (ElfSymbol s : dynamicSymbols()) {
      if (s.name().equals(name)) return Optional.of(s);
    }
    return Optional.empty();
  }

  /** Every REL and RELA section with its entries, in section order. */
  public List<RelocationSection> relocationSections() throws ElfFormatException {
    List<RelocationSection> out = new ArrayList<>();
    for (SectionHeader s : sections) {
      if (s.type() == SectionHeader.SHT_RELA || s.type() == SectionHeader.SHT_REL) {
        out.add(readRelocations(s));
      }
    }
    return out;
  }

  /** The entries of the dynamic section, up to and including DT_NULL (empty when there is none). */
  public List<DynamicEntry> dynamic() throws ElfFormatException {
    long offset;
    long size;
    Optional<SectionHeader> dyn = sections.stream().filter(s -> s.type() == SectionHeader.SHT_DYNAMIC).findFirst();
    if (dyn.isPresent()) {
      offset = dyn.get().offset();
      size = dyn.get().fileSize();
    } else {
      Optional<ProgramHeader> seg = segments.stream().filter(p -> p.type() == ProgramHeader.PT_DYNAMIC).findFirst();
      if (seg.isEmpty()) return List.of();
      offset = seg.get().offset();
      size = seg.get().fileSize();
    }
    source.require(offset, size, "dynamic section");
    List<DynamicEntry> out = new ArrayList<>();
    for (long at = offset; at + 16 <= offset + size; at += 16) {
      DynamicEntry e = new DynamicEntry(source.u64(at), source.u64(at + 8));
      out.add(e);
      if (e.tag() == DynamicEntry.DT_NULL) break;
    }
    return out;
  }

  /** A string from the dynamic string table (for DT_NEEDED, DT_SONAME, DT_RUNPATH values). */
  public String dynamicString(long offset) throws ElfFormatException {
    SectionHeader dynsym = sections.stream().filter(s -> s.type() == SectionHeader.SHT_DYNSYM).findFirst()
        .orElseThrow(() -> new ElfFormatException(header.sectionHeaderOffset(), "no .dynsym to find .dynstr"));
    return string(sectionAt(dynsym.link(), dynsym), offset);
  }

  /**
   * All notes: from SHT_NOTE sections, or from PT_NOTE segments when the file has no section headers.
   */
  public List<ElfNote> notes() throws ElfFormatException {
    List<ElfNote> out = new ArrayList<>();
    boolean anySection = false;
    for (SectionHeader s : sections) {
      if (s.type() == SectionHeader.SHT_NOTE) {
        anySection = true;
        readNotes(s.name(), s.offset(), s.fileSize(), s.addressAlign() == 8 ? 8 : 4, out);
      }
    }
    if (!anySection) {
      for (ProgramHeader p : segments) {
        if (p.type() == ProgramHeader.PT_NOTE) {
          readNotes("", p.offset(), p.fileSize(), p.align() == 8 ? 8 : 4, out);
        }
      }
    }
    return out;
  }

  /** The payload of the {@code NT_AMDGPU_METADATA} note (MessagePack), if the file has one. */
  public Optional<ElfNote> amdgpuMetadataNote() throws ElfFormatException {
    for (ElfNote n : notes()) {
      if (n.isAmdgpuMetadata()) return Optional.of(n);
    }
    return Optional.empty();
  }

  /** {@code .gnu.version_r}: the versions needed from each library. */
  public List<VersionNeed> versionNeeds() throws ElfFormatException {
    if (versionNeeds == null) {
      versionNeeds = readVersionNeeds();
    }
    return versionNeeds;
  }

  /** {@code .gnu.version_d}: the versions this file defines. */
  public List<VersionDef> versionDefs() throws ElfFormatException {
    if (versionDefs == null) {
      versionDefs = readVersionDefs();
    }
    return versionDefs;
  }

  @Override
  public void close() throws IOException {
    source.close();
  }

  // ---------------------------------------------------------------------------------------------- reading

  private static ElfHeader readHeader(ByteSource in) throws ElfFormatException {
    if (in.size() < ElfHeader.SIZE) {
      throw new ElfFormatException(0, "file of " + in.size() + " bytes is too small for an ELF header (64 bytes)");
    }
    for (int i = 0; i < 4; i++) {
      if (in.u8(i) != (MAGIC[i] & 0xff)) {
        throw new ElfFormatException(i, "not an ELF file (expected magic 7f 45 4c 46)");
      }
    }
    int elfClass = in.u8(4);
    if (elfClass != 2) {
      throw new ElfFormatException(4, "ELF class " + elfClass + " is not supported (only ELF64, class 2)");
    }
    int data = in.u8(5);
    if (data != 1) {
      throw new ElfFormatException(5, "data encoding " + data + " is not supported (only little-endian, 1)");
    }
    ElfHeader h = new ElfHeader(elfClass, data, in.u8(6), in.u8(7), in.u8(8), in.u16(16), in.u16(18), in.u32(20),
        in.u64(24), in.u64(32), in.u64(40), in.s32(48), in.u16(52), in.u16(54), in.u16(56), in.u16(58), in.u16(60),
        in.u16(62));
    if (h.headerSize() < ElfHeader.SIZE) {
      throw new ElfFormatException(52, "e_ehsize " + h.headerSize() + " is smaller than 64");
    }
    if (h.programHeaderCount() > 0 && h.programHeaderEntrySize() != 56) {
      throw new ElfFormatException(54, "e_phentsize " + h.programHeaderEntrySize() + " is not 56");
    }
    if (h.sectionHeaderOffset() != 0 && h.sectionHeaderEntrySize() != 64) {
      throw new ElfFormatException(58, "e_shentsize " + h.sectionHeaderEntrySize() + " is not 64");
    }
    return h;
  }

  private List<ProgramHeader> readSegments() throws ElfFormatException {
    int count = header.programHeaderCount();
    if (count == 0) return List.of();
    long base = header.programHeaderOffset();
    source.require(base, (long) count * 56, "program header table (" + count + " entries)");
    List<ProgramHeader> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      long at = base + 56L * i;
      ProgramHeader p = new ProgramHeader(i, source.s32(at), source.s32(at + 4), source.u64(at + 8),
          source.u64(at + 16), source.u64(at + 24), source.u64(at + 32), source.u64(at + 40), source.u64(at + 48));
      if (p.type() != ProgramHeader.PT_NULL && p.fileSize() != 0) {
        source.require(p.offset(), p.fileSize(), "segment " + i + " (" + p.typeName() + ")");
      }
      out.add(p);
    }
    return Collections.unmodifiableList(out);
  }

  private List<SectionHeader> readSections() throws ElfFormatException {
    long base = header.sectionHeaderOffset();
    if (base == 0) return List.of();
    long count = header.sectionHeaderCount();
    int nameIndex = header.sectionNameTableIndex();
    if (count == 0 || nameIndex == SHN_XINDEX) {
      // Extended numbering: the real values live in section header 0.
      source.require(base, 64, "section header 0");
      if (count == 0) count = source.u64(base + 32);
      if (nameIndex == SHN_XINDEX) nameIndex = (int) source.u32(base + 40);
    }
    if (count > source.size() / 64) {
      throw new ElfFormatException(60, count + " section headers cannot fit in a file of " + source.size() + " bytes");
    }
    source.require(base, count * 64, "section header table (" + count + " entries)");
    if (nameIndex >= count && nameIndex != 0) {
      throw new ElfFormatException(62, "e_shstrndx " + nameIndex + " is not below the section count " + count);
    }
    long namesOffset = 0;
    long namesSize = 0;
    if (nameIndex != 0) {
      long at = base + 64L * nameIndex;
      namesOffset = source.u64(at + 24);
      namesSize = source.u64(at + 32);
      source.require(namesOffset, namesSize, "section name table");
    }
    List<SectionHeader> out = new ArrayList<>((int) count);
    for (int i = 0; i < count; i++) {
      long at = base + 64L * i;
      int nameOffset = source.s32(at);
      int type = source.s32(at + 4);
      long offset = source.u64(at + 24);
      long size = source.u64(at + 32);
      String name = nameIndex == 0 ? "" : stringAt(namesOffset, namesSize, nameOffset & 0xffff_ffffL, at);
      SectionHeader s = new SectionHeader(i, name, nameOffset, type, source.u64(at + 8), source.u64(at + 16),
          offset, size, source.s32(at + 40), source.s32(at + 44), source.u64(at + 48), source.u64(at + 56));
      if (i > 0 && type != SectionHeader.SHT_NOBITS && type != SectionHeader.SHT_NULL) {
        source.require(offset, size, "section " + i + " (" + name + ")");
      }
      out.add(s);
    }
    return Collections.unmodifiableList(out);
  }

  private SectionHeader sectionAt(int index, SectionHeader referrer) throws ElfFormatException {
    if (index <= 0 || index >= sections.size()) {
      throw new ElfFormatException(header.sectionHeaderOffset() + 64L * referrer.index() + 40,
          "section " + referrer.index() + " (" + referrer.name() + ") links to section " + index
              + ", which does not exist");
    }
    return sections.get(index);
  }

  /** A NUL-terminated string at {@code index} within a string table section. */
  private String string(SectionHeader table, long index) throws ElfFormatException {
    return stringAt(table.offset(), table.fileSize(), index, table.offset());
  }

  private String stringAt(long tableOffset, long tableSize, long index, long referrer) throws ElfFormatException {
    if (index < 0 || index >= tableSize) {
      if (index == 0 && tableSize == 0) return "";
      throw new ElfFormatException(referrer,
          "string index " + index + " is outside its string table of " + tableSize + " bytes");
    }
    long start = tableOffset + index;
    long limit = Math.min(tableSize - index, MAX_NAME);
    ByteBuffer view = source.slice(start, limit);
    int length = 0;
    while (length < limit && view.get(length) != 0) length++;
    if (length == limit) {
      throw new ElfFormatException(start, "string is not NUL-terminated within its string table");
    }
    byte[] bytes = new byte[length];
    view.get(0, bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private List<ElfSymbol> readSymbolTable(int type, boolean withVersions) throws ElfFormatException {
    SectionHeader table = null;
    for (SectionHeader s : sections) {
      if (s.type() == type) {
        table = s;
        break;
      }
    }
    if (table == null) return List.of();
    if (table.entrySize() != 24) {
      throw new ElfFormatException(header.sectionHeaderOffset() + 64L * table.index() + 56,
          table.name() + " has entry size " + table.entrySize() + ", expected 24");
    }
    SectionHeader strings = sectionAt(table.link(), table);
    long count = table.fileSize() / 24;
    int[] versionIndex = withVersions ? readVersionIndices(table, count) : null;
    List<ElfSymbol> out = new ArrayList<>((int) count);
    for (int i = 0; i < count; i++) {
      long at = table.offset() + 24L * i;
      String name = string(strings, source.u32(at));
      String version = null;
      boolean hidden = false;
      boolean defined = false;
      if (versionIndex != null && i < versionIndex.length) {
        int v = versionIndex[i];
        hidden = (v & 0x8000) != 0;
        int index = v & 0x7fff;
        if (index > 1) {
          version = versionName(index);
          defined = isDefinedVersion(index);
        }
      }
      out.add(new ElfSymbol(i, name, source.u64(at + 8), source.u64(at + 16), source.u8(at + 4),
          source.u8(at + 5), source.u16(at + 6), version, hidden, defined));
    }
    return Collections.unmodifiableList(out);
  }

  private int[] readVersionIndices(SectionHeader dynsym, long count) throws ElfFormatException {
    for (SectionHeader s : sections) {
      if (s.type() == SectionHeader.SHT_GNU_VERSYM && s.link() == dynsym.index()) {
        int n = (int) Math.min(count, s.fileSize() / 2);
        int[] out = new int[n];
        for (int i = 0; i < n; i++) out[i] = source.u16(s.offset() + 2L * i);
        return out;
      }
    }
    return null;
  }

  private String versionName(int index) throws ElfFormatException {
    for (VersionNeed need : versionNeeds()) {
      for (VersionNeed.Aux aux : need.versions()) {
        if (aux.index() == index) return aux.name();
      }
    }
    for (VersionDef def : versionDefs()) {
      if (def.index() == index && !def.names().isEmpty()) return def.names().get(0);
    }
    return null;
  }

  private boolean isDefinedVersion(int index) throws ElfFormatException {
    for (VersionDef def : versionDefs()) {
      if (def.index() == index) return true;
    }
    return false;
  }

  private List<VersionNeed> readVersionNeeds() throws ElfFormatException {
    List<VersionNeed> out = new ArrayList<>();
    for (SectionHeader s : sections) {
      if (s.type() != SectionHeader.SHT_GNU_VERNEED) continue;
      SectionHeader strings = sectionAt(s.link(), s);
      long end = s.offset() + s.fileSize();
      long at = s.offset();
      for (int entry = 0; entry < Math.max(s.info(), 1) && at + 16 <= end; entry++) {
        int version = source.u16(at);
        int count = source.u16(at + 2);
        String file = string(strings, source.u32(at + 4));
        long aux = at + source.u32(at + 8);
        List<VersionNeed.Aux> versions = new ArrayList<>();
        for (int j = 0; j < count; j++) {
          if (aux < s.offset() || aux + 16 > end) {
            throw new ElfFormatException(aux, "version-needed auxiliary entry lies outside .gnu.version_r");
          }
          versions.add(new VersionNeed.Aux(string(strings, source.u32(aux + 8)), source.u16(aux + 4),
              source.u16(aux + 6), source.u32(aux)));
          long next = source.u32(aux + 12);
          if (next == 0) break;
          aux += next;
        }
        out.add(new VersionNeed(version, file, Collections.unmodifiableList(versions)));
        long next = source.u32(at + 12);
        if (next == 0) break;
        at += next;
      }
    }
    return Collections.unmodifiableList(out);
  }

  private List<VersionDef> readVersionDefs() throws ElfFormatException {
    List<VersionDef> out = new ArrayList<>();
    for (SectionHeader s : sections) {
      if (s.type() != SectionHeader.SHT_GNU_VERDEF) continue;
      SectionHeader strings = sectionAt(s.link(), s);
      long end = s.offset() + s.fileSize();
      long at = s.offset();
      for (int entry = 0; entry < Math.max(s.info(), 1) && at + 20 <= end; entry++) {
        int version = source.u16(at);
        int flags = source.u16(at + 2);
        int index = source.u16(at + 4);
        int count = source.u16(at + 6);
        long aux = at + source.u32(at + 12);
        List<String> names = new ArrayList<>();
        for (int j = 0; j < count; j++) {
          if (aux < s.offset() || aux + 8 > end) {
            throw new ElfFormatException(aux, "version-definition auxiliary entry lies outside .gnu.version_d");
          }
          names.add(string(strings, source.u32(aux)));
          long next = source.u32(aux + 4);
          if (next == 0) break;
          aux += next;
        }
        out.add(new VersionDef(version, flags, index, Collections.unmodifiableList(names)));
        long next = source.u32(at + 16);
        if (next == 0) break;
        at += next;
      }
    }
    return Collections.unmodifiableList(out);
  }

  private RelocationSection readRelocations(SectionHeader s) throws ElfFormatException {
    boolean rela = s.type() == SectionHeader.SHT_RELA;
    int entrySize = rela ? 24 : 16;
    if (s.entrySize() != entrySize) {
      throw new ElfFormatException(header.sectionHeaderOffset() + 64L * s.index() + 56,
          s.name() + " has entry size " + s.entrySize() + ", expected " + entrySize);
    }
    List<ElfSymbol> table = List.of();
    if (s.link() != 0) {
      SectionHeader linked = sectionAt(s.link(), s);
      table = linked.type() == SectionHeader.SHT_DYNSYM ? dynamicSymbols() : symbols();
    }
    long count = s.fileSize() / entrySize;
    List<Relocation> out = new ArrayList<>((int) count);
    for (long i = 0; i < count; i++) {
      long at = s.offset() + entrySize * i;
      long info = source.u64(at + 8);
      long symbolIndex = info >>> 32;
      ElfSymbol symbol = null;
      if (symbolIndex != 0) {
        if (symbolIndex >= table.size()) {
          throw new ElfFormatException(at + 8, "relocation refers to symbol " + symbolIndex + " of a table with "
              + table.size() + " entries");
        }
        symbol = table.get((int) symbolIndex);
      }
      out.add(new Relocation(source.u64(at), (int) info, (int) symbolIndex, rela ? source.u64(at + 16) : 0, symbol,
          header.machine()));
    }
    return new RelocationSection(s, rela, Collections.unmodifiableList(out));
  }

  private void readNotes(String sectionName, long offset, long size, int align, List<ElfNote> out)
      throws ElfFormatException {
    long end = offset + size;
    long at = offset;
    while (at + 12 <= end) {
      long nameSize = source.u32(at);
      long descSize = source.u32(at + 4);
      int type = source.s32(at + 8);
      long nameAt = at + 12;
      long descAt = nameAt + align(nameSize, align);
      long next = descAt + align(descSize, align);
      if (nameSize > size || descSize > size || next > end + (align - 1)) {
        throw new ElfFormatException(at, "note with name size " + nameSize + " and descriptor size " + descSize
            + " overruns its " + size + "-byte note section");
      }
      source.require(descAt, descSize, "note descriptor");
      String owner = "";
      if (nameSize > 0) {
        byte[] nameBytes = source.bytes(nameAt, (int) nameSize);
        int length = 0;
        while (length < nameBytes.length && nameBytes[length] != 0) length++;
        owner = new String(nameBytes, 0, length, StandardCharsets.UTF_8);
      }
      out.add(new ElfNote(sectionName, at, owner, type, source.slice(descAt, descSize)));
      at = next;
    }
  }

  private static long align(long value, int alignment) {
    return (value + alignment - 1) & -alignment;
  }
}
