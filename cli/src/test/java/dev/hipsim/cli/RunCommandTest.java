package dev.hipsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.hipsim.testing.Corpus;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RunCommandTest {
  private static final Path HOME = Corpus.root().getParent();

  record Result(int exit, String stdout, String stderr) {
    List<String> stderrLines() {
      return List.of(stderr.split("\n"));
    }

    @Override
    public String toString() {
      return "exit " + exit + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
    }
  }

  /** Runs {@code hipsim ARGS} in a fresh JVM, as bin/hipsim does (the jar is not packaged yet when tests run). */
  private static Result hipsim(String... args) throws Exception {
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", classPath, "dev.hipsim.cli.Main"));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("HIPSIM_HOME", HOME.toString());
    pb.environment().remove("HIPSIM_CLASSPATH");
    Path out = Files.createTempFile("run", ".out");
    Path err = Files.createTempFile("run", ".err");
    try {
      Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor();
        throw new AssertionError("hipsim " + String.join(" ", args) + " hung:\n" + Files.readString(out) + Files.readString(err));
      }
      return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  private static void assumeNativeLibraryBuilt() {
    assumeTrue(Files.isRegularFile(HOME.resolve(RunCommand.NATIVE_DIR).resolve("libamdhip64.so.5")),
        "libamdhip64 was not built (no C compiler): skipping hipsim run");
  }

  @Test
  void runsACorpusProgramUntilItsFirstUnsupportedCall() throws Exception {
    assumeNativeLibraryBuilt();
    Path program = Corpus.root().resolve("gfx90a-v4/vector_add");
    Result r = hipsim("run", "--device", "gfx90a", "--", program.toString());
    // Until the runtime can load code and allocate memory, the program fails its first hipMalloc, says so with
    // HIP's own error string, and exits 1 — cleanly, through the JVM that started inside it.
    assertThat(r.exit()).as(r.toString()).isEqualTo(1);
    assertThat(r.stdout()).as(r.toString()).matches("\\S*vector_add\\.hip:15: hipMalloc\\(&da, n \\* sizeof\\(float\\)\\)"
        + " failed: operation not supported\nFAILED\n");
    assertThat(r.stderrLines()).as(r.toString()).containsOnlyOnce(
        "hipsim: __hipRegisterFatBinary is not supported (returning 0)",
        "hipsim: hipMalloc is not supported (returning hipErrorNotSupported)");
    assertThat(r.stderrLines()).first().isEqualTo("hipsim: __hipRegisterFatBinary is not supported (returning 0)");
  }

  @Test
  void passesArgumentsAndTheExitStatusThrough() throws Exception {
    assumeNativeLibraryBuilt();
    Result r = hipsim("run", "/bin/sh", "-c", "echo \"$HIPSIM_DEVICE $1\"; exit 42", "sh", "--stats");
    assertThat(r.exit()).as(r.toString()).isEqualTo(42);
    assertThat(r.stdout()).isEqualTo("gfx90a --stats\n");
    Result gfx942 = hipsim("run", "--device", "gfx942", "--stats", "--", "/bin/sh", "-c",
        "echo \"$HIPSIM_DEVICE $HIPSIM_STATS\"; case \"$LD_LIBRARY_PATH\" in */hip-runtime/target/native*) echo lib;; esac");
    assertThat(gfx942.exit()).as(gfx942.toString()).isZero();
    assertThat(gfx942.stdout()).isEqualTo("gfx942 1\nlib\n");
  }

  @Test
  void reportsProgramsThatCannotBeStarted() throws Exception {
    assumeNativeLibraryBuilt();
    Result r = hipsim("run", "--", "/nonexistent/program");
    assertThat(r.exit()).isEqualTo(RunCommand.CANNOT_RUN);
    assertThat(r.stderr()).startsWith("hipsim: cannot run /nonexistent/program: ");
  }

  @Test
  void rejectsUnknownDevicesAndMissingPrograms() throws Exception {
    Result bad = hipsim("run", "--device", "gfx1100", "--", "/bin/true");
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.stderr()).contains("--device: unknown device 'gfx1100' (expected gfx90a or gfx942)");
    Result none = hipsim("run");
    assertThat(none.exit()).isEqualTo(2);
    assertThat(none.stderr()).contains("Missing required parameter: 'PROGRAM'");
  }

  @Test
  void environmentPutsTheNativeLibraryFirst() {
    Map<String, String> env = RunCommand.environment(Map.of("LD_LIBRARY_PATH", "/opt/x", "HIPSIM_CLASSPATH", "/mine"),
        Paths.get("/h"), Paths.get("/h/hip-runtime/target/native"), null, false, "/cp", "/jdk");
    assertThat(env).containsEntry("LD_LIBRARY_PATH", "/h/hip-runtime/target/native:/opt/x")
        .containsEntry("HIPSIM_HOME", "/h").containsEntry("HIPSIM_DEVICE", "gfx90a")
        .containsEntry("HIPSIM_CLASSPATH", "/mine").containsEntry("JAVA_HOME", "/jdk").doesNotContainKey("HIPSIM_STATS");
    Map<String, String> env2 = RunCommand.environment(Map.of("HIPSIM_DEVICE", "gfx942"), Paths.get("/h"),
        Paths.get("/n"), null, true, "/cp", "/jdk");
    assertThat(env2).containsEntry("LD_LIBRARY_PATH", "/n").containsEntry("HIPSIM_DEVICE", "gfx942")
        .containsEntry("HIPSIM_STATS", "1").containsEntry("HIPSIM_CLASSPATH", "/cp");
  }
}
