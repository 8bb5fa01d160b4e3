package dev.hipsim.isa.interp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.dispatch.KernelDescriptor;
import dev.hipsim.isa.fp.FpMode;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class RehearsalTest {
  static final int MB = 1 << 20;

  /**
   * The point of a rehearsal: a dispatch that follows it, with the code loaded elsewhere, finds every run it
   * generates for a full EXEC defined already, so that none waits for a class to be generated and compiled. Checked
   * on the benchmark program's three kernels, run after the rehearsal of their code object.
   */
  @Test
  void aDispatchAfterTheRehearsalDefinesNoRunOfItsOwn() throws Exception {
    CorpusRun run = CorpusRun.load("gfx90a-v4", "hipbench", Target.GFX90A, 64 * MB);
    Rehearsal.Code code = Rehearsal.Code.of(run.code.elf()).orElseThrow();
    assertThat(code.entries()).as("the three kernels").hasSize(3);
    assertThat(run.code.base()).isNotZero(); // loaded elsewhere than the rehearsal's addresses
    assertThat(Rehearsal.rehearse(Target.GFX90A, code, () -> false)).isGreaterThanOrEqualTo(5);

    long before = LaneCodeGen.DEFINED_FOR_FULL_EXEC.get();
    int n = 64 * 256;
    ByteBuffer a = CorpusRun.buffer(4 * n);
    for (int i = 0; i < n; i++) a.putFloat(4 * i, i);
    long da = run.upload(a);
    long dc = run.zeros(4L * n);
    run.launch("_Z4vaddPKfS0_Pfi", new int[] {n / 256}, new int[] {256}, 0, 0, da, da, dc, n);
    assertThat(run.download(dc, 4 * n).getFloat(4 * 1000)).isEqualTo(2000f);
    int m = 64;
    long dm = run.upload(a);
    long dp = run.zeros(4L * m * m);
    run.launch("_Z5sgemmPKfS0_Pfiii", new int[] {m / 16, m / 16}, new int[] {16, 16}, 0, 0, dm, dm, dp, m, m, m);
    long dsum = run.zeros(4);
    run.launch("_Z6reducePKiPii", new int[] {n / 256}, new int[] {256}, 0, 0, da, dsum, n);
    assertThat(LaneCodeGen.DEFINED_FOR_FULL_EXEC.get() - before).isZero();
  }

  /** A rehearsal asked to stop before it starts does nothing. */
  @Test
  void stopsWhenAsked() throws Exception {
    Rehearsal.Code code = Rehearsal.Code.of(CorpusRun.load("gfx90a-v4", "hipbench", Target.GFX90A, MB).code.elf())
        .orElseThrow();
    LaneCodeGen.forgetDefined();
    long before = LaneCodeGen.DEFINED_FOR_FULL_EXEC.get();
    assertThat(Rehearsal.rehearse(Target.GFX90A, code, () -> true)).isZero();
    assertThat(LaneCodeGen.DEFINED_FOR_FULL_EXEC.get()).isEqualTo(before);
  }

  /**
   * Each op the walk compiles is executed {@link Rehearsal#EXECUTIONS} times on a wave set up as a dispatch's, so
   * that the interpreter's paths are compiled by the JIT before the first dispatch; a branch to itself runs one step
   * each time, not forever.
   */
  @Test
  void executesEachOpAsADispatchWould() {
    byte[] loop = ScalarProperties.sopp(Target.GFX90A, dev.hipsim.isa.decode.Operation.S_BRANCH, -1).bytes();
    assertThat(executions(loop)).isEqualTo(Rehearsal.EXECUTIONS);
    assertThat(executions(words(0xbf810000))).as("s_endpgm").isEqualTo(Rehearsal.EXECUTIONS);
  }

  /**
   * An op that cannot run on the rehearsal's zeros stops at its first failure, and the walk goes on: here a scalar
   * load from 1 MiB (past the zeros), tried once, then a branch to itself, executed as often as any op (whether the
   * walk compiles the two as one op or not).
   */
  @Test
  void anOpThatFaultsIsNotExecutedAgain() {
    ByteArrayOutputStream code = new ByteArrayOutputStream();
    code.writeBytes(words(0xc0020000, 0x000fffff)); // s_load_dword s0, s[0:1], 0xfffff
    code.writeBytes(ScalarProperties.sopp(Target.GFX90A, dev.hipsim.isa.decode.Operation.S_BRANCH, -1).bytes());
    assertThat(executions(code.toByteArray())).isEqualTo(Rehearsal.EXECUTIONS + 1);
  }

  /**
   * An op is executed as soon as it is compiled, not once the walk is done: a rehearsal a launch stops after its first
   * op has executed that op. A launch often comes before the walk of its code object ends.
   */
  @Test
  void anOpIsExecutedAsSoonAsItIsCompiled() {
    ByteArrayOutputStream code = new ByteArrayOutputStream();
    code.writeBytes(words(0x2202009f, 0x7e060203)); // v_ashrrev_i32 v1, 31, v0; v_mov_b32 v3, s3
    code.writeBytes(words(0xbf810000)); // s_endpgm
    int[] asked = {0};
    long before = Rehearsal.EXECUTED.get();
    Rehearsal.rehearse(Target.GFX90A, code.toByteArray(), 0x1000, () -> asked[0]++ > 0);
    assertThat(asked[0]).as("asked again after the first op").isEqualTo(2);
    assertThat(Rehearsal.EXECUTED.get() - before).isEqualTo(Rehearsal.EXECUTIONS);
  }

  /**
   * The rehearsal's waves start in a HIP kernel's floating-point MODE, so that its float instructions take the paths
   * the program's will (hipbench's kernels, built by hipcc, keep denormals).
   */
  @Test
  void wavesStartInTheModeOfAHipKernel() throws Exception {
    CorpusRun run = CorpusRun.load("gfx90a-v4", "hipbench", Target.GFX90A, MB);
    long kd = run.code.kernel(run.kernel("_Z4vadd").name());
    KernelDescriptor vadd = KernelDescriptor.parse(run.dev.read(kd, KernelDescriptor.SIZE), 0);
    assertThat(vadd.initialMode()).isEqualTo(FpMode.DEFAULT);
    assertThat(Rehearsal.zeroLaunch().descriptor().initialMode()).isEqualTo(FpMode.DEFAULT);
  }

  /** Ops of one class are executed {@link Rehearsal#EXECUTIONS_PER_CLASS} times at most: here 40 s_endpgm. */
  @Test
  void opsOfOneClassAreExecutedABoundedNumberOfTimes() {
    int[] endpgm = new int[40];
    java.util.Arrays.fill(endpgm, 0xbf810000);
    assertThat(endpgm.length * Rehearsal.EXECUTIONS).isGreaterThan(Rehearsal.EXECUTIONS_PER_CLASS);
    assertThat(executions(words(endpgm))).isEqualTo(Rehearsal.EXECUTIONS_PER_CLASS);
  }

  /**
   * Loops come first: a rehearsal a launch stops after its first op has generated the run at the loop's head, not the
   * run the code starts with. Rehearsing the loop alone afterwards defines nothing new.
   */
  @Test
  void aLoopIsRehearsedBeforeTheCodeBeforeIt() {
    int[] before = {0x2202009f, 0x7e060203}; // v_ashrrev_i32 v1, 31, v0; v_mov_b32 v3, s3
    int[] body = {0x68000000, 0x68020201}; // v_add_u32 v0, s0, v0; v_add_u32 v1, s1, v1
    byte[] back = ScalarProperties.sopp(Target.GFX90A, dev.hipsim.isa.decode.Operation.S_CBRANCH_SCC0, -3).bytes();
    byte[] end = words(0xbf810000); // s_endpgm
    ByteArrayOutputStream code = new ByteArrayOutputStream();
    code.writeBytes(words(before));
    code.writeBytes(words(body));
    code.writeBytes(back);
    code.writeBytes(end);
    LaneCodeGen.forgetDefined();
    int[] asked = {0};
    assertThat(Rehearsal.rehearse(Target.GFX90A, code.toByteArray(), 0x1000, () -> asked[0]++ > 0)).isEqualTo(1);

    ByteArrayOutputStream loop = new ByteArrayOutputStream();
    loop.writeBytes(words(body));
    loop.writeBytes(back);
    loop.writeBytes(end);
    long defined = LaneCodeGen.DEFINED_FOR_FULL_EXEC.get();
    assertThat(Rehearsal.rehearse(Target.GFX90A, loop.toByteArray(), 0x8000, () -> false)).isEqualTo(1);
    assertThat(LaneCodeGen.DEFINED_FOR_FULL_EXEC.get()).as("the loop's run was defined first").isEqualTo(defined);

    ByteArrayOutputStream start = new ByteArrayOutputStream();
    start.writeBytes(words(before));
    start.writeBytes(end);
    Rehearsal.rehearse(Target.GFX90A, start.toByteArray(), 0x9000, () -> false);
    assertThat(LaneCodeGen.DEFINED_FOR_FULL_EXEC.get()).as("the start's run was not").isEqualTo(defined + 1);
  }

  private static long executions(byte[] code) {
    long before = Rehearsal.EXECUTED.get();
    Rehearsal.rehearse(Target.GFX90A, code, 0x1000, () -> false);
    return Rehearsal.EXECUTED.get() - before;
  }

  private static byte[] words(int... words) {
    ByteBuffer b = ByteBuffer.allocate(4 * words.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    for (int w : words) b.putInt(w);
    return b.array();
  }

  /** A branch into a 64-bit encoding that the end of the code cuts off: the walk ends. */
  @Test
  void aBranchIntoACutOffEncodingEndsTheWalk() {
    ByteArrayOutputStream code = new ByteArrayOutputStream();
    code.writeBytes(ScalarProperties.sopp(Target.GFX90A, dev.hipsim.isa.decode.Operation.S_BRANCH, 1).bytes());
    code.writeBytes(ScalarProperties.sopp(Target.GFX90A, dev.hipsim.isa.decode.Operation.S_ENDPGM, 0).bytes());
    code.writeBytes(new byte[] {0x0c, 0x00, (byte) 0xcb, (byte) 0xd1}); // v_fma_f32's first dword, no second
    org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(30),
        () -> Rehearsal.rehearse(Target.GFX90A, code.toByteArray(), 0x1000, () -> false));
  }

  /**
   * Generated code does not depend on where the code lies: whatever the bytes (invalid encodings, runs cut off by
   * the end of the code, branches anywhere, generated code whose loads and LDS addresses fall outside what the
   * rehearsal gives it), rehearsing them at a second address defines no class the first did not.
   */
  @Property(tries = 40)
  void anyCodeRehearsedElsewhereDefinesNothingNew(@ForAll @Size(max = 400) int[] words, @ForAll long first,
      @ForAll long second) {
    ByteBuffer b = ByteBuffer.allocate(words.length * 4).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    for (int w : words) b.putInt(w);
    rehearseTwice(b.array(), first, second);
  }

  /**
   * As above for code that fuses: the fusion properties' random sequences (integer and f32 VALU, 64-bit pairs,
   * global loads and stores, LDS reads and writes, scalar instructions), several one after the other.
   */
  @Property(tries = 60)
  void runsRehearsedElsewhereDefineNothingNew(@ForAll long seed, @ForAll long first, @ForAll long second) {
    Random r = new Random(seed);
    ByteArrayOutputStream code = new ByteArrayOutputStream();
    for (int k = 0; k < 4; k++) {
      for (Enc e : LaneFusionProperties.sequence(Target.GFX90A, r, 2 + r.nextInt(10))) code.writeBytes(e.bytes());
    }
    int runs = rehearseTwice(code.toByteArray(), first, second);
    Statistics.label("runs").collect(runs >= 2);
    Statistics.label("runs").coverage(c -> c.check(true).percentage(p -> p > 50));
  }

  /** Rehearses {@code code} at two addresses; returns the runs of the first. */
  private static int rehearseTwice(byte[] code, long first, long second) {
    LaneCodeGen.forgetDefined();
    int runs = Rehearsal.rehearse(Target.GFX90A, code, first & 0xffff_ffff_fffcL, () -> false);
    long before = LaneCodeGen.DEFINED_FOR_FULL_EXEC.get();
    assertThat(Rehearsal.rehearse(Target.GFX90A, code, second & 0xffff_ffff_fffcL, () -> false)).isEqualTo(runs);
    assertThat(LaneCodeGen.DEFINED_FOR_FULL_EXEC.get()).isEqualTo(before);
    return runs;
  }
}
