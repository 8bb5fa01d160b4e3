package dev.hipsim.bundle.target;

import java.util.Optional;

/** The first component of a bundle entry ID: who produced the entry. */
public enum OffloadKind {
  /** The host's own object (HIP bundles carry an empty one). */
  HOST("host"),
  /** HIP code object below version 4, or an intermediate file. */
  HIP("hip"),
  /** HIP code object of version 4 or later. */
  HIPV4("hipv4"),
  OPENMP("openmp");

  private final String spelling;

  OffloadKind(String spelling) {
    this.spelling = spelling;
  }

  public String spelling() {
    return spelling;
  }

  public static Optional<OffloadKind> of(String spelling) {
    for (OffloadKind k : values()) {
      if (k.spelling.equals(spelling)) return Optional.of(k);
    }
    return Optional.empty();
  }

  /** {@code hip} and {@code hipv4} entries are interchangeable for the HIP runtime. */
  public boolean isHip() {
    return this == HIP || this == HIPV4;
  }
}
