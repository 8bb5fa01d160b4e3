package dev.hipsim.bundle.metadata;

/** {@code amdhsa.version}: [1,0] for code object v3, [1,1] v4, [1,2] v5 and v6. */
public record MetadataVersion(int major, int minor) {
  @Override
  public String toString() {
    return major + "." + minor;
  }
}
