package dev.hipsim.cli.debug;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.cli.PackagedHipsim;
import dev.hipsim.testing.Corpus;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code hipsim debug} driven through stdin on corpus programs, end to end: the console, the protocol, the agent in
 * the program's own process, the engine.
 */
class DebugConsoleIT {
  /** The session on hipcc's -O2 vector_add. */
  static final String O2_SCRIPT = String.join("\n",
      "break vadd",
      "run",
      "print v0[5]",
      "stepi 31",
      "stepi",
      "print/x v[0:1][5]",
      "x/f global:v[0:1][5]",
      "info waves",
      "info breakpoints",
      "delete 1",
      "continue",
      "");

  @BeforeAll
  static void built() {
    PackagedHipsim.assumeBuilt();
  }

  static PackagedHipsim.Result debug(String variant, String script) throws Exception {
    return PackagedHipsim.run(script, "debug", "--source-dir", Corpus.root().resolve("src").toString(), "--",
        Corpus.root().resolve(variant).resolve("vector_add").toString());
  }

  @Test
  void breaksOnAKernelStepsToItsStoreAndRunsToTheEnd() throws Exception {
    PackagedHipsim.Result r = debug("gfx90a-v4", O2_SCRIPT);
    String out = r.stdout();
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(out).as(r.toString())
        .contains("Breakpoint 1 (vadd) pending until the program runs.\n")
        .containsPattern("Breakpoint 1 at 0x[0-9a-f]+: vadd\\+0x0\\.\n")
        .contains("[Switching to wave 0: workgroup (0,0,0) wave 0]\nBreakpoint 1, wave 0 in vadd+0x0\n")
        .containsPattern("=> 0x[0-9a-f]+ <vadd\\+0x0>:\ts_load_dword s0, s\\[4:5\\], 0x4\n")
        .contains("v0[5] = 0x00000005 (5)\n")
        .containsPattern("=> 0x[0-9a-f]+ <vadd\\+0xa0>:\tglobal_store_dword v\\[0:1\\], v2, off\n")
        .containsPattern("=> 0x[0-9a-f]+ <vadd\\+0xa8>:\ts_endpgm\n")
        .contains("* 0     (0,0,0)       0   running")
        .contains("\tbreakpoint already hit 1 time\n")
        .endsWith("vector_add n=100000\nPASSED\n[program exited normally]\n");
    // the store's address is c + 4*5, and the value there a[5] + b[5] = 2.5 + (1 - 1.25)
    Matcher address = Pattern.compile("v\\[0:1\\]\\[5\\] = 0x([0-9a-f]{16})\n").matcher(out);
    assertThat(address.find()).as(out).isTrue();
    long c5 = Long.parseUnsignedLong(address.group(1), 16);
    assertThat(out).contains(String.format("global:0x%x:\t2.25\n", c5));
    assertThat(r.stderr()).isEmpty();
  }

  @Test
  void twoRunsShowTheSameStatesAtTheSameStops() throws Exception {
    String script = "break vadd+0x34\nrun\ninfo registers\nprint v1\ncontinue\ninfo waves\nwave 3\nprint v0\n"
        + "stepi 5\nprint s[0:3]\ndelete\ncontinue\n";
    PackagedHipsim.Result first = debug("gfx90a-v4", script);
    PackagedHipsim.Result second = debug("gfx90a-v4", script);
    assertThat(first.stdout()).as(first.toString()).contains("Breakpoint 1, wave 1 in vadd+0x34").contains("PASSED");
    assertThat(second.stdout()).isEqualTo(first.stdout());
  }

