package dev.hipsim.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A parse of GNU {@code readelf -W} output, as recorded by testdata/build.sh: the oracle for the ELF reader. */
public final class ReadelfText {
  public record Section(int index, String name, String type, long address, long offset, long size, long entrySize,
      String flags, int link, int info, long align) {}

  public record Segment(String type, long offset, long vaddr, long paddr, long fileSize, long memSize, String flags,
      long align) {}

  public record Dynamic(long tag, String tagName, String value) {}

  public record Reloc(long offset, long info, String type, String rest) {}

  public record RelocSection(String name, long offset, List<Reloc> entries) {}

  public record Symbol(int index, long value, long size, String type, String bind, String visibility, String ndx,
      String name) {}

  public record SymbolTable(String name, List<Symbol> symbols) {}

  public record Note(String section, String owner, long dataSize, String description) {}

  public record VersionNeed(String file, int count, List<String[]> versions) {}

  public final Map<String, String> header = new LinkedHashMap<>();
  public final List<Section> sections = new ArrayList<>();
  public final List<Segment> segments = new ArrayList<>();
  public final List<Dynamic> dynamic = new ArrayList<>();
  public final List<RelocSection> relocations = new ArrayList<>();
  public final List<SymbolTable> symbolTables = new ArrayList<>();
  public final List<Note> notes = new ArrayList<>();
  public final List<VersionNeed> versionNeeds = new ArrayList<>();

  private static final Pattern SECTION = Pattern.compile(
      "^\\s*\\[\\s*(\\d+)\\]\\s(\\S*)\\s+(\\S+(?: SECTION INDICES)?)\\s+([0-9a-f]{16})\\s([0-9a-f]+)\\s([0-9a-f]+)"
          + "\\s([0-9a-f]+)\\s+([A-Za-z]*)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)$");
  private static final Pattern SEGMENT = Pattern.compile(
      "^\\s+(\\S+)\\s+0x([0-9a-f]+)\\s0x([0-9a-f]+)\\s0x([0-9a-f]+)\\s0x([0-9a-f]+)\\s0x([0-9a-f]+)\\s(.{3})\\s(0x[0-9a-f]+|0)$");
  private static final Pattern DYNAMIC = Pattern.compile("^\\s*0x([0-9a-f]{16})\\s\\((\\S+)\\)\\s+(.*)$");
  private static final Pattern RELOC_HEAD = Pattern.compile("^Relocation section '([^']*)' at offset 0x([0-9a-f]+) contains.*");
  private static final Pattern RELOC = Pattern.compile("^([0-9a-f]{16})\\s+([0-9a-f]{16})\\s+(\\S+)\\s*(.*)$");
  private static final Pattern SYMTAB_HEAD = Pattern.compile("^Symbol table '([^']*)' contains \\d+ entr.*");
  private static final Pattern SYMBOL = Pattern.compile(
      "^\\s*(\\d+):\\s([0-9a-f]{16})\\s+(\\d+|0x[0-9a-f]+)\\s(\\S+)\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)\\s?(.*)$");
  private static final Pattern NOTES_HEAD = Pattern.compile("^Displaying notes found in: (.*)$");
  private static final Pattern NOTE = Pattern.compile("^\\s\\s(\\S+)\\s+0x([0-9a-f]+)\\t(.*)$");
  private static final Pattern VERNEED = Pattern.compile("^\\s+\\S+: Version: \\d+\\s+File: (\\S+)\\s+Cnt: (\\d+)$");
  private static final Pattern VERNEED_AUX = Pattern.compile("^\\s+0x\\S+:\\s+Name: (\\S+)\\s+Flags: (\\S+)\\s+Version: (\\d+)$");

