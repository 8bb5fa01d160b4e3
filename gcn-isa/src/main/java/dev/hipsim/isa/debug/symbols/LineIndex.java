package dev.hipsim.isa.debug.symbols;

import dev.hipsim.isa.debug.dwarf.LineRow;
import dev.hipsim.isa.debug.dwarf.LineTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The line tables of one loaded code object, indexed by GPU address: which row covers a PC, which PCs begin a
 * statement, and where each source line's code starts.
 */
public final class LineIndex {
  static final LineIndex EMPTY = new LineIndex(new long[0], new long[0], new SourceLine[0], new long[0],
      new SourceLine[0]);

  /** Address ranges [start, end) with their rows, sorted by start. */
  private final long[] start;
  private final long[] end;
  private final SourceLine[] line;
  /** Addresses where an is_stmt row with a real line (not 0) begins, sorted; several rows may share one. */
  private final long[] stmtAddress;
  private final SourceLine[] stmtLine;

  private LineIndex(long[] start, long[] end, SourceLine[] line, long[] stmtAddress, SourceLine[] stmtLine) {
    this.start = start;
    this.end = end;
    this.line = line;
    this.stmtAddress = stmtAddress;
    this.stmtLine = stmtLine;
  }

  static LineIndex of(List<LineTable> tables, long loadDelta) {
    record Range(long start, long end, SourceLine line) {}
    record Stmt(long address, SourceLine line) {}
    List<Range> ranges = new ArrayList<>();
    List<Stmt> stmts = new ArrayList<>();
    for (LineTable t : tables) {
      List<LineRow> rows = t.rows();
      for (int i = 0; i < rows.size(); i++) {
        LineRow r = rows.get(i);
        if (r.endSequence()) continue;
        String path = t.path(r.file());
        SourceLine where = new SourceLine(path == null ? "?" : path, r.line(), r.column());
        if (r.isStmt() && r.line() != 0) stmts.add(new Stmt(r.address() + loadDelta, where));
        LineRow next = i + 1 < rows.size() ? rows.get(i + 1) : null;
        if (next == null || next.address() <= r.address()) continue; // an empty range: a later row takes the address
        ranges.add(new Range(r.address() + loadDelta, next.address() + loadDelta, where));
      }
    }
    ranges.sort((a, b) -> Long.compareUnsigned(a.start, b.start));
    stmts.sort((a, b) -> Long.compareUnsigned(a.address, b.address));
    long[] s = new long[ranges.size()];
    long[] e = new long[ranges.size()];
    SourceLine[] l = new SourceLine[ranges.size()];
    for (int i = 0; i < s.length; i++) {
      s[i] = ranges.get(i).start;
      e[i] = ranges.get(i).end;
      l[i] = ranges.get(i).line;
    }
    long[] sa = new long[stmts.size()];
    SourceLine[] sl = new SourceLine[stmts.size()];
    for (int i = 0; i < sa.length; i++) {
      sa[i] = stmts.get(i).address;
      sl[i] = stmts.get(i).line;
    }
    return new LineIndex(s, e, l, sa, sl);
  }

  public boolean isEmpty() {
    return start.length == 0;
  }

  /** The row covering {@code pc}, or null (no line information there, or line 0: compiler-generated code). */
  public SourceLine at(long pc) {
    int i = Arrays.binarySearch(start, pc);
    if (i < 0) i = -i - 2;
    if (i < 0 || pc >= end[i]) return null;
    return line[i].line() == 0 ? null : line[i];
  }

  /** The statement that begins at exactly {@code pc} (the last row there wins, as in the line-number matrix). */
  public SourceLine statementAt(long pc) {
    int i = Arrays.binarySearch(stmtAddress, pc);
    if (i < 0) return null;
    while (i + 1 < stmtAddress.length && stmtAddress[i + 1] == pc) i++;
    return stmtLine[i];
  }

  /** Every statement start, in address order (for breakpoint resolution). */
  void forEachStatement(StatementVisitor v) {
    for (int i = 0; i < stmtAddress.length; i++) v.visit(stmtAddress[i], stmtLine[i]);
  }

  interface StatementVisitor {
    void visit(long address, SourceLine line);
  }
}
