package dev.hipsim.isa.debug;

/** Where a breakpoint or watchpoint is, as the user gave it. */
public sealed interface BreakpointSpec {
  /** A function (kernel or device function) by name, at an offset from its first instruction. */
  record Function(String name, long offset) implements BreakpointSpec {
    @Override
    public String toString() {
      return offset == 0 ? name : name + "+0x" + Long.toHexString(offset);
    }
  }

  /** An instruction by GPU address. */
  record Address(long pc) implements BreakpointSpec {
    @Override
    public String toString() {
      return String.format("*0x%x", pc);
    }
  }

  /** A source line. */
  record Line(String file, int line) implements BreakpointSpec {
    @Override
    public String toString() {
      return file + ":" + line;
    }
  }

  /** A watchpoint on {@code length} bytes of global memory or LDS. */
  record Watch(AddressSpace space, long address, int length, WatchKind kind) implements BreakpointSpec {
    public Watch {
      if (space == AddressSpace.PRIVATE) throw new IllegalArgumentException("private memory cannot be watched");
      if (length < 1 || length > 8) throw new IllegalArgumentException("watch 1 to 8 bytes, not " + length);
    }

    /** The canonical text, also used as the DAP data breakpoint id: {@code global:0x1000/4}. */
    public String dataId() {
      return String.format("%s:0x%x/%d", space.prefix(), address, length);
    }

    @Override
    public String toString() {
      return dataId() + (kind == WatchKind.WRITE ? "" : kind == WatchKind.READ ? " (read)" : " (access)");
    }
  }
}
