package dev.hipsim.isa.debug.dwarf;

import java.util.List;

/**
 * One line-number program of {@code .debug_line}: its header and the rows it produces.
 *
 * @param offset where the unit starts in the section
 * @param version DWARF version of the unit (2 to 5)
 * @param dwarf64 whether the unit uses the 64-bit DWARF format
 * @param directories the include directories, indexed as the unit indexes them: from 0 in DWARF 5 (entry 0 is the
 *     compilation directory), from 1 in earlier versions (entry 0 is then the compilation directory, unknown to the
 *     line table, and recorded as an empty string)
 * @param files the file names, indexed as rows index them: from 0 in DWARF 5, from 1 before (entry 0 then empty)
 */
public record LineTable(long offset, int version, boolean dwarf64, int addressSize, int minimumInstructionLength,
    int maximumOperationsPerInstruction, boolean defaultIsStmt, int lineBase, int lineRange, int opcodeBase,
    List<String> directories, List<FileEntry> files, List<LineRow> rows) {

  /**
   * The path of file {@code index} as the producer recorded it: the name alone when absolute, else joined to its
   * directory (and a relative directory to the compilation directory, when known). Null for an unknown index.
   */
  public String path(int index) {
    if (index < 0 || index >= files.size() || files.get(index) == null) return null;
    FileEntry f = files.get(index);
    if (f.name().startsWith("/")) return f.name();
    String dir = directory(f.directoryIndex());
    if (dir.isEmpty()) return f.name();
    return dir.endsWith("/") ? dir + f.name() : dir + "/" + f.name();
  }

  private String directory(int index) {
    if (index < 0 || index >= directories.size()) return "";
    String d = directories.get(index);
    if (d.startsWith("/") || index == 0) return d;
    String comp = directories.isEmpty() ? "" : directories.get(0);
    if (comp.isEmpty()) return d;
    return comp.endsWith("/") ? comp + d : comp + "/" + d;
  }
}
