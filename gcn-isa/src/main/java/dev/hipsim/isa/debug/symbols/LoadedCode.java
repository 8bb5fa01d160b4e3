package dev.hipsim.isa.debug.symbols;

import java.util.List;

/**
 * A code object as the debugger knows it once loaded: where it lies, its functions (sorted by address) and its line
 * tables. {@code warning} says why line information is missing when the object has some that could not be read.
 */
public record LoadedCode(String source, long loadBase, long loadSize, List<FunctionSymbol> functions, LineIndex lines,
    String warning) {

  public boolean contains(long address) {
    return address >= loadBase && address - loadBase < loadSize;
  }

  public boolean hasLineInfo() {
    return !lines.isEmpty();
  }

  FunctionSymbol functionAt(long pc) {
    FunctionSymbol best = null;
    for (FunctionSymbol f : functions) {
      if (f.address() > pc) break;
      if (f.contains(pc)) best = f;
    }
    return best;
  }
}
