package dev.hipsim.hip.nativelib;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Start-up and shutdown of the in-process JVM in awkward places; every scenario must end, with the right status. */
class LifecycleTest {
  private static Path program;

  @BeforeAll
  static void build() throws Exception {
    program = NativeTools.compile("lifecycle.c");
  }

  private static NativeTools.Run run(String scenario, Map<String, String> env) throws Exception {
    return NativeTools.run(List.of(program.toString(), scenario), env, 60);
  }

  @Test
  void jvmStartedOnAThreadThatNeverReturns() throws Exception {
    Map<String, String> env = new HashMap<>(NativeTools.hipEnvironment("gfx90a"));
    env.put("HIPSIM_DEBUG", "1");
    NativeTools.Run r = run("worker-starts-jvm", env);
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.stdout()).isEqualTo("worker: hipGetDeviceCount -> 0, 1\nmain: returning 0\n");
    assertThat(r.stderr()).contains("hipsim: exit: runtime shut down; destroying the JVM");
  }

  @Test
  void exitFromAnotherThreadWhileMainIsCallingHip() throws Exception {
    NativeTools.Run r = run("exit-from-thread", NativeTools.hipEnvironment("gfx90a"));
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(3);
    assertThat(r.stdout()).contains("worker: exit(3) while main keeps calling HIP");
  }

  @Test
  void everyExitHandlerOfTheProgramRunsBeforeTheRuntimeShutsDown() throws Exception {
    NativeTools.Run r = run("exit-handlers", NativeTools.hipEnvironment("gfx942"));
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(5);
    // The runtime's own handler is registered by the library's constructor, before anything of the program: it runs
    // last, so handlers registered before the first HIP call and after it (like __hip_module_dtor) both still work.
    assertThat(r.stdout()).isEqualTo("main: hipGetDeviceCount -> 0\n"
        + "dtor-like handler: hipGetDeviceCount -> 0, 1\n"
        + "early handler: hipGetDeviceCount -> 0\n");
  }

  @Test
  void withoutAJvmEveryCallFailsCleanlyAndSaysWhyOnce(@TempDir Path empty) throws Exception {
    Map<String, String> env = new HashMap<>(NativeTools.hipEnvironment("gfx90a"));
    env.put("JAVA_HOME", empty.resolve("no-jdk").toString());
    env.put("PATH", empty.toString());
    NativeTools.Run r = run("no-runtime", env);
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(7);
    assertThat(r.stdout()).isEqualTo("hipGetDeviceCount -> 3\nhipGetDeviceCount -> 3\n"
        + "hipGetErrorString -> hipsim: the HIP runtime is not running\n");
    assertThat(r.stderrLines()).containsExactly("hipsim: cannot start the HIP runtime: cannot find libjvm.so: set JAVA_HOME"
        + " to a JDK 17 or later (JAVA_HOME=" + empty.resolve("no-jdk") + ")");
  }

  @Test
  void withoutHipsimsClassesEveryCallFailsCleanly(@TempDir Path empty) throws Exception {
    Files.createDirectories(empty);
    Map<String, String> env = new HashMap<>(NativeTools.hipEnvironment("gfx90a"));
    env.put("HIPSIM_CLASSPATH", empty.toString());
    NativeTools.Run r = run("no-runtime", env);
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(7);
    assertThat(r.stdout()).startsWith("hipGetDeviceCount -> 3\n");
    assertThat(r.stderrLines()).containsExactly(
        "hipsim: cannot start the HIP runtime: hipsim's Java runtime (dev/hipsim/hip/jni/NativeHost) is not on the class path");
  }

  /** The program's JVM runs C1 alone unless HIPSIM_JIT=full; the JVM's own flag table shows which it got. */
  @Test
  void theJitModeReachesTheProgramsJvm() throws Exception {
    for (String mode : new String[] {null, "quick", "full"}) {
      Map<String, String> env = new HashMap<>(NativeTools.hipEnvironment("gfx90a"));
      env.put("HIPSIM_JAVA_OPTS", "-XX:+PrintFlagsFinal");
      if (mode != null) env.put("HIPSIM_JIT", mode);
      NativeTools.Run r = run("exit-handlers", env);
      assertThat(r.exitCode()).as(r.toString()).isEqualTo(5);
      String level = r.stdout().lines().filter(l -> l.contains(" TieredStopAtLevel ")).findFirst().orElseThrow()
          .replaceAll(".*= *(\\d+).*", "$1");
      assertThat(level).as("TieredStopAtLevel with HIPSIM_JIT=" + mode).isEqualTo("full".equals(mode) ? "4" : "1");
    }
  }

  @Test
  void anUnknownJitModeStopsTheRuntimeWithAMessage() throws Exception {
    Map<String, String> env = new HashMap<>(NativeTools.hipEnvironment("gfx90a"));
    env.put("HIPSIM_JIT", "fastest");
    NativeTools.Run r = run("no-runtime", env);
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(7);
    assertThat(r.stderrLines()).containsExactly(
        "hipsim: cannot start the HIP runtime: HIPSIM_JIT: unknown mode 'fastest' (expected quick or full)");
  }

  @Test
  void aBadDeviceNameStopsTheRuntimeWithAMessage() throws Exception {
    NativeTools.Run r = run("no-runtime", NativeTools.hipEnvironment("gfx1100"));
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(7);
    assertThat(r.stderrLines()).containsExactly(
        "hipsim: cannot start the HIP runtime: HIPSIM_DEVICE: unknown device 'gfx1100' (expected gfx90a, gfx940 or gfx942)");
  }
}
