package dev.hipsim.bundle.metadata;

/** Three sizes, for work-group size attributes and cluster dimensions. */
public record Dim3(long x, long y, long z) {
  @Override
  public String toString() {
    return x + "," + y + "," + z;
  }
}
