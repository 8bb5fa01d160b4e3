package dev.hipsim.bundle.metadata;

import java.util.Optional;

/** How a kernel accesses a buffer or image argument ({@code .access}, {@code .actual_access}). */
public enum Access {
  READ_ONLY("read_only"),
  WRITE_ONLY("write_only"),
  READ_WRITE("read_write");

  private final String metadataName;

  Access(String metadataName) {
    this.metadataName = metadataName;
  }

  public String metadataName() {
    return metadataName;
  }

  public static Optional<Access> of(String name) {
    for (Access a : values()) {
      if (a.metadataName.equals(name)) return Optional.of(a);
    }
    return Optional.empty();
  }
}
