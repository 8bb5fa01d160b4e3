package dev.hipsim.bundle;

/** The two containers clang-offload-bundler writes for object files. */
public enum BundleFormat {
  /** {@code __CLANG_OFFLOAD_BUNDLE__}: a header and the entries, uncompressed. */
  PLAIN("plain"),
  /** {@code CCOB}: a plain bundle compressed with zlib or zstd (versions 1 to 3). */
  COMPRESSED("ccob");

  private final String displayName;

  BundleFormat(String displayName) {
    this.displayName = displayName;
  }

  public String displayName() {
    return displayName;
  }
}
