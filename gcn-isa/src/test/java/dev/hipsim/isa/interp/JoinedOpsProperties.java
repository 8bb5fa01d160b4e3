package dev.hipsim.isa.interp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.exec.InstructionMix;
import dev.hipsim.isa.exec.WaveStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Instructions joined in one op, rows of scalar instructions up to a branch, barrier or end ({@link ScalarRow}) and
 * the no-ops after an instruction ({@link NopTail}), run as the instructions one by one do: random scalar ALU code
 * with scalar loads, rows of no-ops, forward branches that land inside rows or jump over them, and barriers, run by
 * the interpreter from its code cache
 * and, as the debugger steps, one instruction at a time ({@link CodeCache#at}); the waves, the instruction counts and
 * the instruction mix agree.
 */
class JoinedOpsProperties {
  private static final Target T = Target.GFX90A;
  private static final long CODE = Machine.MEM + 0x80000;

  @Property(tries = 300)
  void joinedInstructionsRunAsTheInstructionsOneByOne(@ForAll long seed) throws Exception {
    Random r = new Random(seed);
    List<Enc> code = new ArrayList<>();
    // the forward branches' targets, as instructions skipped: set to dwords once the code is laid out
    java.util.Map<Integer, Integer> skips = new java.util.HashMap<>();
    int n = 3 + r.nextInt(20);
    while (code.size() < n) {
      switch (r.nextInt(9)) {
        case 7:
          // s4 from memory: s[10:11] hold the memory's base, which nothing else here writes
          code.add(Enc.of(T, Format.SMEM, Operation.S_LOAD_DWORD).smem(10, 4 + r.nextInt(2), 4 * r.nextInt(256), -1));
          break;
        case 8:
          code.add(Enc.of(T, Format.SOP1, Operation.S_MOV_B32).sdst(r.nextInt(4)).ssrc0(4 + r.nextInt(2)));
          break;
        case 0:
        case 1:
          code.add(ScalarProperties.sopp(T, r.nextBoolean() ? Operation.S_WAITCNT : Operation.S_NOP, r.nextInt(8)));
          break;
        case 2:
          code.add(Enc.of(T, Format.SOPC, Operation.S_CMP_LT_U32).ssrc0(r.nextInt(4)).ssrc1(r.nextInt(4)));
          break;
        case 3:
          // forward only, so the code ends; the target may be a no-op, inside a row, or after one
          skips.put(code.size(), r.nextInt(4));
          code.add(null);
          break;
        case 4:
          code.add(ScalarProperties.sopp(T, Operation.S_BARRIER, 0));
          break;
        default:
          code.add(Enc.of(T, Format.SOP2, Operation.S_ADD_U32).sdst(r.nextInt(4)).ssrc0(r.nextInt(4))
              .ssrc1(r.nextInt(4)));
      }
    }
    // room for the last branch's jump: no-ops, then the end
    for (int i = 0; i < 4; i++) code.add(ScalarProperties.sopp(T, Operation.S_NOP, 0));
    code.add(ScalarProperties.sopp(T, Operation.S_ENDPGM, 0));
    for (java.util.Map.Entry<Integer, Integer> b : skips.entrySet()) {
      int dwords = 0;
      for (int i = b.getKey() + 1; i <= b.getKey() + b.getValue(); i++) {
        dwords += code.get(i) == null ? 1 : code.get(i).size() / 4;
      }
      code.set(b.getKey(), ScalarProperties.sopp(T, r.nextBoolean() ? Operation.S_CBRANCH_SCC0 : Operation.S_BRANCH,
          dwords));
    }
    long state = r.nextLong();

    Machine interpreted = machine(state, code);
    CodeCache cache = new CodeCache(T);
    Interpreter interpreter = new Interpreter(cache, interpreted.memory, interpreted.launch);
    for (int calls = 0; interpreted.w.status != WaveStatus.DONE; calls++) {
      assertThat(calls).as("the code ends").isLessThan(100);
      interpreter.run(interpreted.w, 1000);
      if (interpreted.w.status == WaveStatus.AT_BARRIER) interpreted.w.status = WaveStatus.RUNNING; // a one-wave group
    }
    boolean tails = false;
    boolean rows = false;
    boolean ended = false;
    for (Op op : cache.page(CODE >>> CodeCache.PAGE_SHIFT)) {
      tails |= op instanceof NopTail;
      rows |= op instanceof ScalarRow || op instanceof NopTail && ((NopTail) op).head() instanceof ScalarRow;
      ended |= op instanceof ScalarRow && !op.fallsThrough();
    }
    Share.atLeast("an instruction took no-ops in", tails, 15);
    Share.atLeast("a row", rows, 60);
    Share.atLeast("a row ending with a branch, barrier or end", ended, 40);

    Machine stepped = machine(state, code);
    CodeCache single = new CodeCache(T);
    long[] mix = new long[InstructionMix.COUNT];
    long count = 0;
    while (stepped.w.status != WaveStatus.DONE) {
      assertThat(count).as("the code ends").isLessThan(1000);
      Op op = single.at(stepped.w.pc, stepped.memory);
      op.execute(stepped.w, stepped.cx);
      mix[op.mixCategory]++;
      count++;
      if (stepped.w.status == WaveStatus.AT_BARRIER) stepped.w.status = WaveStatus.RUNNING;
    }
    assertThat(interpreted.w.s).isEqualTo(stepped.w.s);
    assertThat(interpreted.w.exec()).isEqualTo(stepped.w.exec());
    assertThat(interpreted.w.scc).isEqualTo(stepped.w.scc);
    assertThat(interpreted.w.pc).isEqualTo(stepped.w.pc);
    assertThat(interpreted.w.instructions).isEqualTo(count);
    assertThat(interpreter.instructionMix()).isEqualTo(mix);
  }

  /** A fault inside a row names the instruction that faulted and its address, not the row's first. */
  @net.jqwik.api.Example
  void aFaultInARowNamesItsInstruction() throws Exception {
    List<Enc> code = List.of(
        Enc.of(T, Format.SOP2, Operation.S_ADD_U32).sdst(0).ssrc0(1).ssrc1(2),
        Enc.of(T, Format.SOP1, Operation.S_MOV_B32).sdst(3).ssrc0(0),
        Enc.of(T, Format.SMEM, Operation.S_LOAD_DWORD).smem(12, 4, 0, -1), // s[12:13] = 0: not mapped
        Enc.of(T, Format.SOP2, Operation.S_ADD_U32).sdst(0).ssrc0(0).ssrc1(3),
        ScalarProperties.sopp(T, Operation.S_ENDPGM, 0));
    Machine m = machine(1, code);
    m.w.setS64(12, 0);
    CodeCache cache = new CodeCache(T);
    org.assertj.core.api.Assertions.assertThatThrownBy(
        () -> new Interpreter(cache, m.memory, m.launch).run(m.w, 1000))
        .isInstanceOf(dev.hipsim.isa.dispatch.WaveFault.class)
        .hasMessageContaining(String.format("pc 0x%x", CODE + 8)).hasMessageContaining("s_load_dword");
    assertThat(cache.page(CODE >>> CodeCache.PAGE_SHIFT)[CodeCache.slot(CODE)]).isInstanceOf(ScalarRow.class);
  }

  private static Machine machine(long seed, List<Enc> code) throws Exception {
    Machine m = new Machine(T);
    m.randomize(new Random(seed), 4);
    m.w.setS64(10, Machine.MEM);
    long at = CODE;
    for (Enc e : code) {
      byte[] b = e.bytes();
      m.memory.write(at, b, 0, b.length);
      at += b.length;
    }
    m.w.pc = CODE;
    return m;
  }
}
