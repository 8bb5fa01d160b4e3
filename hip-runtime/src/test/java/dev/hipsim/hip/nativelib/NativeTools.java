package dev.hipsim.hip.nativelib;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Builds and runs C test programs against the replacement libamdhip64 built by this module. */
public final class NativeTools {
  private NativeTools() {}

  /** What a program did. */
  public record Run(int exitCode, String stdout, String stderr) {
    public List<String> stderrLines() {
      return stderr.isEmpty() ? List.of() : List.of(stderr.split("\n"));
    }

    @Override
    public String toString() {
      return "exit " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
    }
  }

  /** target/native, where the build put libamdhip64.so.{5,6,7}; skips the test when it was not built (no gcc). */
  public static Path nativeDir() {
    Path dir = Paths.get(System.getProperty("hipsim.native.dir", "target/native"));
    assumeTrue(Files.isRegularFile(dir.resolve("libamdhip64.so.5")),
        "libamdhip64 was not built (no C compiler at build time): " + dir);
    return dir.toAbsolutePath();
  }

  public static Path testSources() {
    return Paths.get("src/test/c").toAbsolutePath();
  }

  /** The C compiler, or skip. */
  public static String compiler() {
    String cc = System.getenv().getOrDefault("CC", "gcc");
    assumeTrue(onPath(cc), "no C compiler (" + cc + ") on PATH");
    return cc;
  }

  public static boolean onPath(String tool) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Paths.get(dir, tool))) return true;
    }
    return false;
  }

  /** Compiles {@code source} (in src/test/c) into target/test-native, linked against libamdhip64.so.5. */
  public static Path compile(String source, String... extraFlags) throws IOException, InterruptedException {
    Path lib = nativeDir();
    Path out = Paths.get("target/test-native").toAbsolutePath();
    Files.createDirectories(out);
    Path exe = out.resolve(source.replace(".c", ""));
    List<String> cmd = new ArrayList<>(List.of(compiler(), "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-o",
        exe.toString(), testSources().resolve(source).toString()));
    cmd.addAll(List.of(extraFlags));
    cmd.addAll(List.of("-L" + lib, "-l:libamdhip64.so.5", "-lpthread"));
    Run r = run(cmd, Map.of(), 60);
    if (r.exitCode() != 0) throw new IllegalStateException("compiling " + source + " failed:\n" + r);
    return exe;
  }

  /** The class path the embedded JVM should use: this module's classes and dependencies. */
  public static String runtimeClassPath() {
    String cp = System.getProperty("surefire.test.class.path");
    return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
  }

  /** Environment for running a program against libamdhip64 from this build. */
  public static Map<String, String> hipEnvironment(String device) {
    return Map.of("LD_LIBRARY_PATH", nativeDir().toString(), "HIPSIM_CLASSPATH", runtimeClassPath(),
        "JAVA_HOME", System.getProperty("java.home"), "HIPSIM_DEVICE", device);
  }

  /** Runs a command with extra environment; fails the test if it does not finish within the timeout. */
  public static Run run(List<String> command, Map<String, String> env, int timeoutSeconds)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().putAll(env);
    Path out = Files.createTempFile("hipsim-run", ".out");
    Path err = Files.createTempFile("hipsim-run", ".err");
    try {
      pb.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
      Process p = pb.start();
      if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor();
        throw new AssertionError(command + " did not finish within " + timeoutSeconds + " s (hang)\n--- stdout\n"
            + Files.readString(out) + "--- stderr\n" + Files.readString(err));
      }
      return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
