package dev.hipsim.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** Locates the test corpus for benchmarks: {@code -Dhipsim.testdata=DIR}, else {@code testdata/} above the cwd. */
final class BenchData {
  private BenchData() {}

  static Path testdata() {
    String configured = System.getProperty("hipsim.testdata");
    if (configured != null) return Paths.get(configured);
    for (Path dir = Paths.get("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("testdata/manifest.tsv"))) return dir.resolve("testdata");
    }
    throw new IllegalStateException("testdata/ not found; run from the checkout or pass -Dhipsim.testdata=DIR");
  }

  static byte[] read(String relative) {
    try {
      return Files.readAllBytes(testdata().resolve(relative));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
