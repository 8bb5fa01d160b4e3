package dev.hipsim.isa.mem;

/** What an access to device memory was doing when it faulted. */
public enum AccessKind {
  READ,
  WRITE,
  /** Read-modify-write (atomics): needs both read and write permission. */
  ATOMIC,
  /** Instruction fetch. */
  EXECUTE
}
