package dev.hipsim.isa.debug;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The engine on reduce_atomic's block reduction: LDS watchpoints, LDS reads, stepping a wave over a barrier. */
class DebuggerBarrierLdsTest {
  static final int N = 512;

  @Test
  void watchesLdsAndStepsOverABarrier() throws Exception {
    DebugHarness h = new DebugHarness();
    DebugHarness.Loaded code = h.load(DebugHarness.corpus("gfx90a-v4", "reduce_atomic", "0-gfx90a"));
    long in = h.alloc(4L * N);
    long out = h.alloc(64);
    ByteBuffer b = ByteBuffer.allocate(4 * N).order(ByteOrder.LITTLE_ENDIAN);
    long expect = 0;
    for (int i = 0; i < N; i++) {
      b.putInt(4 * i, 3 * i - 700);
      expect += 3 * i - 700;
    }
    h.write(in, b.array());
    List<BreakpointStatus> w = h.debugger.setWatchpoints(List.of(new BreakpointSpec.Watch(AddressSpace.LDS, 4, 4,
        WatchKind.WRITE)));
    h.start("_Z6reducePKiiPiS1_Py", code.kernel("_Z6reducePKiiPiS1_Py"), N, 256,
        DebugHarness.args(in, N, out, out + 8, out + 16));

    StopEvent write = h.awaitStop();
    assertThat(write.reason()).isEqualTo(StopEvent.Reason.WATCHPOINT);
    assertThat(write.wave()).isZero();
    assertThat(write.pc()).isEqualTo(code.base() + 0x18a4);
    assertThat(write.description()).isEqualTo("watchpoint " + w.get(0).id()
        + ": lds:0x4 written: old 0x00000000, new 0xfffffd47");
    assertThat(h.eval(0, "x/4d lds:0")).isEqualTo("lds:0x0:\t-700\t-697\t-694\t-691");
    assertThat(h.eval(0, 5, "x/d lds:4*5")).isEqualTo("lds:0x14:\t-685");

    h.debugger.setWatchpoints(List.of());
    h.debugger.setInstructionBreakpoints(List.of(new BreakpointSpec.Address(code.base() + 0x18a8)));
    h.debugger.resume(Resume.proceed());
    StopEvent atBarrier = h.awaitStop();
    assertThat(atBarrier.wave()).isZero();
    assertThat(atBarrier.pc()).isEqualTo(code.base() + 0x18a8);
    h.debugger.resume(Resume.stepInstruction(0, 1));
    h.awaitStop();
    assertThat(h.eval(0, "info waves")).contains("* 0     (0,0,0)       0   at barrier")
        .contains("  1     (0,0,0)       1   running     0x" + Long.toHexString(code.base() + 0x1800));
    // The next step lets waves 1-3 reach the barrier (without stopping at its breakpoint), then moves wave 0 on.
    h.debugger.resume(Resume.stepInstruction(0, 1));
    StopEvent after = h.awaitStop();
    assertThat(after.reason()).isEqualTo(StopEvent.Reason.STEP);
    assertThat(after.pc()).isEqualTo(code.base() + 0x18b0);
    assertThat(h.eval(0, "info waves")).contains("  3     (0,0,0)       3   running     0x"
        + Long.toHexString(code.base() + 0x18ac));
    assertThat(h.eval(3, "x/d lds:1020")).isEqualTo("lds:0x3fc:\t65");
    h.debugger.setInstructionBreakpoints(List.of());
    h.debugger.resume(Resume.proceed());
    h.awaitEnd();
    assertThat(ByteBuffer.wrap(h.read(out, 4)).order(ByteOrder.LITTLE_ENDIAN).getInt()).isEqualTo((int) expect);
  }
}
