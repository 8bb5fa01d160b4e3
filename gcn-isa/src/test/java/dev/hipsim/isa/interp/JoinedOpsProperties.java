package dev.hipsim.isa.interp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.exec.InstructionMix;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.exec.WaveStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Instructions joined in one op, rows of scalar instructions up to a branch, barrier or end ({@link ScalarRow}), the
 * no-ops after an instruction ({@link NopTail}) and the branch after an instruction, a row or a run ({@link
 * BranchTail}), run as the instructions one by one do: random scalar ALU code with scalar loads, vector adds and
 * compares (runs of them), rows of no-ops, forward branches on SCC, VCC and EXEC that land inside rows or jump over
 * them, and barriers, run by the interpreter from its code cache
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
      switch (r.nextInt(12)) {
        case 9:
          code.add(Enc.of(T, Format.VOP2, Operation.V_ADD_U32).vdst(r.nextInt(4)).src0(r.nextInt(4))
              .src1(256 + r.nextInt(4)));
          break;
        case 10:
          code.add(Enc.of(T, Format.VOP2, Operation.V_SUB_U32).vdst(r.nextInt(4)).src0(256 + r.nextInt(4))
              .src1(256 + r.nextInt(4)));
          break;
        case 11:
          // vcc: what s_cbranch_vccz and s_cbranch_vccnz test
          code.add(Enc.of(T, Format.VOPC, Operation.V_CMP_GT_U32).src0(r.nextInt(4)).src1(256 + r.nextInt(4)));
          break;
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
      Operation[] branches = {Operation.S_CBRANCH_SCC0, Operation.S_BRANCH, Operation.S_CBRANCH_VCCZ,
          Operation.S_CBRANCH_VCCNZ, Operation.S_CBRANCH_EXECZ};
      code.set(b.getKey(), ScalarProperties.sopp(T, branches[r.nextInt(branches.length)], dwords));
    }
    long state = r.nextLong();

    Machine interpreted = machine(state, code);
    CodeCache cache = new CodeCache(T, true, 0); // runs of vector instructions generated at once
    Interpreter interpreter = new Interpreter(cache, interpreted.memory, interpreted.launch);
    for (int calls = 0; interpreted.w.status != WaveStatus.DONE; calls++) {
      assertThat(calls).as("the code ends").isLessThan(100);
      interpreter.run(interpreted.w, 1000);
      if (interpreted.w.status == WaveStatus.AT_BARRIER) interpreted.w.status = WaveStatus.RUNNING; // a one-wave group
    }
    boolean tails = false;
    boolean rows = false;
    boolean ended = false;
    boolean branchAfterRun = false;
    boolean branchAfterOther = false;
    for (Op slot : cache.page(CODE >>> CodeCache.PAGE_SHIFT)) {
      Op op = slot instanceof BranchTail ? ((BranchTail) slot).head() : slot;
      tails |= op instanceof NopTail;
      rows |= op instanceof ScalarRow || op instanceof NopTail && ((NopTail) op).head() instanceof ScalarRow;
      ended |= op instanceof ScalarRow && !op.fallsThrough();
      branchAfterRun |= slot instanceof BranchTail && op instanceof FusedRun;
      branchAfterOther |= slot instanceof BranchTail && !(op instanceof FusedRun);
    }
    Share.atLeast("an instruction took no-ops in", tails, 15);
    Share.atLeast("a row", rows, 60);
    Share.atLeast("a row ending with a branch, barrier or end", ended, 40);
    Share.atLeast("a run took the branch after it", branchAfterRun, 15);
    Share.atLeast("an instruction or row took the branch after it", branchAfterOther, 15);

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
    assertThat(java.util.Arrays.copyOf(interpreted.w.v, 4 * Wave.LANES))
        .isEqualTo(java.util.Arrays.copyOf(stepped.w.v, 4 * Wave.LANES));
    assertThat(interpreted.w.s).isEqualTo(stepped.w.s);
    assertThat(interpreted.w.exec()).isEqualTo(stepped.w.exec());
    assertThat(interpreted.w.scc).isEqualTo(stepped.w.scc);
    assertThat(interpreted.w.pc).isEqualTo(stepped.w.pc);
    assertThat(interpreted.w.instructions).isEqualTo(count);
    assertThat(interpreter.instructionMix()).isEqualTo(mix);
  }

  /**
   * Under {@code s_setvskip} the vector instructions of a joined op are skipped and its scalar ones still run: a
   * run's scalar instruction and the branch after the run.
   */
  @net.jqwik.api.Example
  void vskipSkipsOnlyTheVectorInstructionsOfAJoinedOp() throws Exception {
    List<Enc> code = List.of(
        Enc.of(T, Format.SOPC, Operation.S_SETVSKIP).ssrc0(128 + 1).ssrc1(128),
        Enc.of(T, Format.VOP1, Operation.V_MOV_B32).vdst(1).src0(128 + 9),           // CODE + 4: a run, skipped
        Enc.of(T, Format.SOP2, Operation.S_ADD_U32).sdst(3).ssrc0(3).ssrc1(128 + 1), // in the run: runs
        Enc.of(T, Format.VOP2, Operation.V_ADD_U32).vdst(2).src0(0).src1(256 + 2),   // skipped
        ScalarProperties.sopp(T, Operation.S_BRANCH, 1),                             // after the run: runs
        ScalarProperties.movk(T, 4, 7),                                              // jumped over
        Enc.of(T, Format.SOPC, Operation.S_SETVSKIP).ssrc0(128).ssrc1(128),
        ScalarProperties.sopp(T, Operation.S_ENDPGM, 0));
    Machine m = machine(5, code);
    int[] v = m.w.v.clone();
    int s3 = m.w.s[3];
    int s4 = m.w.s[4];
    CodeCache cache = new CodeCache(T, true, 0);
    Interpreter interpreter = new Interpreter(cache, m.memory, m.launch);
    Op joined = cache.compile(cache.page(CODE >>> CodeCache.PAGE_SHIFT), CODE + 4, m.memory);
    assertThat(joined).isInstanceOf(BranchTail.class);
    assertThat(((BranchTail) joined).head()).isInstanceOf(FusedRun.class);
    interpreter.run(m.w, 1000);
    assertThat(m.w.status).isEqualTo(WaveStatus.DONE);
    assertThat(m.w.v).isEqualTo(v);
    assertThat(m.w.s[3]).isEqualTo(s3 + 1);
    assertThat(m.w.s[4]).isEqualTo(s4);
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

  /**
   * A loop whose body crosses a code page boundary, as sgemm's does, then a jump to a third page: the interpreter,
   * which keeps the last two pages, runs it as the instructions one by one do, however often it changes page.
   */
  @net.jqwik.api.Example
  void aLoopAcrossACodePageRunsAsItsInstructions() throws Exception {
    // Dwords the jump skips: to the place in the page after next where the loop starts in its page.
    int skipped = 2043;
    List<Enc> code = new ArrayList<>(List.of(
        Enc.of(T, Format.SOP1, Operation.S_MOV_B32).sdst(0).ssrc0(128),                // s0 = 0
        ScalarProperties.movk(T, 1, 5),                                                // s1 = 5
        Enc.of(T, Format.SOP2, Operation.S_ADD_U32).sdst(0).ssrc0(0).ssrc1(128 + 1),   // the loop, 8 bytes before
        Enc.of(T, Format.VOP2, Operation.V_ADD_U32).vdst(1).src0(0).src1(256 + 1),     // the page's end
        Enc.of(T, Format.SOPC, Operation.S_CMP_LT_U32).ssrc0(0).ssrc1(1),              // the next page
        ScalarProperties.sopp(T, Operation.S_CBRANCH_SCC1, -4),
        ScalarProperties.sopp(T, Operation.S_BRANCH, skipped)));
    for (int i = 0; i < skipped; i++) code.add(ScalarProperties.sopp(T, Operation.S_NOP, 0));
    code.add(ScalarProperties.movk(T, 2, 9)); // two pages on
    code.add(ScalarProperties.sopp(T, Operation.S_ENDPGM, 0));
    long base = CODE + (1L << CodeCache.PAGE_SHIFT) - 16;
    Machine interpreted = machine(3, code, base);
    Interpreter interpreter = new Interpreter(new CodeCache(T, true, 0), interpreted.memory, interpreted.launch);
    for (int calls = 0; interpreted.w.status != WaveStatus.DONE; calls++) {
      assertThat(calls).as("the code ends").isLessThan(100);
      interpreter.run(interpreted.w, 3); // a few instructions a call: the pages are kept from one call to the next
    }
    Machine stepped = machine(3, code, base);
    CodeCache single = new CodeCache(T);
    while (stepped.w.status != WaveStatus.DONE) {
      assertThat(stepped.w.instructions).as("the code ends").isLessThan(1000);
      single.at(stepped.w.pc, stepped.memory).execute(stepped.w, stepped.cx);
      stepped.w.instructions++;
    }
    assertThat(interpreted.w.s[0]).isEqualTo(5);
    assertThat(interpreted.w.s[2]).isEqualTo(9);
    assertThat(interpreted.w.v).isEqualTo(stepped.w.v);
    assertThat(interpreted.w.s).isEqualTo(stepped.w.s);
    assertThat(interpreted.w.instructions).isEqualTo(stepped.w.instructions);
  }

  private static Machine machine(long seed, List<Enc> code) throws Exception {
    return machine(seed, code, CODE);
  }

  /** A machine with its registers random and {@code code} at {@code base}, where the wave starts. */
  private static Machine machine(long seed, List<Enc> code, long base) throws Exception {
    Machine m = new Machine(T);
    m.randomize(new Random(seed), 4);
    m.w.setS64(10, Machine.MEM);
    long at = base;
    for (Enc e : code) {
      byte[] b = e.bytes();
      m.memory.write(at, b, 0, b.length);
      at += b.length;
    }
    m.w.pc = base;
    return m;
  }
}
