package dev.hipsim.bundle.testing;

import dev.hipsim.testing.Corpus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.nio.ByteBuffer;

/** The bundle-related recordings of testdata/: bundles.tsv, N.list.txt, the extras. */
public final class BundleCorpus {
  private BundleCorpus() {}

  /** One line of {@code B.bundles.tsv}: index, offset in .hip_fatbin, length up to the next bundle, format. */
  public record RecordedBundle(int index, long offset, long length, String format) {}

  public static List<RecordedBundle> bundles(Path binary) {
    List<RecordedBundle> out = new ArrayList<>();
    for (String line : lines(Corpus.recorded(binary, "bundles.tsv"))) {
      if (line.isBlank()) continue;
      String[] f = line.split("\t");
      out.add(new RecordedBundle(Integer.parseInt(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]), f[3]));
    }
    return out;
  }

  /** The entry IDs clang-offload-bundler --list printed for bundle {@code index}. */
  public static List<String> listed(Path binary, int index) {
    List<String> out = new ArrayList<>();
    for (String line : lines(binary.resolveSibling(binary.getFileName() + ".co").resolve(index + ".list.txt"))) {
      if (!line.isBlank()) out.add(line);
    }
    return out;
  }

  /** Every file with a recorded {@code .bundles.tsv}: host binaries and bare bundles (module_kernels.co). */
  public static List<Path> filesWithBundles() {
    List<Path> out = new ArrayList<>();
    for (String v : Corpus.variants()) {
      try (java.util.stream.Stream<Path> s = Files.list(Corpus.root().resolve(v))) {
        s.filter(Files::isRegularFile).filter(p -> Files.isRegularFile(Corpus.recorded(p, "bundles.tsv"))).sorted()
            .forEach(out::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  public static Path extras() {
    return Corpus.root().resolve("extras");
  }

  public static List<String> lines(Path p) {
    try {
      return Files.readAllLines(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static String sha256(ByteBuffer data) {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      d.update(data.duplicate());
      return HexFormat.of().formatHex(d.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  public static String sha256(byte[] data) {
    return sha256(ByteBuffer.wrap(data));
  }
}
