package dev.hipsim.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The hipcc-built test corpus in {@code testdata/}: host binaries, the code objects extracted from them by LLVM's
 * clang-offload-bundler, and the outputs of LLVM's tools recorded at build time. Shared with other modules through
 * this module's test jar.
 */
public final class Corpus {
  private Corpus() {}

  /** One code object listed in {@code testdata/manifest.tsv}. */
  public record CodeObject(String variant, String program, int bundle, String entryId, long size, String sha256) {
    /** The target ID part of the entry ID, e.g. {@code gfx90a:xnack-}. */
    public String targetId() {
      return entryId.substring(entryId.indexOf("amdhsa--") + "amdhsa--".length());
    }

    /** The host binary this code object was extracted from. */
    public Path hostBinary() {
      return root().resolve(variant).resolve(program);
    }

    /** Path of the extracted code object, or of one of its recorded tool outputs ({@code "readelf.txt"} …). */
    public Path file(String suffix) {
      return root().resolve(variant).resolve(program + ".co").resolve(bundle + "-" + targetId().replace(':', '_') + "." + suffix);
    }

    public Path hsaco() {
      return file("hsaco");
    }

    @Override
    public String toString() {
      return variant + "/" + program + "#" + bundle + ":" + targetId();
    }
  }

  /** The testdata directory (system property {@code hipsim.testdata}, else found above the working directory). */
  public static Path root() {
    String configured = System.getProperty("hipsim.testdata");
    if (configured != null && Files.isDirectory(Paths.get(configured))) {
      return Paths.get(configured);
    }
    for (Path dir = Paths.get("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("testdata/manifest.tsv"))) return dir.resolve("testdata");
    }
    throw new IllegalStateException("testdata/ not found; set -Dhipsim.testdata");
  }

  /** Build variants (directories), e.g. {@code gfx90a-v4}. */
  public static List<String> variants() {
    try (Stream<Path> s = Files.list(root())) {
      return s.filter(Files::isDirectory).map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("gfx")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every host binary (executables and shared libraries) of every variant. */
  public static List<Path> hostBinaries() {
    List<Path> out = new ArrayList<>();
    for (String v : variants()) {
      try (Stream<Path> s = Files.list(root().resolve(v))) {
        s.filter(Files::isRegularFile)
            .filter(p -> Files.isRegularFile(Paths.get(p + ".readelf.txt")))
            .sorted()
            .forEach(out::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  /** One host binary, e.g. {@code binary("gfx90a-v4", "vector_add")}. */
  public static Path binary(String variant, String program) {
    return root().resolve(variant).resolve(program);
  }

  /** Every code object of the manifest. */
  public static List<CodeObject> codeObjects() {
    try {
      List<CodeObject> out = new ArrayList<>();
      for (String line : Files.readAllLines(root().resolve("manifest.tsv"))) {
        if (line.isBlank()) continue;
        String[] f = line.split("\t");
        out.add(new CodeObject(f[0], f[1], Integer.parseInt(f[2]), f[3], Long.parseLong(f[4]), f[5]));
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The recorded output next to a host binary, e.g. {@code recorded(bin, "readelf.txt")}. */
  public static Path recorded(Path binary, String suffix) {
    return Paths.get(binary + "." + suffix);
  }

  public static byte[] read(Path path) {
    try {
      return Files.readAllBytes(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
