package dev.hipsim.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.hipsim.testing.Corpus;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The must-show of the HIP runtime: every corpus program, in every build variant, run unmodified under
 * {@code bin/hipsim run} (the packaged CLI and the native libamdhip64), prints PASSED and exits 0 — device_printf's
 * output equal to its .expected file; memory_fault ends with ROCr's fault report and SIGABRT's status 134, as on
 * hardware. Each variant runs on the GPU it was built for; programs run two at a time; a table of program × variant
 * → seconds is printed at the end. A program that cannot pass yet (an instruction the interpreter lacks) is a failing
 * test, never a skipped one.
 */
class CorpusRunIT {
  /** Variant directory → the simulated GPU its code is for. */
  static final Map<String, String> VARIANTS = new LinkedHashMap<>();

  static {
    VARIANTS.put("gfx90a-v4", "gfx90a");
    VARIANTS.put("gfx90a-v5-xnack", "gfx90a");
    VARIANTS.put("gfx940-v5", "gfx940");
    VARIANTS.put("gfx942-v6-ccob3", "gfx942");
    VARIANTS.put("gfx942-v6-ccob2", "gfx942");
    VARIANTS.put("gfx90a-debug", "gfx90a");
  }

  static final int PARALLEL = 2;
  static final int TIMEOUT_SECONDS = 600;
  static final Pattern FAULT = Pattern.compile("Memory access fault by GPU node-\\d+ \\(Agent handle: 0x[0-9a-f]+\\) "
      + "on address 0x10000\\. Reason: Page not present or supervisor privilege\\.");
  static final Pattern FAULT_LOCATION = Pattern.compile("hipsim: kernel _Z4pokePii, workgroup \\(1,0,0\\), wave 0, "
      + "lane 6, pc 0x[0-9a-f]+: (global|flat)_store_dword .* \\(write access\\)");

  record Case(String variant, String program) {
    Path binary() {
      return Corpus.root().resolve(variant).resolve(program);
    }
  }

  record Result(int exit, String stdout, String stderr, double seconds) {
    @Override
    public String toString() {
      return "exit " + exit + " after " + String.format("%.1f", seconds) + " s\n--- stdout\n" + stdout
          + "--- stderr\n" + stderr;
    }
  }

  private static final Map<Case, Future<Result>> RUNS = new LinkedHashMap<>();
  private static final Map<Case, Result> DONE = new java.util.concurrent.ConcurrentHashMap<>();
  private static ExecutorService pool;
  private static Path home;

  @BeforeAll
  static void start() {
    home = Corpus.root().getParent();
    assumeTrue(Files.isRegularFile(home.resolve(RunCommand.NATIVE_DIR).resolve("libamdhip64.so.5")),
        "libamdhip64 was not built (no C compiler): the corpus cannot run under hipsim run");
    assertThat(home.resolve("cli/target/hipsim.jar")).as("the packaged CLI (mvn package)").isRegularFile();
    pool = Executors.newFixedThreadPool(PARALLEL);
    for (Case c : cases()) RUNS.put(c, pool.submit(() -> run(c)));
    pool.shutdown();
  }

  /** Every program binary of every variant (shared libraries and bare code objects are not programs). */
  static List<Case> cases() {
    List<Case> out = new ArrayList<>();
    for (String v : VARIANTS.keySet()) {
      File[] files = Corpus.root().resolve(v).toFile().listFiles();
      if (files == null) continue;
      TreeSet<String> names = new TreeSet<>();
      for (File f : files) {
        if (f.isFile() && f.canExecute() && !f.getName().contains(".")) names.add(f.getName());
      }
      for (String n : names) out.add(new Case(v, n));
    }
    return out;
  }

  static Result run(Case c) throws IOException, InterruptedException {
    List<String> cmd = List.of(home.resolve("bin/hipsim").toString(), "run", "--device", VARIANTS.get(c.variant()),
        "--", c.binary().toString());
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("HIPSIM_HOME", home.toString());
    pb.environment().remove("HIPSIM_CLASSPATH");
    pb.environment().remove("HIPSIM_DEVICE");
    // Two programs share the machine's cores: one worker thread each.
    pb.environment().put("HIPSIM_THREADS", "1");
    Path out = Files.createTempFile("corpus", ".out");
    Path err = Files.createTempFile("corpus", ".err");
    try {
      long start = System.nanoTime();
      Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
      boolean finished = p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      if (!finished) p.destroyForcibly().waitFor();
      double seconds = (System.nanoTime() - start) / 1e9;
      String stderr = Files.readString(err, StandardCharsets.UTF_8);
      if (!finished) stderr += "\n(killed after " + TIMEOUT_SECONDS + " s: hang)";
      Result r = new Result(finished ? p.exitValue() : -1, Files.readString(out, StandardCharsets.UTF_8), stderr,
          seconds);
      DONE.put(c, r);
      return r;
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  @TestFactory
  Stream<DynamicTest> everyProgramPassesUnderHipsimRun() {
    return RUNS.entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey().variant() + "/" + e.getKey().program(),
        () -> check(e.getKey(), e.getValue().get())));
  }

  private static void check(Case c, Result r) throws IOException {
    switch (c.program()) {
      case "memory_fault": {
        assertThat(r.exit()).as(r.toString()).isEqualTo(134);
        assertThat(r.stdout()).as(r.toString()).isEqualTo("memory_fault: storing to 0x10000 from work-item 70\n");
        List<String> lines = List.of(r.stderr().split("\n"));
        assertThat(lines).as(r.toString()).anyMatch(l -> FAULT.matcher(l).matches());
        assertThat(lines).as(r.toString()).anyMatch(l -> FAULT_LOCATION.matcher(l).matches());
        break;
      }
      case "device_printf": {
        String expected = Files.readString(Corpus.root().resolve("src/device_printf.expected"));
        assertThat(r.stdout()).as(r.toString()).isEqualTo(expected);
        assertThat(r.exit()).as(r.toString()).isZero();
        break;
      }
      default:
        assertThat(r.stdout()).as(r.toString()).endsWith("PASSED\n");
        assertThat(r.exit()).as(r.toString()).isZero();
    }
  }

  @AfterAll
  static void table() {
    if (pool != null) pool.shutdownNow();
    if (DONE.isEmpty()) return;
    TreeSet<String> programs = new TreeSet<>();
    for (Case c : DONE.keySet()) programs.add(c.program());
    StringBuilder sb = new StringBuilder("\nhipsim run, corpus: seconds per program and variant (x: failed)\n");
    sb.append(String.format("%-22s", "program"));
    for (String v : VARIANTS.keySet()) sb.append(String.format(" %16s", v));
    sb.append('\n');
    int passed = 0;
    for (String p : programs) {
      sb.append(String.format("%-22s", p));
      for (String v : VARIANTS.keySet()) {
        Case c = new Case(v, p);
        Result r = DONE.get(c);
        String cell = "-";
        if (r != null) {
          boolean ok;
          try {
            check(c, r);
            ok = true;
            passed++;
          } catch (AssertionError | IOException e) {
            ok = false;
          }
          cell = String.format("%.1f%s", r.seconds(), ok ? "" : " x");
        }
        sb.append(String.format(" %16s", cell));
      }
      sb.append('\n');
    }
    sb.append(passed).append(" of ").append(DONE.size()).append(" runs passed\n");
    System.out.print(sb);
  }
}
