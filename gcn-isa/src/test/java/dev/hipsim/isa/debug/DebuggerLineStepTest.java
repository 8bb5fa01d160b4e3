package dev.hipsim.isa.debug;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.debug.symbols.SourceLine;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Source-level debugging on scratch_recursion built with hipcc 5.2 at -O2 -g (DWARF 5): FILE:LINE breakpoints,
 * {@code next} over the recursive calls, {@code step} into them.
 */
class DebuggerLineStepTest {
  static final int N = 100;

  static DebugHarness.Loaded startAtLine(DebugHarness h, int line) throws Exception {
    DebugHarness.Loaded code = h.load(DebugHarness.corpus("debug-line", "x", "x").getParent().getParent()
        .resolve("scratch_recursion-clang15-dwarf5.hsaco"));
    long idx = h.alloc(4L * N);
    long out = h.alloc(4L * N);
    long out2 = h.alloc(8L * N);
    ByteBuffer b = ByteBuffer.allocate(4 * N).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < N; i++) b.putInt(4 * i, (i * 13) % 97);
    h.write(idx, b.array());
    List<BreakpointStatus> s = h.debugger.setLineBreakpoints("scratch_recursion.hip",
        List.of(new BreakpointSpec.Line("scratch_recursion.hip", line)));
    assertThat(s.get(0).verified()).as(s.get(0).toString()).isTrue();
    h.start("_Z8scratchyPKiPiPli", code.kernel("_Z8scratchyPKiPiPli"), N, 64,
        DebugHarness.args(idx, out, out2, N), 16384);
    return code;
  }

  static SourceLine line(DebugHarness h, StopEvent e) throws DebugException {
    return h.debugger.inspect(v -> v.code().lineAt(e.pc()).orElse(null));
  }

  @Test
  void aLineBreakpointGoesToTheLinesFirstStatement() throws Exception {
    DebugHarness h = new DebugHarness();
    DebugHarness.Loaded code = startAtLine(h, 13);
    // llvm-dwarfdump: 0x1940 line 13 column 22 is_stmt — the first statement row of line 13
    assertThat(h.debugger.breakpoints().get(0).addresses()).containsExactly(code.base() + 0x1940);
    assertThat(h.debugger.breakpoints().get(0).location()).isEqualTo("scratch_recursion.hip:13");
    StopEvent e = h.awaitStop();
    assertThat(e.pc()).isEqualTo(code.base() + 0x1940);
    assertThat(line(h, e)).hasToString("scratch_recursion.hip:13");
    // A line without code moves to the next one that has some (line 15 declares an array).
    assertThat(h.debugger.setLineBreakpoints("other", List.of(new BreakpointSpec.Line("scratch_recursion.hip", 15)))
        .get(0).location()).isEqualTo("scratch_recursion.hip:16");
    h.debugger.setLineBreakpoints("other", List.of());
    h.debugger.setLineBreakpoints("scratch_recursion.hip", List.of());
    h.debugger.resume(Resume.proceed());
    h.awaitEnd();
  }

  /** {@code next} from line 13 to the end of wave 0. */
  static List<Integer> nextToTheEnd(DebugHarness h) throws Exception {
    startAtLine(h, 13);
    StopEvent e = h.awaitStop();
    List<Integer> lines = new ArrayList<>();
    lines.add(line(h, e).line());
    h.debugger.setLineBreakpoints("scratch_recursion.hip", List.of());
    for (int i = 0; i < 200; i++) {
      h.debugger.resume(Resume.nextLine(0));
      e = h.awaitStop();
      assertThat(e.reason()).as(e.description()).isEqualTo(StopEvent.Reason.STEP);
      if (e.description().equals("wave 0 ended")) break;
      lines.add(line(h, e).line());
    }
    h.debugger.resume(Resume.proceed());
    h.awaitEnd();
    return lines;
  }

  @Test
  void nextStepsOverCallsLineByLine() throws Exception {
    List<Integer> lines = nextToTheEnd(new DebugHarness());
    assertThat(lines).first().isEqualTo(13);
    // fib (line 5) is a real call and stepped over; -O2 inlined ackermannish (lines 7-9) into the kernel as a loop,
    // and without .debug_info's inline ranges its lines are the kernel's own.
    assertThat(lines).contains(14, 16, 18, 19, 20).doesNotContain(5)
        .allMatch(l -> l >= 12 && l <= 21 || l >= 7 && l <= 9);
    for (int i = 1; i < lines.size(); i++) assertThat(lines.get(i)).isNotEqualTo(lines.get(i - 1));
    assertThat(nextToTheEnd(new DebugHarness())).isEqualTo(lines);
  }

  @Test
  void stepGoesIntoTheCalledFunction() throws Exception {
    DebugHarness h = new DebugHarness();
    DebugHarness.Loaded code = startAtLine(h, 19);
    StopEvent e = h.awaitStop();
    assertThat(line(h, e).line()).isEqualTo(19);
    h.debugger.setLineBreakpoints("scratch_recursion.hip", List.of());
    List<Integer> lines = new ArrayList<>();
    for (int i = 0; i < 20 && !lines.contains(5); i++) {
      h.debugger.resume(Resume.stepLine(0));
      e = h.awaitStop();
      lines.add(line(h, e).line());
    }
    assertThat(lines).contains(5);
    String where = h.debugger.inspect(v -> v.code().describe(v.wave(0).pc));
    assertThat(where).startsWith("fib+0x");
    h.debugger.resume(Resume.proceed());
    h.awaitEnd();
  }
}
