package dev.hipsim.cli.debug;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.hipsim.testing.Corpus;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the packaged hipsim (cli/target/hipsim-cli.jar and lib/, as bin/hipsim does) for end-to-end tests. */
final class PackagedHipsim {
  static final Path HOME = Corpus.root().getParent();

  record Result(int exit, String stdout, String stderr) {
    @Override
    public String toString() {
      return "exit " + exit + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
    }
  }

  private PackagedHipsim() {}

  static void assumeBuilt() {
    assumeTrue(Files.isRegularFile(HOME.resolve("cli/target/hipsim-cli.jar")),
        "the CLI is not packaged (run mvn package): skipping");
    assumeTrue(Files.isRegularFile(HOME.resolve("hip-runtime/target/native/libamdhip64.so.5")),
        "libamdhip64 was not built (no C compiler): skipping");
  }

  static ProcessBuilder command(String... args) {
    List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", HOME.resolve("cli/target/hipsim-cli.jar") + File.pathSeparator + HOME.resolve("cli/target/lib/*"),
        "dev.hipsim.cli.Main"));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("HIPSIM_HOME", HOME.toString());
    pb.environment().remove("HIPSIM_CLASSPATH");
    pb.directory(HOME.toFile());
    return pb;
  }

  /** Runs {@code hipsim ARGS} with {@code stdin} as its standard input. */
  static Result run(String stdin, String... args) throws Exception {
    Path in = Files.createTempFile("hipsim", ".in");
    Path out = Files.createTempFile("hipsim", ".out");
    Path err = Files.createTempFile("hipsim", ".err");
    try {
      Files.writeString(in, stdin, StandardCharsets.UTF_8);
      Process p = command(args).redirectInput(in.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile())
          .start();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly().waitFor();
        throw new AssertionError("hipsim " + String.join(" ", args) + " hung:\n" + Files.readString(out)
            + Files.readString(err));
      }
      return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(in);
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