  /** The same on the -O0 -g build: a FILE:LINE breakpoint, next over the source lines, private memory. */
  @Test
  void debugsTheDebugBuildBySourceLine() throws Exception {
    String script = String.join("\n",
        "break vadd",
        "break vector_add.hip:6",
        "run",
        "print v0[5]",
        "delete 1",
        "continue",
        "list",
        "next",
        "lane 5",
        "x/d private:60",
        "stepi 57",
        "print/x v[0:1][5]",
        "stepi",
        "x/f global:v[0:1][5]",
        "next",
        "delete",
        "continue",
        "");
    PackagedHipsim.Result r = debug("gfx90a-debug", script);
    String out = r.stdout();
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(out).as(r.toString())
        .containsPattern("Breakpoint 2 at 0x[0-9a-f]+: file vector_add.hip, line 6\\.\n")
        .contains("Breakpoint 1, wave 0 in vadd+0x0 at vector_add.hip:5\n")
        .contains("v0[5] = 0x00000005 (5)\n")
        .contains("Breakpoint 2, wave 0 in vadd+0x1d4 at vector_add.hip:6\n"
            + "6\t  int i = blockIdx.x * blockDim.x + threadIdx.x;\n")
        .contains("5\t__global__ void vadd(const float* a, const float* b, float* c, int n) {\n"
            + "6\t  int i = blockIdx.x * blockDim.x + threadIdx.x;\n7\t  if (i < n) c[i] = a[i] + b[i];\n")
        // next steps over the calls that compute blockIdx.x, blockDim.x and threadIdx.x
        .contains("7\t  if (i < n) c[i] = a[i] + b[i];\n")
        .containsPattern("=> 0x[0-9a-f]+ <vadd\\+0x414>:\tflat_load_dword v0, v\\[0:1\\]\n")
        .contains("[Switching to lane 5]\nprivate@5:0x3c:\t5\n")
        .containsPattern("=> 0x[0-9a-f]+ <vadd\\+0x568>:\tflat_store_dword v\\[0:1\\], v2\n")
        .contains("8\t}\n")
        .endsWith("vector_add n=100000\nPASSED\n[program exited normally]\n");
    Matcher address = Pattern.compile("v\\[0:1\\]\\[5\\] = 0x([0-9a-f]{16})\n").matcher(out);
    assertThat(address.find()).as(out).isTrue();
    assertThat(out).contains(String.format("global:0x%x:\t2.25\n", Long.parseUnsignedLong(address.group(1), 16)));
  }

  /** Without --device the debugger picks the GPU the program has code for, as hipsim run does (here an MI300X). */
  @Test
  void debugsAProgramBuiltOnlyForGfx942WithoutBeingToldTheDevice() throws Exception {
    PackagedHipsim.Result r = debug("gfx942-v6-ccob3", "break vadd\nrun\nprint v0[5]\ndelete 1\ncontinue\n");
    assertThat(r.stdout()).as(r.toString())
        .contains("Breakpoint 1, wave 0 in vadd+0x0\n")
        .contains("v0[5] = 0x00000005 (5)\n")
        .endsWith("PASSED\n[program exited normally]\n");
    assertThat(r.exit()).isZero();
  }

  @Test
  void reportsMistakesAndGoesOn() throws Exception {
    PackagedHipsim.Result r = debug("gfx90a-v4", "print v0\nbreak\nfrobnicate\nbreak *zz\ncatch launch\nrun\n"
        + "wave 99\nprint v99\nx/x lds:0\ndelete 7\nlane 64\nfinish\ninfo breakpoints\nquit\n");
    assertThat(r.stdout()).as(r.toString())
        .contains("The program is not being run.\n")
        .contains("usage: break KERNEL | KERNEL+OFFSET | *ADDRESS | FILE:LINE\n")
        .contains("Undefined command: \"frobnicate\".  Try \"help\".\n")
        .contains("break *ADDRESS needs a number: *zz\n")
        .contains("Catchpoint: kernel launch: vadd (grid 100096x1x1, workgroup 256x1x1), wave 0 in vadd+0x0\n")
        .contains("No wave 99 (see info waves).\n")
        .contains("cannot evaluate 'v99': v99 is not allocated (v0-v7)")
        .contains("lds:0x0 is outside the workgroup's 0 bytes of LDS\n")
        .contains("No breakpoint number 7.\n")
        .contains("lane takes 0-63: 64\n")
        .contains("Dispatch 1 of vadd finished: 1564 waves, 51593 instructions.\n")
        .contains("No breakpoints or watchpoints.\n")
        .doesNotContain("PASSED"); // quit ends the program at its stop
    assertThat(r.exit()).isEqualTo(1); // a scripted command failed
  }
}
