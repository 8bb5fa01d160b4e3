package dev.hipsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.hipsim.hip.device.ProgramDevices;
import dev.hipsim.testing.Corpus;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
  void runsACorpusProgramAndReportsStatistics() throws Exception {
    assumeNativeLibraryBuilt();
    Path program = Corpus.root().resolve("gfx90a-v4/vector_add");
    Result r = hipsim("run", "--stats", "--", program.toString());
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.stdout()).as(r.toString()).isEqualTo("vector_add n=100000\nPASSED\n");
    List<String> err = r.stderrLines();
    assertThat(err.get(0)).isEqualTo("hipsim: kernel statistics on gfx90a, AMD Instinct MI210 (wave-instructions by "
        + "category; time is dispatch wall time)");
    assertThat(err.get(1)).matches("kernel +launches +workgroups +waves +wave-instr +SALU +VALU +SMEM +VMEM +LDS "
        + "+branch/other +MFMA +time\\(ms\\) +active MIPS");
    // vector_add: one launch of 391 blocks of 256 threads (4 waves each); the categories add up to the total.
    String[] f = err.get(2).trim().split(" +");
    assertThat(f[0]).isEqualTo("_Z4vaddPKfS0_Pfi");
    assertThat(f[1]).isEqualTo("1");
    assertThat(f[2]).isEqualTo("391");
    assertThat(f[3]).isEqualTo("1564");
    long total = Long.parseLong(f[4]);
    long sum = 0;
    for (int i = 5; i < 12; i++) sum += Long.parseLong(f[i]);
    assertThat(sum).isEqualTo(total).isPositive();
    assertThat(Long.parseLong(f[9])).as("LDS").isZero();
    assertThat(Long.parseLong(f[11])).as("MFMA").isZero();
    assertThat(err).hasSize(3);
  }

  @Test
  void picksTheDeviceFromTheProgramsCode() throws Exception {
    assumeNativeLibraryBuilt();
    Result gfx940 = hipsim("run", "--stats", "--", Corpus.root().resolve("gfx940-v5/saxpy").toString());
    assertThat(gfx940.exit()).as(gfx940.toString()).isZero();
    assertThat(gfx940.stderr()).startsWith("hipsim: kernel statistics on gfx940, AMD Instinct MI300A");
    // gfx942 and gfx90a code: gfx90a is preferred; --device overrides.
    Path both = Corpus.root().resolve("gfx942-v6-ccob3/saxpy");
    assertThat(ProgramDevices.processors(both)).containsExactlyInAnyOrder("gfx90a", "gfx942");
    assertThat(ProgramDevices.choose(both).orElseThrow().target()).isEqualTo("gfx90a");
    Result forced = hipsim("run", "--device", "gfx942", "--stats", "--", both.toString());
    assertThat(forced.stderr()).as(forced.toString()).startsWith("hipsim: kernel statistics on gfx942");
    // A program whose kernels live in a library next to it: the library's code decides.
    Path app = Corpus.root().resolve("gfx940-v5/shared_lib");
    assertThat(ProgramDevices.neighbours(app)).contains(Corpus.root().resolve("gfx940-v5/libkern.so"));
    assertThat(ProgramDevices.choose(app).orElseThrow().target()).isEqualTo("gfx940");
    assertThat(ProgramDevices.choose(Paths.get("/bin/sh"))).isEmpty();
  }

  @Test
  void aMemoryFaultEndsTheProgramAsOnHardware() throws Exception {
    assumeNativeLibraryBuilt();
    Result r = hipsim("run", "--", Corpus.root().resolve("gfx90a-v4/memory_fault").toString());
    assertThat(r.exit()).as(r.toString()).isEqualTo(134);
    assertThat(r.stdout()).isEqualTo("memory_fault: storing to 0x10000 from work-item 70\n");
    assertThat(r.stderrLines()).as(r.toString()).anyMatch(l -> CorpusRunIT.FAULT.matcher(l).matches())
        .anyMatch(l -> CorpusRunIT.FAULT_LOCATION.matcher(l).matches());
  }

  @Test
  void aProgramWithoutCodeForTheDeviceAbortsAsClrDoes() throws Exception {
    assumeNativeLibraryBuilt();
    Result r = hipsim("run", "--device", "gfx90a", "--", Corpus.root().resolve("gfx940-v5/vector_add").toString());
    assertThat(r.exit()).as(r.toString()).isEqualTo(134);
    assertThat(r.stderrLines()).as(r.toString())
        .contains("\"hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\"");
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

  /** A damaged executable is named with what is wrong, instead of crashing the dynamic loader (status 139). */
  @Test
  void checksTheProgramBeforeStartingIt(@TempDir Path dir) throws Exception {
    assumeNativeLibraryBuilt();
    byte[] whole = Files.readAllBytes(Corpus.root().resolve("gfx90a-v4/vector_add"));
    Path truncated = dir.resolve("truncated");
    Files.write(truncated, Arrays.copyOf(whole, 3000));
    assertThat(truncated.toFile().setExecutable(true)).isTrue();
    Result r = hipsim("run", "--", truncated.toString());
    assertThat(r.exit()).isEqualTo(RunCommand.CANNOT_RUN);
    assertThat(r.stderr()).startsWith("hipsim: cannot run " + truncated + ": not a valid ELF file: ")
        .contains("does not fit");
    Result directory = hipsim("run", "--", dir.toString());
    assertThat(directory.stderr()).isEqualTo("hipsim: cannot run " + dir + ": is a directory\n");
    Path script = dir.resolve("script");
    Files.writeString(script, "#!/bin/sh\nexit 3\n");
    Result notExecutable = hipsim("run", "--", script.toString());
    assertThat(notExecutable.stderr()).isEqualTo("hipsim: cannot run " + script + ": not executable\n");
    // Anything that is not ELF is left to the system: a script runs and its status comes back.
    assertThat(script.toFile().setExecutable(true)).isTrue();
    assertThat(hipsim("run", "--", script.toString()).exit()).isEqualTo(3);
  }

  @Test
  void rejectsUnknownDevicesAndMissingPrograms() throws Exception {
    Result bad = hipsim("run", "--device", "gfx1100", "--", "/bin/true");
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.stderr()).contains("--device: unknown device 'gfx1100' (expected gfx90a, gfx940 or gfx942)");
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
