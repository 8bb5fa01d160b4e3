package dev.hipsim.cli;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.hipsim.testing.Corpus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the packaged hipsim (bin/hipsim, on cli/target/hipsim.jar) for end-to-end tests. */
public final class PackagedHipsim {
  public static final Path HOME = Corpus.root().getParent();

  public record Result(int exit, String stdout, String stderr) {
    @Override
    public String toString() {
      return "exit " + exit + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
    }
  }

  private PackagedHipsim() {}

  public static void assumeBuilt() {
    assumeTrue(Files.isRegularFile(HOME.resolve("cli/target/hipsim.jar")),
        "the CLI is not packaged (run mvn package): skipping");
    assumeTrue(Files.isRegularFile(HOME.resolve("hip-runtime/target/native/libamdhip64.so.5")),
        "libamdhip64 was not built (no C compiler): skipping");
  }

  public static ProcessBuilder command(String... args) {
    List<String> cmd = new ArrayList<>(List.of(HOME.resolve("bin/hipsim").toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    // What the caller's shell may have set must not steer the command under test.
    for (String v : List.of("HIPSIM_CLASSPATH", "HIPSIM_DEVICE", "HIPSIM_STATS", "HIPSIM_NO_DIRECT_RUN",
        "HIPSIM_JAVA_OPTS", "HIPSIM_CDS_ARCHIVE")) {
      pb.environment().remove(v);
    }
    pb.directory(HOME.toFile());
    return pb;
  }

  /** Runs {@code hipsim ARGS} with {@code stdin} as its standard input. */
  public static Result run(String stdin, String... args) throws Exception {
    return run(java.util.Map.of(), stdin, args);
  }

  /** Runs {@code hipsim ARGS} with {@code stdin} as its standard input and {@code env} added to its environment. */
  public static Result run(java.util.Map<String, String> env, String stdin, String... args) throws Exception {
    Path in = Files.createTempFile("hipsim", ".in");
    Path out = Files.createTempFile("hipsim", ".out");
    Path err = Files.createTempFile("hipsim", ".err");
    try {
      Files.writeString(in, stdin, StandardCharsets.UTF_8);
      ProcessBuilder pb = command(args);
      pb.environment().putAll(env);
      Process p = pb.redirectInput(in.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile())
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
