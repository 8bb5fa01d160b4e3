package dev.hipsim.isa.debug;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.isa.dispatch.WaveFault;
import dev.hipsim.isa.exec.DispatchStats;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The engine on hipcc's -O2 vector_add (gfx90a, code object v4): breakpoints, steps, memory, watchpoints. */
class DebuggerVectorAddTest {
  static final int N = 1000;
  static final int GRID = 1024;

  record Buffers(long a, long b, long c) {}

  static Buffers setUp(DebugHarness h) throws Exception {
    long a = h.alloc(4L * N);
    long b = h.alloc(4L * N);
    long c = h.alloc(4L * N);
    ByteBuffer av = ByteBuffer.allocate(4 * N).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer bv = ByteBuffer.allocate(4 * N).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < N; i++) {
      av.putFloat(4 * i, 0.5f * i);
      bv.putFloat(4 * i, 1.0f - 0.25f * i);
    }
    h.write(a, av.array());
    h.write(b, bv.array());
    return new Buffers(a, b, c);
  }

  static DebugHarness.Loaded load(DebugHarness h) throws Exception {
    return h.load(DebugHarness.corpus("gfx90a-v4", "vector_add", "0-gfx90a"));
  }

  static void start(DebugHarness h, DebugHarness.Loaded code, Buffers m) throws Exception {
    h.start("_Z4vaddPKfS0_Pfi", code.kernel("_Z4vaddPKfS0_Pfi"), GRID, 256, DebugHarness.args(m.a(), m.b(), m.c(), N));
  }

  static void checkResult(DebugHarness h, Buffers m) throws Exception {
    ByteBuffer c = ByteBuffer.wrap(h.read(m.c(), 4 * N)).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < N; i++) assertThat(c.getFloat(4 * i)).as("c[%d]", i).isEqualTo(0.5f * i + (1.0f - 0.25f * i));
  }

  /** The first session: break vadd, run, v0[5] at entry, step to the global store, read it back, continue. */
  static List<String> session(DebugHarness h) throws Exception {
    List<String> transcript = new ArrayList<>();
    DebugHarness.Loaded code = load(h);
    Buffers m = setUp(h);
    List<BreakpointStatus> set = h.debugger.setFunctionBreakpoints(List.of(new BreakpointSpec.Function("vadd", 0)));
    assertThat(set).singleElement().satisfies(s -> {
      assertThat(s.verified()).isTrue();
      assertThat(s.addresses()).containsExactly(code.base() + 0x1700);
      assertThat(s.location()).isEqualTo("vadd+0x0");
    });
    start(h, code, m);

    StopEvent entry = h.awaitStop();
    assertThat(entry.reason()).isEqualTo(StopEvent.Reason.BREAKPOINT);
    assertThat(entry.wave()).isZero();
    assertThat(entry.pc()).isEqualTo(code.base() + 0x1700);
    assertThat(entry.hitBreakpoints()).containsExactly(set.get(0).id());
    transcript.add(h.eval(0, "print v0[5]"));
    assertThat(transcript.get(0)).isEqualTo("v0[5] = 0x00000005 (5)");
    transcript.add(h.eval(0, "x/i pc"));
    assertThat(transcript.get(1)).endsWith("<vadd+0x0>:\ts_load_dword s0, s[4:5], 0x4");

    h.debugger.resume(Resume.stepInstruction(0, 31));
    StopEvent step = h.awaitStop();
    assertThat(step.reason()).isEqualTo(StopEvent.Reason.STEP);
    assertThat(step.pc()).isEqualTo(code.base() + 0x17a0);
    transcript.add(h.eval(0, "x/i pc"));
    assertThat(transcript.get(2)).contains("global_store_dword v[0:1], v2, off");
    h.debugger.resume(Resume.stepInstruction(0, 1));
    assertThat(h.awaitStop().pc()).isEqualTo(code.base() + 0x17a8);

    String address = h.eval(0, "print/x v[0:1][5]");
    transcript.add(address);
    assertThat(address).isEqualTo(String.format("v[0:1][5] = 0x%016x", m.c() + 20));
    String stored = h.eval(0, "x/f global:v[0:1][5]");
    transcript.add(stored);
    assertThat(stored).isEqualTo(String.format("global:0x%x:\t2.25", m.c() + 20));
    transcript.add(h.eval(0, "x/2x global:v[0:1][5]"));
    transcript.add(h.eval(0, "info waves"));
    transcript.add(h.eval(0, "info registers"));

    h.debugger.setFunctionBreakpoints(List.of());
    h.debugger.resume(Resume.proceed());
    DispatchStats stats = h.awaitEnd();
    assertThat(stats.waves()).isEqualTo(16);
    checkResult(h, m);
    return transcript;
  }

  @Test
  void breaksStepsReadsAndContinues() throws Exception {
    List<String> t = session(new DebugHarness());
    assertThat(t.get(6)).contains("* 0     (0,0,0)       0   running     0x").contains("vadd+0xa8: s_endpgm")
        .contains("  1     (0,0,0)       1   running").contains("vadd+0x0: s_load_dword");
    assertThat(t.get(7)).contains("exec          0xffffffffffffffff").contains("scc           1")
        .contains("status        0x00010c01         SCC VCCZ IN_TG VALID").contains("s8   0x00000000");
  }

  @Test
  void twoRunsStopWithTheSameState() throws Exception {
    assertThat(session(new DebugHarness())).isEqualTo(session(new DebugHarness()));
  }

  @Test
  void aKernelBreakpointStopsEveryWaveInScheduleOrder() throws Exception {
    DebugHarness h = new DebugHarness();
    DebugHarness.Loaded code = load(h);
    Buffers m = setUp(h);
    h.debugger.setFunctionBreakpoints(List.of(new BreakpointSpec.Function("_Z4vaddPKfS0_Pfi", 0)));
    start(h, code, m);
    List<Integer> waves = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      StopEvent e = h.awaitStop();
      waves.add(e.wave());
      h.debugger.resume(Resume.proceed());
    }
    h.awaitEnd();
    assertThat(waves).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    checkResult(h, m);
  }

  @Test
  void offsetAndAddressBreakpoints() throws Exception {
    DebugHarness h = new DebugHarness();
    DebugHarness.Loaded code = load(h);
    Buffers m = setUp(h);
    List<BreakpointStatus> s = h.debugger.setFunctionBreakpoints(List.of(new BreakpointSpec.Function("vadd", 0xa0),
        new BreakpointSpec.Function("vadd", 0x1000), new BreakpointSpec.Function("nosuch", 0)));
    assertThat(s.get(0).addresses()).containsExactly(code.base() + 0x17a0);
    assertThat(s.get(1).verified()).isFalse();
    assertThat(s.get(1).message()).contains("outside vadd");
    assertThat(s.get(2).message()).isEqualTo("no function nosuch in the code loaded so far (pending)");
    List<BreakpointStatus> a = h.debugger.setInstructionBreakpoints(List.of(new BreakpointSpec.Address(code.base()
        + 0x1734)));
    assertThat(a.get(0).verified()).isTrue();
    start(h, code, m);
    StopEvent first = h.awaitStop();
    assertThat(first.pc()).isEqualTo(code.base() + 0x1734);
    assertThat(first.hitBreakpoints()).containsExactly(a.get(0).id());
    h.debugger.resume(Resume.proceed());
    StopEvent second = h.awaitStop();
    assertThat(second.pc()).isEqualTo(code.base() + 0x17a0);
    assertThat(second.wave()).isZero();
    h.debugger.setFunctionBreakpoints(List.of());
    h.debugger.setInstructionBreakpoints(List.of());
    h.debugger.resume(Resume.proceed());
    h.awaitEnd();
    checkResult(h, m);
  }

  @Test
  void aWatchpointStopsTheWaveThatWritesAfterItWrote() throws Exception {
    DebugHarness h = new DebugHarness();
    DebugHarness.Loaded code = load(h);
    Buffers m = setUp(h);
    List<BreakpointStatus> w = h.debugger.setWatchpoints(List.of(new BreakpointSpec.Watch(AddressSpace.GLOBAL,
        m.c() + 4 * 300, 4, WatchKind.WRITE)));
    start(h, code, m);
    StopEvent e = h.awaitStop();
    assertThat(e.reason()).isEqualTo(StopEvent.Reason.WATCHPOINT);
    assertThat(e.wave()).isEqualTo(4); // element 300: workgroup 1, its first wave, lane 44
    assertThat(e.hitBreakpoints()).containsExactly(w.get(0).id());
    assertThat(e.pc()).isEqualTo(code.base() + 0x17a8); // after the store
    assertThat(e.description()).isEqualTo(String.format("watchpoint %d: global:0x%x written: old 0x00000000, new 0x%08x",
        w.get(0).id(), m.c() + 1200, Float.floatToIntBits(0.5f * 300 + (1.0f - 0.25f * 300))));
    assertThat(h.eval(4, "x/f global:" + (m.c() + 1200))).endsWith("\t76.0");
    // A read watchpoint on an input element stops the wave that loads it.
    h.debugger.setWatchpoints(List.of(new BreakpointSpec.Watch(AddressSpace.GLOBAL, m.a() + 4 * 700, 4,
        WatchKind.READ)));
    h.debugger.resume(Resume.proceed());
    StopEvent read = h.awaitStop();
    assertThat(read.wave()).isEqualTo(10);
    assertThat(read.description()).endsWith(String.format("global:0x%x read: 0x%08x", m.a() + 2800,
        Float.floatToIntBits(350f)));
    h.debugger.setWatchpoints(List.of());
    h.debugger.resume(Resume.proceed());
    h.awaitEnd();
    checkResult(h, m);
  }

  @Test
  void stopAtLaunchPauseAndFinish() throws Exception {
    DebugHarness h = new DebugHarness();
    DebugHarness.Loaded code = load(h);
    Buffers m = setUp(h);
    h.debugger.setStopAtLaunch(true);
    start(h, code, m);
    StopEvent e = h.awaitStop();
    assertThat(e.reason()).isEqualTo(StopEvent.Reason.ENTRY);
    assertThat(e.description()).isEqualTo("kernel launch: vadd (grid 1024x1x1, workgroup 256x1x1)");
    h.debugger.pause();
    h.debugger.resume(Resume.proceed());
    StopEvent p = h.awaitStop();
    assertThat(p.reason()).isEqualTo(StopEvent.Reason.PAUSE);
    assertThat(p.wave()).isZero();
    assertThat(p.pc()).isEqualTo(code.base() + 0x1700); // asked for before continuing: stops at once
    h.debugger.resume(Resume.finish());
    StopEvent f = h.awaitStop();
    assertThat(f.reason()).isEqualTo(StopEvent.Reason.FINISHED);
    assertThat(f.wave()).isEqualTo(-1);
    assertThat(f.description()).isEqualTo("dispatch 1 of vadd finished: 16 waves, 528 instructions");
    assertThat(h.eval(-1, "info waves")).startsWith("No waves: dispatch 1 of vadd finished");
    assertThat(h.eval(-1, "x/f global:" + (m.c() + 4))).endsWith("\t1.25");
    assertThatThrownBy(() -> h.debugger.resume(Resume.stepInstruction(0, 1))).isInstanceOf(DebugException.class)
        .hasMessageContaining("the dispatch has finished");
    h.debugger.resume(Resume.proceed());
    h.awaitEnd();
    checkResult(h, m);
    assertThatThrownBy(() -> h.debugger.inspect(v -> 1)).isInstanceOf(DebugException.class)
        .hasMessage("the program is running (not stopped in a kernel)");
  }

  @Test
  void aFaultStopsTheWaveThenEndsTheDispatch() throws Exception {
    DebugHarness h = new DebugHarness();
    DebugHarness.Loaded code = load(h);
    Buffers m = setUp(h);
    h.start("_Z4vaddPKfS0_Pfi", code.kernel("_Z4vaddPKfS0_Pfi"), GRID, 256,
        DebugHarness.args(m.a(), m.b(), 0xdead_0000_0000L, N));
    StopEvent e = h.awaitStop();
    assertThat(e.reason()).isEqualTo(StopEvent.Reason.FAULT);
    assertThat(e.pc()).isEqualTo(code.base() + 0x17a0);
    assertThat(e.description()).startsWith("memory access fault on address 0xdead00000000");
    assertThat(h.eval(e.wave(), "print/x v[0:1][0]")).isEqualTo("v[0:1][0] = 0x0000dead00000000");
    h.debugger.resume(Resume.proceed());
    assertThatThrownBy(h::awaitEnd).isInstanceOf(ExecutionException.class).hasCauseInstanceOf(WaveFault.class);
  }

  @Test
  void expressionsAndTheirErrors() throws Exception {
    DebugHarness h = new DebugHarness();
    DebugHarness.Loaded code = load(h);
    Buffers m = setUp(h);
    h.debugger.setStopAtLaunch(true);
    start(h, code, m);
    h.awaitStop();
    assertThat(h.eval(0, "p exec")).isEqualTo("exec = 0xffffffffffffffff (-1)");
    assertThat(h.eval(0, "print/x s[6:7]")).isEqualTo(String.format("s[6:7] = 0x%016x", h.waveState(0).s64(6)));
    assertThat(h.eval(0, "print/d v0[63] + 2 * 3")).isEqualTo("v0[63] + 2 * 3 = 69");
    assertThat(h.eval(0, "$pc")).isEqualTo(String.format("$pc = 0x%x <vadd+0x0>", code.base() + 0x1700));
    assertThat(h.eval(0, "print s[0:3]")).startsWith("s[0:3] = {0x");
    assertThat(h.eval(0, "print v0")).startsWith("v0 = {\n  [ 0] 0x00000000 0x00000001")
        .contains("  [56] 0x00000038");
    assertThat(h.eval(0, "info registers special")).contains("mode          0x000003f0         round f32 nearest");
    assertThat(h.eval(0, "info registers vgpr")).contains("v7 = {");
    assertThat(h.eval(0, "info registers agpr")).isEqualTo("This kernel allocates no AGPRs.");
    assertThat(h.eval(0, "disassemble")).startsWith(String.format("=> 0x%x <vadd+0x0>:\ts_load_dword", code.base()
        + 0x1700));
    assertThatThrownBy(() -> h.eval(0, "print v99")).hasMessageContaining("v99 is not allocated (v0-v7)");
    assertThatThrownBy(() -> h.eval(0, "print q1")).hasMessageContaining("unknown register q1");
    assertThatThrownBy(() -> h.eval(0, "x/4z global:0")).hasMessageContaining("unknown format letter 'z'");
    assertThatThrownBy(() -> h.eval(0, "x/x global:v0")).hasMessageContaining("has a value per lane");
    assertThatThrownBy(() -> h.eval(0, "x/x global:0x10")).hasMessageContaining("cannot read global:0x10");
    assertThatThrownBy(() -> h.eval(0, "x/x lds:0")).hasMessageContaining("outside the workgroup's 0 bytes of LDS");
    assertThatThrownBy(() -> h.eval(99, "p s0")).hasMessageContaining("there is no wave 99");
    h.debugger.setStopAtLaunch(false);
    h.debugger.resume(Resume.proceed());
    h.awaitEnd();
  }

  static long hex(String text) {
    Matcher mm = Pattern.compile("0x([0-9a-f]+)").matcher(text);
    if (!mm.find()) throw new AssertionError(text);
    return Long.parseUnsignedLong(mm.group(1), 16);
  }
}
