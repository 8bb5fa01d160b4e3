package dev.hipsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.bundle.BundleEntry;
import dev.hipsim.bundle.BundleLocation;
import dev.hipsim.bundle.FatBinaryFile;
import dev.hipsim.bundle.OffloadBundle;
import dev.hipsim.bundle.ReadOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code hipsim inspect --json} and {@code hipsim extract} on Debian's librocrand1 and librocsparse0, each in a child
 * JVM limited to {@code -Xmx512m}: they must succeed (the GC log gives the peak heap), and every file extract writes
 * must be byte-identical to what clang-offload-bundler unbundles.
 */
@Tag("real-world")
class RealWorldCliTest {
  private static final Pattern GC = Pattern.compile("(\\d+)M->(\\d+)M\\((\\d+)M\\)");

  @ParameterizedTest
  @ValueSource(strings = {"librocrand.so.1", "librocsparse.so.0"})
  void inspectAndExtractFitIn512MegabytesOfHeap(String name, @TempDir Path dir) throws Exception {
    Path library = Paths.get("/usr/lib/x86_64-linux-gnu").resolve(name);
    Assumptions.assumeTrue(Files.isRegularFile(library), "skipped: " + library + " is not installed");

    Run inspect = child(dir, "inspect", "--json", library.toString());
    assertThat(inspect.status()).as(inspect.stderr()).isZero();
    assertThat(inspect.stdoutBytes()).isGreaterThan(1000);
    System.out.printf("real-world %s: inspect --json in %.1f s with -Xmx512m, %d MB of JSON, %s%n", name,
        inspect.seconds(), inspect.stdoutBytes() >> 20, inspect.heap());

    Path out = dir.resolve("out");
    Run extract = child(dir, "extract", library.toString(), "-o", out.toString());
    assertThat(extract.status()).as(extract.stderr()).isZero();
    long files;
    long bytes = 0;
    try (Stream<Path> s = Files.list(out)) {
      List<Path> all = s.toList();
      files = all.size();
      for (Path p : all) bytes += Files.size(p);
    }
    assertThat(files).isEqualTo(name.startsWith("librocrand") ? 7 : 777);
    System.out.printf("real-world %s: extract of %d code objects (%d MB) in %.1f s with -Xmx512m, %s%n", name, files,
        bytes >> 20, extract.seconds(), extract.heap());
    int same = compareWithClangOffloadBundler(library, out, dir);
    assertThat((long) same).isEqualTo(files);
    System.out.printf("real-world %s: %d extracted files byte-identical to clang-offload-bundler's%n", name, same);
  }

  /**
   * Unbundles every bundle of the library with clang-offload-bundler (LLVM 22's; LLVM 15's for the bundles whose host
   * entry LLVM 22 refuses, as testdata/build.sh does) and compares each result with the file extract wrote.
   */
  private static int compareWithClangOffloadBundler(Path library, Path extracted, Path dir) throws Exception {
    Path llvm22 = Paths.get("/usr/lib/llvm-22/bin/clang-offload-bundler");
    Path llvm15 = Paths.get("/usr/lib/llvm-15/bin/clang-offload-bundler");
    Assumptions.assumeTrue(Files.isExecutable(llvm22), "skipped: " + llvm22 + " is not installed");
    int same = 0;
    try (FatBinaryFile f = FatBinaryFile.open(library, ReadOptions.DEFAULT)) {
      for (BundleLocation l : f.bundles()) {
        OffloadBundle b = f.openBundle(l);
        Path bundle = dir.resolve("bundle");
        try (FileChannel ch = FileChannel.open(bundle, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
          ByteBuffer whole = f.source().slice(l.offset(), l.length());
          while (whole.hasRemaining()) ch.write(whole);
        }
        List<BundleEntry> device = b.deviceEntries();
        List<String> command = new ArrayList<>(List.of(llvm22.toString(), "--unbundle", "--type=o",
            "--input=" + bundle, "--targets=" + String.join(",", device.stream().map(BundleEntry::id).toList())));
        for (int i = 0; i < device.size(); i++) command.add("--output=" + dir.resolve("theirs" + i));
        if (run(command) != 0) {
          Assumptions.assumeTrue(Files.isExecutable(llvm15), "skipped: LLVM 22's bundler refuses bundle "
              + b.index() + " and " + llvm15 + " is not installed");
          command.set(0, llvm15.toString());
          assertThat(run(command)).isZero();
        }
        String stem = library.getFileName() + "-" + b.index() + "-";
        for (int i = 0; i < device.size(); i++) {
          Path theirs = dir.resolve("theirs" + i);
          Path ours = extracted.resolve(stem + device.get(i).targetLabel().replace(':', '_') + ".hsaco");
          assertThat(Files.mismatch(ours, theirs)).as("%s vs the bundler's", ours).isEqualTo(-1L);
          Files.delete(theirs);
          Files.delete(ours);
          same++;
        }
      }
    }
    return same;
  }

  private static int run(List<String> command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new IOException("timed out: " + command);
    }
    return p.exitValue();
  }

  record Run(int status, String stderr, long stdoutBytes, double seconds, long heapPeakMb, long liveMb) {
    String heap() {
      return heapPeakMb == 0 ? "no garbage collection needed"
          : "heap peak " + heapPeakMb + " MB before a collection, at most " + liveMb + " MB live after one";
    }
  }

  private static Run child(Path dir, String... args) throws IOException, InterruptedException {
    Path gc = dir.resolve("gc-" + args[0] + ".log");
    Path stdout = dir.resolve("stdout-" + args[0]);
    Path stderr = dir.resolve("stderr-" + args[0]);
    List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-Xlog:gc:file=" + gc, "-cp", System.getProperty("java.class.path"), Main.class.getName()));
    command.addAll(List.of(args));
    long start = System.nanoTime();
    Process p = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
    if (!p.waitFor(20, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("hipsim " + String.join(" ", args) + " did not finish in 20 minutes");
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    long peak = 0;
    long live = 0;
    for (String line : Files.readAllLines(gc)) {
      Matcher m = GC.matcher(line);
      if (m.find()) {
        peak = Math.max(peak, Long.parseLong(m.group(1)));
        live = Math.max(live, Long.parseLong(m.group(2)));
      }
    }
    long size = Files.size(stdout);
    Files.delete(stdout);
    return new Run(p.exitValue(), Files.readString(stderr), size, seconds, peak, live);
  }
}
