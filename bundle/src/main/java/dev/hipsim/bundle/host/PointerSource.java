package dev.hipsim.bundle.host;

/** How a wrapper's {@code binary} pointer was resolved. */
public enum PointerSource {
  /** An {@code R_X86_64_RELATIVE} dynamic relocation (position-independent executables and libraries). */
  RELATIVE_RELOCATION,
  /** An {@code R_X86_64_64} relocation against a symbol (relocatable objects, some libraries). */
  SYMBOL_RELOCATION,
  /** The value stored in the file (executables linked without PIE). */
  STORED_VALUE
}
