package dev.hipsim.isa.debug;

/** What makes a watchpoint stop the program. */
public enum WatchKind {
  WRITE,
  READ,
  ACCESS;

  boolean on(boolean write) {
    return this == ACCESS || (this == WRITE) == write;
  }
}
