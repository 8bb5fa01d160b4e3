package dev.hipsim.cli.debug;

/** A breakpoint or watchpoint as the console numbers and lists it; the engine's id once the program runs. */
final class ConsoleBreakpoint {
  enum Kind { FUNCTION, ADDRESS, LINE, WATCH }

  final int number;
  final Kind kind;
  /** What the user typed: {@code vadd}, {@code *0x1000}, {@code file.hip:7}, {@code global:0x…}. */
  final String spec;
  /** The DAP data id of a watchpoint, the file of a line breakpoint. */
  final String target;
  final int line;
  /** write, read or readWrite, for watchpoints. */
  final String access;
  Integer engineId;
  boolean verified;
  String where;
  int hits;

  ConsoleBreakpoint(int number, Kind kind, String spec, String target, int line, String access) {
    this.number = number;
    this.kind = kind;
    this.spec = spec;
    this.target = target;
    this.line = line;
    this.access = access;
  }

  String typeName() {
    if (kind != Kind.WATCH) return "breakpoint";
    return "read".equals(access) ? "read watchpoint" : "readWrite".equals(access) ? "acc watchpoint" : "hw watchpoint";
  }
}
