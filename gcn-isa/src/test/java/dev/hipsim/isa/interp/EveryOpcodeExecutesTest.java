package dev.hipsim.isa.interp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.OpcodeInfo;
import dev.hipsim.isa.decode.OpcodeTables;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.dispatch.WaveFault;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Every opcode-table row of both targets, compiled and executed once on a wave with random registers (and memory
 * addresses pointing into the device): each either runs or stops with a typed {@link DispatchException} (a memory
 * fault for a random address, an illegal operand) — never an unchecked Java exception — and none reports itself
 * unimplemented. gfx90a's image (MIMG) instructions are included: with random resource words they mostly stop
 * with {@code UNSUPPORTED_RESOURCE} (a tiled or unmodelled image), which is a typed stop too.
 */
class EveryOpcodeExecutesTest {
  @Test
  void everyEncodingRunsOrFaultsWithATypedError() {
    List<String> problems = new ArrayList<>();
    for (Target t : new Target[] {Target.GFX90A, Target.GFX942}) {
      Random r = new Random(42);
      for (OpcodeInfo row : OpcodeTables.get().rows(t)) {
        Instruction inst = Coverage.sample(t, row);
        if (inst == null) {
          problems.add(t + " " + row + ": no sample");
          continue;
        }
        Machine m = new Machine(t);
        m.randomize(r, 40);
        // Scalar pairs that serve as addresses point into the device's memory.
        for (int i = 0; i < 16; i += 2) m.w.setS64(i, Machine.MEM + 0x10000 + 64L * i);
        m.w.s[2] = (int) (Machine.MEM + 0x10000);
        m.w.s[3] = (int) ((Machine.MEM + 0x10000) >>> 32);
        for (int l = 0; l < 64; l++) {
          m.setV64(0, l, Machine.MEM + 0x10000 + 16L * l);
          m.setV(2, l, 16 * l);
        }
        try {
          Op op = OpCompiler.compile(inst);
          op.execute(m.w, m.cx);
        } catch (WaveFault f) {
          // The GWS semaphores belong with the global wave sync (GlobalWaveSync), which implements the barrier.
          if (f.kind() == WaveFault.Kind.UNIMPLEMENTED_INSTRUCTION) {
            problems.add(t + " " + row + ": " + f.getMessage());
          }
        } catch (DispatchException e) {
          // a typed stop is an acceptable outcome for random operands
        } catch (RuntimeException e) {
          problems.add(t + " " + row + ": " + e);
        }
      }
    }
    assertThat(problems).isEmpty();
  }
}
