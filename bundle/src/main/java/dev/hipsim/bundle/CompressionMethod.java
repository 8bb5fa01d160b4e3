package dev.hipsim.bundle;

import java.util.Optional;

/** How a compressed bundle's payload is compressed: the {@code Method} field of a CCOB header. */
public enum CompressionMethod {
  ZLIB(0, "zlib"),
  ZSTD(1, "zstd");

  private final int code;
  private final String displayName;

  CompressionMethod(int code, String displayName) {
    this.code = code;
    this.displayName = displayName;
  }

  /** The value in the header ({@code llvm::compression::Format}). */
  public int code() {
    return code;
  }

  public String displayName() {
    return displayName;
  }

  public static Optional<CompressionMethod> ofCode(int code) {
    for (CompressionMethod m : values()) {
      if (m.code == code) return Optional.of(m);
    }
    return Optional.empty();
  }
}
