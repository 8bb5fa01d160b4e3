package dev.hipsim.bundle;

import java.util.Optional;

/**
 * Where one bundle lies in a file, found without decompressing it.
 *
 * @param index position among the bundles of its section (0 for a bundle on its own)
 * @param offset file offset of the bundle's magic
 * @param length bytes the bundle occupies in the file
 * @param format plain or compressed
 * @param compression the compressed header, for compressed bundles
 */
public record BundleLocation(int index, long offset, long length, BundleFormat format,
    Optional<CompressedHeader> compression) {

  /** A label such as {@code plain} or {@code ccob-v3/zstd}. */
  public String formatLabel() {
    return compression.map(c -> "ccob-v" + c.version() + "/" + c.method().displayName()).orElse("plain");
  }
}
