package dev.hipsim.isa.debug.symbols;

/** A place in a source file as a line table records it (the path as the compiler wrote it). */
public record SourceLine(String path, int line, int column) {

  /** The file name without its directories. */
  public String fileName() {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? path : path.substring(slash + 1);
  }

  @Override
  public String toString() {
    return fileName() + ":" + line;
  }
}