  public static ReadelfText parse(Path path) {
    try {
      return parse(Files.readAllLines(path));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static ReadelfText parse(List<String> lines) {
    ReadelfText out = new ReadelfText();
    String block = "";
    RelocSection relocs = null;
    SymbolTable symbols = null;
    String noteSection = null;
    VersionNeed need = null;
    for (String line : lines) {
      Matcher m;
      if (line.equals("ELF Header:")) { block = "header"; continue; }
      if (line.startsWith("Section Headers:")) { block = "sections"; continue; }
      if (line.startsWith("Program Headers:")) { block = "segments"; continue; }
      if (line.startsWith(" Section to Segment mapping")) { block = "mapping"; continue; }
      if (line.startsWith("Dynamic section at offset")) { block = "dynamic"; continue; }
      if (line.startsWith("Version symbols section")) { block = "versym"; continue; }
      if (line.startsWith("Version needs section")) { block = "verneed"; continue; }
      if (line.startsWith("Version definition section")) { block = "verdef"; continue; }
      if ((m = RELOC_HEAD.matcher(line)).matches()) {
        block = "reloc";
        relocs = new RelocSection(m.group(1), Long.parseLong(m.group(2), 16), new ArrayList<>());
        out.relocations.add(relocs);
        continue;
      }
      if ((m = SYMTAB_HEAD.matcher(line)).matches()) {
        block = "symbols";
        symbols = new SymbolTable(m.group(1), new ArrayList<>());
        out.symbolTables.add(symbols);
        continue;
      }
      if ((m = NOTES_HEAD.matcher(line)).matches()) {
        block = "notes";
        noteSection = m.group(1);
        continue;
      }
      switch (block) {
        case "header": {
          int colon = line.indexOf(':');
          if (colon > 0 && line.startsWith("  ")) out.header.put(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
          break;
        }
        case "sections":
          if ((m = SECTION.matcher(line)).matches()) {
            out.sections.add(new Section(Integer.parseInt(m.group(1)), m.group(2), m.group(3), hex(m.group(4)),
                hex(m.group(5)), hex(m.group(6)), hex(m.group(7)), m.group(8), Integer.parseInt(m.group(9)),
                Integer.parseInt(m.group(10)), Long.parseLong(m.group(11))));
          }
          break;
        case "segments":
          if ((m = SEGMENT.matcher(line)).matches()) {
            String align = m.group(8);
            out.segments.add(new Segment(m.group(1), hex(m.group(2)), hex(m.group(3)), hex(m.group(4)),
                hex(m.group(5)), hex(m.group(6)), m.group(7), align.equals("0") ? 0 : hex(align.substring(2))));
          }
          break;
        case "dynamic":
          if ((m = DYNAMIC.matcher(line)).matches()) {
            out.dynamic.add(new Dynamic(Long.parseUnsignedLong(m.group(1), 16), m.group(2), m.group(3).trim()));
          }
          break;
        case "reloc":
          if ((m = RELOC.matcher(line)).matches()) {
            relocs.entries().add(new Reloc(Long.parseUnsignedLong(m.group(1), 16), Long.parseUnsignedLong(m.group(2), 16),
                m.group(3), m.group(4).trim()));
          }
          break;
        case "symbols":
          if ((m = SYMBOL.matcher(line)).matches()) {
            String size = m.group(3);
            symbols.symbols().add(new Symbol(Integer.parseInt(m.group(1)), Long.parseUnsignedLong(m.group(2), 16),
                size.startsWith("0x") ? Long.parseLong(size.substring(2), 16) : Long.parseLong(size), m.group(4),
                m.group(5), m.group(6), m.group(7), m.group(8)));
          }
          break;
        case "notes":
          if ((m = NOTE.matcher(line)).matches()) {
            out.notes.add(new Note(noteSection, m.group(1), Long.parseLong(m.group(2), 16), m.group(3)));
          }
          break;
        case "verneed":
          if ((m = VERNEED.matcher(line)).matches()) {
            need = new VersionNeed(m.group(1), Integer.parseInt(m.group(2)), new ArrayList<>());
            out.versionNeeds.add(need);
          } else if ((m = VERNEED_AUX.matcher(line)).matches() && need != null) {
            need.versions().add(new String[] {m.group(1), m.group(2), m.group(3)});
          }
          break;
        default:
          break;
      }
    }
    return out;
  }

  private static long hex(String s) {
    return Long.parseUnsignedLong(s, 16);
  }
}
