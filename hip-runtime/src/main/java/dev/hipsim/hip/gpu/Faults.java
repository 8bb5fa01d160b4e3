package dev.hipsim.hip.gpu;

/**
 * What happens when the device stops with an error: on real hardware ROCr prints "Memory access fault by GPU …"
 * and aborts the process. Tests record instead of aborting.
 */
public interface Faults {
  /** Prints {@code message} to the program's stderr and ends the process as abort() does; does not return. */
  void fatal(String message);
}
