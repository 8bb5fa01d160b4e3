package dev.hipsim.hip.nativelib;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A C program calls the replacement libamdhip64: the JVM starts inside it and answers through the bridge. */
class NativeBridgeTest {
  private static Path program;

  @BeforeAll
  static void build() throws Exception {
    program = NativeTools.compile("bridge_smoke.c");
  }

  @ParameterizedTest
  @ValueSource(strings = {"gfx90a", "gfx942"})
  void answersThroughTheBridge(String device) throws Exception {
    NativeTools.Run r = NativeTools.run(List.of(program.toString()), NativeTools.hipEnvironment(device), 60);
    assertThat(r.stdout()).as(r.toString()).endsWith("PASSED\n");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    // Each unsupported function is reported once, however often it is called.
    assertThat(r.stderrLines()).containsOnlyOnce("hipsim: hipGraphCreate is not supported (returning hipErrorNotSupported)");
    assertThat(r.stderrLines()).filteredOn(l -> l.startsWith("hipsim:") && l.contains("hipGraphCreate")).hasSize(1);
    assertThat(r.stderrLines()).contains(
        "hipsim: hipExtLaunchKernel is not supported (returning hipErrorNotSupported)",
        "hipsim: hipCreateChannelDesc is not supported (returning zeros)",
        "hipsim: __gnu_h2f_ieee is not supported (returning 0)");
  }

  @ParameterizedTest
  @ValueSource(strings = {"gfx90a"})
  void runtimeMessagesGoThroughTheProgramsStdioBuffers(String device) throws Exception {
    // The program makes stderr fully buffered: only a message written through the C library's FILE lands between
    // the program's own lines; one written to file descriptor 2 directly would come out first.
    NativeTools.Run r = NativeTools.run(List.of(program.toString()), NativeTools.hipEnvironment(device), 60);
    List<String> lines = r.stderrLines();
    int before = lines.indexOf("program: before the first hipGraphCreate");
    int message = lines.indexOf("hipsim: hipGraphCreate is not supported (returning hipErrorNotSupported)");
    int after = lines.indexOf("program: after the first hipGraphCreate");
    assertThat(before).as(r.toString()).isNotNegative();
    assertThat(message).as(r.toString()).isEqualTo(before + 1);
    assertThat(after).as(r.toString()).isEqualTo(message + 1);
  }
}
