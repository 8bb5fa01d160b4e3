package dev.hipsim.hip.api;

/**
 * Where the runtime's own messages go: one line each, on the program's stderr (through the C library's
 * {@code stderr}, so they interleave correctly with what the program itself writes there).
 */
@FunctionalInterface
public interface Diagnostics {
  void line(String message);
}
