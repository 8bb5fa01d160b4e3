package dev.hipsim.bundle.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** Runs LLVM 22's tools from /usr/lib/llvm-22/bin; tests that need them are skipped, saying so, when absent. */
public final class Llvm {
  public static final Path BIN = Paths.get("/usr/lib/llvm-22/bin");

  private Llvm() {}

  /** The tool's path; skips the calling test when it is not installed. */
  public static Path require(String tool) {
    Path p = BIN.resolve(tool);
    Assumptions.assumeTrue(Files.isExecutable(p), "skipped: " + p + " is not installed (LLVM 22 needed)");
    return p;
  }

  /** The result of running a tool. */
  public record Result(int exitCode, String stdout, String stderr) {}

  public static Result run(List<String> command, Map<String, String> env) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().putAll(env);
    Path out = Files.createTempFile("llvm-out", ".txt");
    Path err = Files.createTempFile("llvm-err", ".txt");
    try {
      pb.redirectOutput(out.toFile()).redirectError(err.toFile());
      Process p = pb.start();
      if (!p.waitFor(300, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("timed out: " + command);
      }
      return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /** Runs and requires success; returns stdout. */
  public static String check(Map<String, String> env, String... command) throws IOException, InterruptedException {
    Result r = run(List.of(command), env);
    if (r.exitCode() != 0) {
      throw new AssertionError(String.join(" ", command) + " failed with " + r.exitCode() + ": " + r.stderr());
    }
    return r.stdout();
  }

  public static List<String> lines(String text) {
    List<String> out = new ArrayList<>();
    for (String l : text.split("\n")) if (!l.isBlank()) out.add(l);
    return out;
  }
}
