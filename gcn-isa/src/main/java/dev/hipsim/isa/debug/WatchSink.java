package dev.hipsim.isa.debug;

/** Where watched memory reports accesses: the dispatch being debugged. */
interface WatchSink {
  /** Whether {@code [address, address + size)} in {@code space} overlaps a watchpoint of any kind. */
  boolean watched(AddressSpace space, long address, int size);

  /** Reports an access that {@link #watched} said overlaps a watchpoint. */
  void accessed(AddressSpace space, long address, int size, boolean write, long oldValue, long newValue,
      boolean valuesKnown);
}
