package dev.hipsim.bundle.metadata;

import java.util.Optional;

/** The address space a pointer argument points into ({@code .address_space}). */
public enum AddressSpace {
  PRIVATE("private"),
  GLOBAL("global"),
  CONSTANT("constant"),
  LOCAL("local"),
  GENERIC("generic"),
  REGION("region");

  private final String metadataName;

  AddressSpace(String metadataName) {
    this.metadataName = metadataName;
  }

  public String metadataName() {
    return metadataName;
  }

  public static Optional<AddressSpace> of(String name) {
    for (AddressSpace a : values()) {
      if (a.metadataName.equals(name)) return Optional.of(a);
    }
    return Optional.empty();
  }
}
