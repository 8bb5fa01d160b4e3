package dev.hipsim.isa.debug;

/**
 * An access to a watched address by the instruction just executed: which watchpoint, the access's address and size,
 * whether it wrote, and the values before and after (equal for reads; unknown for bulk copies).
 */
record WatchHit(int id, BreakpointSpec.Watch watch, long address, int size, boolean write, long oldValue,
    long newValue, boolean valuesKnown) {

  String describe() {
    String what = String.format("%s:0x%x", watch.space().prefix(), address);
    if (!valuesKnown) return what + (write ? " written" : " read");
    String width = "%0" + (2 * size) + "x";
    if (!write) return what + " read: 0x" + String.format(width, newValue);
    return what + " written: old 0x" + String.format(width, oldValue) + ", new 0x" + String.format(width, newValue);
  }
}
