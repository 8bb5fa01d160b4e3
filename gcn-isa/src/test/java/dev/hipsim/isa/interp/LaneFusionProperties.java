package dev.hipsim.isa.interp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.exec.WaveStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.statistics.StatisticsReport;
import org.junit.jupiter.api.Test;

/**
 * Fused runs of VALU instructions ({@link FusedRun}) leave a wave exactly as the same instructions executed one by
 * one: random sequences of every fusible operation, in their short and VOP3 forms, with operands chosen to collide
 * (few VGPRs, lane masks written and read back, VCC and SGPRs read as scalars after a mask wrote them), under random
 * EXEC masks, register contents (f32 special values in half of them) and, now and then, MODE.
 */
class LaneFusionProperties {
  private static final long CODE = Machine.MEM + 0x80000;
  /** Registers the sequences use: few, so that instructions read what earlier ones wrote. */
  private static final int VGPRS = 8;
  private static final int[] MASK_REGS = {106, 20, 22, 24};
  /** v8-v11: LDS addresses. */
  private static final int ADDRESS_REGS = 8;
  /** Global memory for the loads: 16 pages from here ({@link WordPagesMemory}). */
  private static final long DATA = 0x2_0000_0000L;
  private static final int DATA_PAGES = 16;
  /** v[12:13], v[14:15]: global addresses; v16, v17: offsets from the base in s[30:31]. */
  private static final int GLOBAL_PAIRS = 12;
  private static final int GLOBAL_OFFSETS = 16;
  private static final int GLOBAL_BASE = 30;
  private static final Operation[] GLOBAL_STORES = {Operation.GLOBAL_STORE_DWORD, Operation.GLOBAL_STORE_DWORDX2,
      Operation.GLOBAL_STORE_DWORDX3, Operation.GLOBAL_STORE_DWORDX4, Operation.GLOBAL_STORE_SHORT};
  private static final Operation[] GLOBAL_LOADS = {Operation.GLOBAL_LOAD_DWORD, Operation.GLOBAL_LOAD_DWORDX2,
      Operation.GLOBAL_LOAD_DWORDX3, Operation.GLOBAL_LOAD_DWORDX4, Operation.GLOBAL_LOAD_UBYTE};
  private static final Operation[] LDS_WRITES = {Operation.DS_WRITE_B32, Operation.DS_WRITE_B64,
      Operation.DS_WRITE_B96, Operation.DS_WRITE_B128, Operation.DS_WRITE2_B32, Operation.DS_WRITE_B16};
  private static final Operation[] LDS_READS = {Operation.DS_READ_B32, Operation.DS_READ_B64, Operation.DS_READ_B96,
      Operation.DS_READ_B128, Operation.DS_READ2_B32, Operation.DS_READ2ST64_B32, Operation.DS_READ2_B64,
      Operation.DS_READ2ST64_B64};

  @Provide
  Arbitrary<Target> targets() {
    return Arbitraries.of(Target.GFX90A, Target.GFX942);
  }

  @Property(tries = 600)
  void aFusedRunLeavesTheWaveAsItsInstructionsOneByOne(@ForAll("targets") Target t, @ForAll long seed)
      throws Exception {
    Random r = new Random(seed);
    List<Enc> code = sequence(t, r, 2 + r.nextInt(10));
    // Half the sequences end with s_endpgm right after their last instruction (a run that ends there need not
    // write its registers or lane masks back: only memory, EXEC and the program counter can be compared); the
    // other half with an s_mov_b32 before it, and every register is compared.
    boolean registersLive = r.nextBoolean();
    if (registersLive) code.add(Enc.of(t, Format.SOP1, Operation.S_MOV_B32).sdst(99).ssrc0(128));
    long state = r.nextLong();
    Machine fused = machine(t, state, code);
    Machine single = machine(t, state, code);
    CodeCache fusing = new CodeCache(t, true, 0);
    WordPagesMemory fusedMemory = memory(fused, state);
    WordPagesMemory singleMemory = memory(single, state);
    String fusedFault = run(fused, fusing, fusedMemory);
    String singleFault = run(single, new CodeCache(t, false), singleMemory);
    Op[] page = fusing.page(CODE >>> CodeCache.PAGE_SHIFT);
    Statistics.label("fused").collect(withoutBranch(page[CodeCache.slot(CODE)]) instanceof FusedRun);
    boolean lds = false;
    boolean global = false;
    boolean stores = false;
    boolean ldsWrites = false;
    boolean checked = false;
    boolean scalars = false;
    for (Op slot : page) {
      Op op = withoutBranch(slot);
      scalars |= op instanceof FusedRun && ((FusedRun) op).runsScalars();
      checked |= op instanceof FusedRun && ((FusedRun) op).checksLdsInLoop();
      lds |= op instanceof FusedRun && ((FusedRun) op).readsLds();
      ldsWrites |= op instanceof FusedRun && ((FusedRun) op).writesLds();
      global |= op instanceof FusedRun && ((FusedRun) op).loadsGlobal();
      stores |= op instanceof FusedRun && ((FusedRun) op).storesGlobal();
    }
    Statistics.label("LDS address checked in the loop").collect(checked);
    Statistics.label("LDS address checked in the loop").coverage(c -> c.check(true).percentage(p -> p > 5));
    Statistics.label("scalar instruction in a run").collect(scalars);
    Statistics.label("scalar instruction in a run").coverage(c -> c.check(true).percentage(p -> p > 15));
    Statistics.label("LDS write in a run").collect(ldsWrites);
    Statistics.label("LDS write in a run").coverage(c -> c.check(true).percentage(p -> p > 15));
    Statistics.label("global store in a run").collect(stores);
    Statistics.label("global store in a run").coverage(c -> c.check(true).percentage(p -> p > 15));
    Statistics.label("LDS read in a run").collect(lds);
    Statistics.label("LDS read in a run").coverage(c -> c.check(true).percentage(p -> p > 20));
    Statistics.label("global load in a run").collect(global);
    Statistics.label("global load in a run").coverage(c -> c.check(true).percentage(p -> p > 20));
    // Most sequences must start with a fused run, or the property would test the unfused path against itself.
    Statistics.label("fused").coverage(c -> c.check(true).percentage(p -> p > 40));
    String listing = listing(single, code);
    assertThat(fusedFault).as(listing).isEqualTo(singleFault);
    Statistics.label("fault").collect(singleFault != null);
    Statistics.label("fault").coverage(c -> c.check(true).percentage(p -> p > 3));
    Statistics.label("fault").coverage(c -> c.check(false).percentage(p -> p > 50));
    if (singleFault != null) return; // a device error ends the dispatch: what the registers hold after is moot
    assertThat(fusedMemory.contents()).as(listing).isDeepEqualTo(singleMemory.contents());
    int ldsSize = single.group.lds().size();
    assertThat(fused.group.lds().read(0, ldsSize)).as(listing).isEqualTo(single.group.lds().read(0, ldsSize));
    if (registersLive) {
      assertThat(fused.w.v).as(listing).isEqualTo(single.w.v);
      assertThat(fused.w.s).as(listing).isEqualTo(single.w.s);
    }
    assertThat(fused.w.exec()).as(listing).isEqualTo(single.w.exec());
    assertThat(fused.w.scc).as(listing).isEqualTo(single.w.scc);
    assertThat(fused.w.pc).as(listing).isEqualTo(single.w.pc);
    assertThat(fused.w.instructions).as(listing).isEqualTo(single.w.instructions);
  }

  /**
   * Scalar ALU instructions between a run's steps, on a handful of SGPRs that the steps read as scalars and lane
   * masks and write as lane masks, so that most sequences have an order the run must keep: a scalar read of a mask
   * a step wrote, a step reading what a scalar instruction wrote, a mask written over what a scalar instruction
   * read.
   */
  @Property(tries = 400)
  void scalarInstructionsInARunKeepTheirOrderWithItsSteps(@ForAll long seed) throws Exception {
    Target t = Target.GFX90A;
    Random r = new Random(seed);
    List<Enc> code = new ArrayList<>();
    // now and then scalar instructions first, which run before the run (runs start with a step)
    for (int k = r.nextInt(3) == 0 ? 1 + r.nextInt(2) : 0; k > 0; k--) {
      code.add(Enc.of(t, Format.SOP2, Operation.S_ADD_U32).sdst(denseScalar(r)).ssrc0(denseScalar(r))
          .ssrc1(denseScalar(r)));
    }
    code.add(Enc.of(t, Format.VOP2, Operation.V_ADD_U32).vdst(r.nextInt(4)).src0(denseScalar(r)).src1(256));
    int n = 3 + r.nextInt(8);
    for (int i = 0; i < n; i++) {
      int v = 256 + r.nextInt(4);
      int d = r.nextInt(4);
      switch (r.nextInt(7)) {
        case 0 -> code.add(Enc.of(t, Format.VOP2, Operation.V_ADD_U32).vdst(d).src0(denseScalar(r)).src1(v));
        case 1 -> code.add(Enc.of(t, Format.VOP3, Operation.V_CNDMASK_B32).vdst(d).src0(v).src1(256 + r.nextInt(4))
            .src2(DENSE_PAIRS[r.nextInt(DENSE_PAIRS.length)]));
        case 2 -> code.add(Enc.of(t, Format.VOP3, Operation.V_CMP_GT_I32).vdst(DENSE_PAIRS[r.nextInt(2)])
            .src0(denseScalar(r)).src1(v));
        case 3 -> code.add(Enc.of(t, Format.VOP3, Operation.V_ADD_CO_U32).vdst(d)
            .sdst(DENSE_PAIRS[r.nextInt(DENSE_PAIRS.length)]).src0(denseScalar(r)).src1(v));
        case 4 -> code.add(Enc.of(t, Format.SOP2, Operation.S_ADD_U32).sdst(denseScalar(r)).ssrc0(denseScalar(r))
            .ssrc1(denseScalar(r)));
        case 5 -> code.add(Enc.of(t, Format.SOP1, Operation.S_MOV_B64).sdst(DENSE_PAIRS[r.nextInt(2)])
            .ssrc0(DENSE_PAIRS[r.nextInt(DENSE_PAIRS.length)]));
        default -> code.add(Enc.of(t, Format.SOP2, Operation.S_CSELECT_B32).sdst(denseScalar(r))
            .ssrc0(denseScalar(r)).ssrc1(129 + r.nextInt(8)));
      }
    }
    CodeCache fusing = runBothWays(t, seed, code, m -> { });
    boolean scalars = false;
    for (Op slot : fusing.page(CODE >>> CodeCache.PAGE_SHIFT)) {
      Op op = withoutBranch(slot);
      scalars |= op instanceof FusedRun && ((FusedRun) op).runsScalars();
    }
    Statistics.label("scalar instruction in a run").collect(scalars);
    Statistics.label("scalar instruction in a run").coverage(c -> c.check(true).percentage(p -> p > 40));
  }

  /**
   * 64-bit values in v0-v3 made by shifts and by add pairs, their halves written over one at a time, and read again
   * as pairs: the run keeps a pair's long only while both halves hold it. The add pairs' low carries go to
   * s[20:21] or s[24:25], their high ones to s[20:21] or s[22:23] (so that either may be the one written back), and
   * their high halves now and then add -1 and 0, so that the carry out is the carry in.
   */
  @Property(tries = 300)
  void pairsTheRunKeepsAsLongsAreTheRegisters(@ForAll long seed) throws Exception {
    Target t = Target.GFX90A;
    Random r = new Random(seed);
    List<Enc> code = new ArrayList<>();
    int n = 3 + r.nextInt(8);
    for (int i = 0; i < n; i++) {
      int pair = 2 * r.nextInt(2);
      switch (r.nextInt(4)) {
        case 0 -> code.add(Enc.of(t, Format.VOP3, Operation.V_LSHLREV_B64).vdst(pair).src0(128 + r.nextInt(4))
            .src1(256 + 2 * r.nextInt(2)));
        case 1 -> {
          boolean carryThrough = r.nextInt(3) == 0;
          int carry = r.nextBoolean() ? 20 : 24;
          code.add(Enc.of(t, Format.VOP3, Operation.V_ADD_CO_U32).vdst(pair).sdst(carry).src0(256 + r.nextInt(4))
              .src1(256 + r.nextInt(4)));
          code.add(Enc.of(t, Format.VOP3, Operation.V_ADDC_CO_U32).vdst(pair + 1).sdst(r.nextBoolean() ? 20 : 22)
              .src0(carryThrough ? 193 : 256 + r.nextInt(4)).src1(carryThrough ? 128 : 256 + r.nextInt(4))
              .src2(carry));
        }
        case 2 -> code.add(Enc.of(t, Format.VOP1, Operation.V_MOV_B32).vdst(r.nextInt(4)).src0(256 + 4 + r.nextInt(4)));
        default -> code.add(Enc.of(t, Format.VOP2, Operation.V_ADD_U32).vdst(r.nextInt(4)).src0(256 + r.nextInt(8))
            .src1(256 + r.nextInt(4)));
      }
    }
    runBothWays(t, seed, code, m -> { });
  }

  /**
   * f32 arithmetic on v0-v3, which the run passes from step to step as floats, among integer writes to the same
   * registers and 64-bit shifts over them, with the f32 special values in every register: what an f32 step reads
   * is the register's value, however it was written last.
   */
  @Property(tries = 300)
  void floatsTheRunKeepsAreTheRegisters(@ForAll long seed) throws Exception {
    Target t = Target.GFX90A;
    Random r = new Random(seed);
    List<Enc> code = new ArrayList<>();
    int n = 3 + r.nextInt(10);
    for (int i = 0; i < n; i++) {
      int d = r.nextInt(4);
      switch (r.nextInt(6)) {
        case 0 -> code.add(Enc.of(t, Format.VOP2, Operation.V_FMAC_F32).vdst(d).src0(256 + r.nextInt(4))
            .src1(256 + r.nextInt(4)));
        case 1 -> code.add(Enc.of(t, Format.VOP2, Operation.V_ADD_F32).vdst(d).src0(256 + r.nextInt(4))
            .src1(256 + r.nextInt(4)));
        case 2 -> code.add(Enc.of(t, Format.VOP3, Operation.V_FMA_F32).vdst(d).src0(256 + r.nextInt(4))
            .src1(256 + r.nextInt(4)).src2(256 + r.nextInt(4)));
        case 3 -> code.add(Enc.of(t, Format.VOP1, Operation.V_MOV_B32).vdst(d).src0(256 + 4 + r.nextInt(4)));
        case 4 -> code.add(Enc.of(t, Format.VOP3, Operation.V_LSHLREV_B64).vdst(2 * r.nextInt(2)).src0(128)
            .src1(256 + 4 + 2 * r.nextInt(2)));
        default -> code.add(Enc.of(t, Format.VOP2, Operation.V_MUL_F32).vdst(d).src0(256 + r.nextInt(8))
            .src1(256 + r.nextInt(4)));
      }
    }
    runBothWays(t, seed, code, m -> {
      m.w.mode = dev.hipsim.isa.fp.FpMode.DEFAULT; // the mode where runs keep floats
      Random values = new Random(seed ^ 0xf32);
      for (int i = 0; i < 8 * Wave.LANES; i++) m.w.v[i] = Vals.f32(values);
    });
  }

  /**
   * A run that ends the wave (a store, then {@code s_endpgm}) with a scalar instruction that reads a lane mask the
   * run wrote: the mask is written back for it, though nothing reads a register after the wave ends. (Found by the
   * property above: {@code s_min_u32 s10, vcc_lo, ...} read a VCC the run had not written back, and set SCC from it.)
   */
  @Test
  void aScalarInstructionReadsTheLaneMaskOfARunThatEndsTheWave() throws Exception {
    Target t = Target.GFX90A;
    List<Enc> code = List.of(
        Enc.of(t, Format.VOPC, Operation.V_CMP_GT_U32).src0(0).src1(256 + 1),          // VCC
        Enc.of(t, Format.VOP2, Operation.V_ADD_U32).vdst(2).src0(1).src1(256 + 2),
        Enc.of(t, Format.SOP2, Operation.S_MIN_U32).sdst(10).ssrc0(106).ssrc1(3),       // reads vcc_lo, sets SCC
        Enc.of(t, Format.GLOBAL, Operation.GLOBAL_STORE_DWORD).flat(GLOBAL_OFFSETS, 2, GLOBAL_BASE, 0),
        ScalarProperties.sopp(t, Operation.S_ENDPGM, 0));
    for (long seed = 0; seed < 16; seed++) {
      Machine fused = machine(t, seed, code);
      Machine single = machine(t, seed, code);
      fused.w.mode = 0;
      single.w.mode = 0;
      CodeCache fusing = new CodeCache(t, true, 0);
      WordPagesMemory fusedMemory = memory(fused, seed);
      WordPagesMemory singleMemory = memory(single, seed);
      String fault = run(single, new CodeCache(t, false), singleMemory);
      assertThat(run(fused, fusing, fusedMemory)).isEqualTo(fault);
      Op first = withoutBranch(fusing.page(CODE >>> CodeCache.PAGE_SHIFT)[CodeCache.slot(CODE)]);
      assertThat(first).isInstanceOf(FusedRun.class);
      assertThat(((FusedRun) first).runsScalars()).isTrue();
      if (fault != null) continue;
      String listing = listing(single, code);
      assertThat(fused.w.s).as(listing).isEqualTo(single.w.s);
      assertThat(fused.w.scc).as(listing).isEqualTo(single.w.scc);
      assertThat(fusedMemory.contents()).as(listing).isDeepEqualTo(singleMemory.contents());
    }
  }

  /**
   * A loop whose head is inside the run that starts before the loop: once the branch back has been seen, the head
   * starts a run of its own, and the loop's later iterations run fused from there.
   */
  @Test
  void aBranchTargetInsideARunStartsARunOfItsOwn() throws Exception {
    Target t = Target.GFX90A;
    List<Enc> code = List.of(
        Enc.of(t, Format.SOP1, Operation.S_MOV_B32).sdst(0).ssrc0(128 + 3),      // CODE:      s0 = 3
        Enc.of(t, Format.VOP1, Operation.V_MOV_B32).vdst(5).src0(256 + 6),         // CODE + 4: the run
        Enc.of(t, Format.VOP2, Operation.V_ADD_U32).vdst(1).src0(256 + 1).src1(256 + 2), // CODE + 8: loop
        Enc.of(t, Format.VOP2, Operation.V_ADD_U32).vdst(3).src0(256 + 3).src1(256 + 1),
        Enc.of(t, Format.SOP2, Operation.S_SUB_U32).sdst(0).ssrc0(0).ssrc1(129),
        Enc.of(t, Format.SOPC, Operation.S_CMP_LG_U32).ssrc0(0).ssrc1(128),
        ScalarProperties.sopp(t, Operation.S_CBRANCH_SCC1, -5),                   // to CODE + 8
        Enc.of(t, Format.SOP1, Operation.S_MOV_B32).sdst(99).ssrc0(128));
    Machine fused = machine(t, 7, code);
    Machine single = machine(t, 7, code);
    CodeCache fusing = new CodeCache(t, true, 0);
    assertThat(run(fused, fusing, 7)).isNull();
    assertThat(run(single, new CodeCache(t, false), 7)).isNull();
    assertSameWave(fused, single, listing(single, code));
    assertThat(fused.w.instructions).isEqualTo(2 + 3 * 5 + 2);
    Op[] page = fusing.page(CODE >>> CodeCache.PAGE_SHIFT);
    assertThat(withoutBranch(page[CodeCache.slot(CODE + 4)])).as("the run from v_mov_b32, with the branch after it")
        .isInstanceOf(FusedRun.class);
    assertThat(withoutBranch(page[CodeCache.slot(CODE + 8)])).as("the run from the loop's head, with its branch")
        .isInstanceOf(FusedRun.class);
  }

  /**
   * A branch seen before the run that contains its target (here not taken): the target is left out of the run's
   * inner addresses, so that reaching it by the branch compiles it on its own, free to start a run.
   */
  @Test
  void aTargetKnownBeforeTheRunIsNotInsideIt() throws Exception {
    Target t = Target.GFX90A;
    List<Enc> code = List.of(
        Enc.of(t, Format.SOPC, Operation.S_CMP_LG_U32).ssrc0(0).ssrc1(0),          // CODE:      SCC = 0
        ScalarProperties.sopp(t, Operation.S_CBRANCH_SCC1, 1),                     // to CODE + 12, not taken
        Enc.of(t, Format.VOP1, Operation.V_MOV_B32).vdst(5).src0(256 + 6),         // CODE + 8: the run
        Enc.of(t, Format.VOP2, Operation.V_ADD_U32).vdst(1).src0(1).src1(256 + 2), // CODE + 12
        Enc.of(t, Format.VOP2, Operation.V_ADD_U32).vdst(3).src0(256 + 3).src1(256 + 1),
        Enc.of(t, Format.SOP1, Operation.S_MOV_B32).sdst(99).ssrc0(128));
    Machine fused = machine(t, 9, code);
    Machine single = machine(t, 9, code);
    CodeCache fusing = new CodeCache(t, true, 0);
    assertThat(run(fused, fusing, 9)).isNull();
    assertThat(run(single, new CodeCache(t, false), 9)).isNull();
    assertSameWave(fused, single, listing(single, code));
    Op[] page = fusing.page(CODE >>> CodeCache.PAGE_SHIFT);
    assertThat(page[CodeCache.slot(CODE + 8)]).isInstanceOf(FusedRun.class);
    assertThat(page[CodeCache.slot(CODE + 12)]).as("the branch target, never reached alone").isNull();
    assertThat(page[CodeCache.slot(CODE + 16)]).as("an inner instruction, compiled for the run").isNotNull();
  }

  /**
   * Runs {@code code}, then an instruction that keeps the registers live, fused and one by one on two machines of
   * {@code seed} set up alike, and checks that neither faults and that the waves end the same; returns the fusing
   * cache.
   */
  private static CodeCache runBothWays(Target t, long seed, List<Enc> code, java.util.function.Consumer<Machine> setUp)
      throws Exception {
    code.add(Enc.of(t, Format.SOP1, Operation.S_MOV_B32).sdst(99).ssrc0(128));
    Machine fused = machine(t, seed, code);
    Machine single = machine(t, seed, code);
    setUp.accept(fused);
    setUp.accept(single);
    CodeCache fusing = new CodeCache(t, true, 0);
    assertThat(run(fused, fusing, seed)).isNull();
    assertThat(run(single, new CodeCache(t, false), seed)).isNull();
    assertSameWave(fused, single, listing(single, code));
    return fusing;
  }

  /** The whole wave of {@code fused} is that of {@code single}: registers, SCC, EXEC, program counter, count. */
  private static void assertSameWave(Machine fused, Machine single, String listing) {
    assertThat(fused.w.v).as(listing).isEqualTo(single.w.v);
    assertThat(fused.w.s).as(listing).isEqualTo(single.w.s);
    assertThat(fused.w.scc).as(listing).isEqualTo(single.w.scc);
    assertThat(fused.w.exec()).as(listing).isEqualTo(single.w.exec());
    assertThat(fused.w.pc).as(listing).isEqualTo(single.w.pc);
    assertThat(fused.w.instructions).as(listing).isEqualTo(single.w.instructions);
  }

  /** VCC and s[2:3]: the lane masks of {@link #scalarInstructionsInARunKeepTheirOrderWithItsSteps}. */
  private static final int[] DENSE_PAIRS = {106, 2};

  /** s0-s3 or VCC's halves. */
  private static int denseScalar(Random r) {
    int k = r.nextInt(6);
    return k < 4 ? k : 106 + k - 4;
  }

  @Property(tries = 100)
  void gprIndexingRunsTheInstructionsOneByOne(@ForAll long seed) throws Exception {
    Target t = Target.GFX90A;
    Random r = new Random(seed);
    List<Enc> code = sequence(t, r, 2 + r.nextInt(6));
    Machine fused = machine(t, seed, code);
    Machine single = machine(t, seed, code);
    int indexed = 1 + r.nextInt(15);
    for (Machine m : new Machine[] {fused, single}) {
      m.w.gprIdxMask = indexed;
      m.w.s[Wave.M0] = 3;
    }
    code.add(Enc.of(t, Format.SOP1, Operation.S_MOV_B32).sdst(99).ssrc0(128)); // registers live at the end
    assertThat(run(fused, new CodeCache(t, true, 0), seed)).isEqualTo(run(single, new CodeCache(t, false), seed));
    assertThat(fused.w.v).as(listing(single, code)).isEqualTo(single.w.v);
    assertThat(fused.w.s).as(listing(single, code)).isEqualTo(single.w.s);
  }

  /** The vector-add kernel's address arithmetic, an s_waitcnt inside: one run, counted as its seven instructions. */
  @Test
  void theVectorAddAddressArithmeticIsOneRunCountedInstructionByInstruction() throws Exception {
    Target t = Target.GFX90A;
    List<Enc> code = List.of(
        Enc.of(t, Format.VOP1, Operation.V_MOV_B32).vdst(3).src0(3),
        Enc.of(t, Format.VOP2, Operation.V_ADD_CO_U32).vdst(2).src0(2).src1(256),
        Enc.of(t, Format.VOP2, Operation.V_ADDC_CO_U32).vdst(3).src0(256 + 3).src1(256 + 1),
        ScalarProperties.sopp(t, Operation.S_WAITCNT, 0),
        Enc.of(t, Format.VOP1, Operation.V_MOV_B32).vdst(5).src0(1),
        Enc.of(t, Format.VOP2, Operation.V_ADD_CO_U32).vdst(4).src0(0).src1(256),
        Enc.of(t, Format.VOP2, Operation.V_ADDC_CO_U32).vdst(5).src0(256 + 5).src1(256 + 1));
    Machine m = machine(t, 7, code);
    m.w.setExec(-1L);
    for (int l = 0; l < Wave.LANES; l++) {
      m.setV(0, l, 4 * l - 8);
      m.setV(1, l, (4 * l - 8) >> 31);
    }
    m.w.s[0] = 0x1000;
    m.w.s[1] = 0x7f;
    m.w.s[2] = 0x2000;
    m.w.s[3] = 0x7e;
    CodeCache cache = new CodeCache(t, true, 0);
    Interpreter it = new Interpreter(cache, m.memory, m.launch);
    it.run(m.w, 1000);
    Op run = cache.page(CODE >>> CodeCache.PAGE_SHIFT)[CodeCache.slot(CODE)];
    assertThat(run).isInstanceOf(FusedRun.class);
    assertThat(run.size).as("all seven instructions in one run").isEqualTo(7 * 4);
    assertThat(cache.at(CODE, m.memory)).as("a debugger sees one instruction").isNotInstanceOf(FusedRun.class);
    for (int l = 0; l < Wave.LANES; l++) {
      long off = 4L * l - 8;
      assertThat(m.v64(2, l)).isEqualTo(0x7e_0000_2000L + off);
      assertThat(m.v64(4, l)).isEqualTo(0x7f_0000_1000L + off);
    }
    assertThat(m.w.vcc()).as("the last carry out: the lanes whose offset is negative").isEqualTo(0b11L);
    assertThat(m.w.instructions).isEqualTo(8);
    assertThat(java.util.Arrays.stream(it.instructionMix()).sum()).as("every instruction in the mix").isEqualTo(8);
  }

  /**
   * A run is generated once its first instruction has run the cache's threshold of times; until then the slot runs
   * the instruction alone (and the debugger's view is the instruction either way).
   */
  @Test
  void aRunIsGeneratedAfterItsFirstInstructionRanTheThresholdOfTimes() throws Exception {
    Target t = Target.GFX90A;
    List<Enc> code = List.of(
        Enc.of(t, Format.VOP2, Operation.V_ADD_U32).vdst(1).src0(256).src1(256),
        Enc.of(t, Format.VOP2, Operation.V_XOR_B32).vdst(2).src0(256 + 1).src1(256));
    CodeCache cache = new CodeCache(t, true, 3);
    for (int time = 1; time <= 4; time++) {
      Machine m = machine(t, time, code);
      Machine single = machine(t, time, code);
      run(m, cache, time);
      run(single, new CodeCache(t, false), time);
      assertThat(m.w.v).isEqualTo(single.w.v);
      Op slot = cache.page(CODE >>> CodeCache.PAGE_SHIFT)[CodeCache.slot(CODE)];
      assertThat(slot).as("after run " + time).isInstanceOf(time < 3 ? PendingRun.class : FusedRun.class);
      assertThat(cache.at(CODE, m.memory)).as("what a debugger steps").isNotInstanceOf(PendingRun.class)
          .isNotInstanceOf(FusedRun.class);
    }
  }

  /**
   * A run's code writes no VGPR at or above its plan's {@code vgprLimit}: the rehearsal, which calls the code of every
   * run it generates, zeroes only the registers below it again between calls.
   */
  @Property(tries = 200)
  void aRunsCodeWritesNoVgprFromItsLimitOn(@ForAll("targets") Target t, @ForAll long seed) throws Exception {
    Random r = new Random(seed);
    List<Enc> code = sequence(t, r, 2 + r.nextInt(10));
    long state = r.nextLong();
    Machine m = machine(t, state, code);
    CodeCache cache = new CodeCache(t, true, 0);
    WordPagesMemory memory = memory(m, state);
    run(m, cache, memory);
    int runs = 0;
    for (Op slot : cache.page(CODE >>> CodeCache.PAGE_SHIFT)) {
      if (!(withoutBranch(slot) instanceof FusedRun run)) continue;
      runs++;
      int limit = run.plan().vgprLimit();
      int[] v = new int[Wave.MAX_VGPRS * Wave.LANES];
      for (int i = 0; i < v.length; i++) v[i] = r.nextInt();
      int[] before = v.clone();
      try {
        run.allLanes().run(v, new int[LaneFusion.MAX_SCALAR_SLOTS], new long[LaneFusion.MAX_MASKS], -1L,
            dev.hipsim.isa.fp.FpMode.DEFAULT, new int[16384], 65536, memory,
            new long[LaneFusion.MAX_GLOBAL_STORES][Wave.LANES], new int[4 * LaneFusion.MAX_GLOBAL_STORES * Wave.LANES],
            new int[LaneFusion.MAX_LDS_WRITES * Wave.LANES], new int[4 * LaneFusion.MAX_LDS_WRITES * Wave.LANES]);
      } catch (dev.hipsim.isa.mem.GpuMemoryFault | RuntimeException e) {
        // what the lanes before the failure wrote is checked all the same
      }
      assertThat(java.util.Arrays.copyOfRange(v, limit * Wave.LANES, v.length)).as(listing(m, code))
          .isEqualTo(java.util.Arrays.copyOfRange(before, limit * Wave.LANES, v.length));
      Statistics.label("registers written below the limit").collect(
          !java.util.Arrays.equals(v, 0, limit * Wave.LANES, before, 0, limit * Wave.LANES));
    }
    Statistics.label("runs").collect(runs > 0);
    Statistics.label("runs").coverage(c -> c.check(true).percentage(p -> p > 40));
    Statistics.label("registers written below the limit").coverage(c -> c.check(true).percentage(p -> p > 10));
  }

  /** The warm-up's sample (CodeCache.prepareFusion) is one run of its seven instructions and its code runs. */
  @Test
  void theWarmUpSampleIsOneRunWhoseCodeRuns() throws Exception {
    LaneFusion.Plan plan = LaneFusion.samplePlan();
    assertThat(plan.steps()).hasSize(7);
    assertThat(plan.vgprLimit()).as("v[2:3] and v7 the highest written").isEqualTo(8);
    assertThat(plan.floats()).isTrue();
    assertThat(plan.loadsGlobal()).isTrue();
    assertThat(plan.maskOutputs()).as("VCC, which three steps write, is written back once").hasSize(1);
    int[] v = new int[Wave.MAX_VGPRS * Wave.LANES];
    long[] masks = new long[LaneFusion.MAX_MASKS];
    int[] scalars = new int[LaneFusion.MAX_SCALAR_SLOTS];
    scalars[0] = 8; // s2, the compare's first source; v0 is 0 in every lane
    scalars[3] = 8; // s2 again, the low half of the load's address
    dev.hipsim.isa.mem.FlatMemory memory = new dev.hipsim.isa.mem.FlatMemory(0, 64);
    memory.store32(8, 0x1234_5678);
    LaneCodeGen.generate(plan, false).run(v, scalars, masks, -1L, dev.hipsim.isa.fp.FpMode.DEFAULT, null, 0, memory,
        new long[LaneFusion.MAX_GLOBAL_STORES][Wave.LANES], new int[4 * LaneFusion.MAX_GLOBAL_STORES * Wave.LANES],
        new int[LaneFusion.MAX_LDS_WRITES * Wave.LANES], new int[4 * LaneFusion.MAX_LDS_WRITES * Wave.LANES]);
    assertThat(masks[0]).as("VCC as v_addc_co_u32 leaves it: no lane carries").isEqualTo(0L);
    assertThat(v[7 * Wave.LANES + 63]).as("global_load_dword v7, v[2:3]: from 8 + 0").isEqualTo(0x1234_5678);
  }

  /**
   * A load that faults in a lane part-way through a run: the address register the earlier lanes overwrote is put
   * back, so that the instructions one by one fault at the same instruction, lane and address. (The registers the
   * run only writes are left as the lanes before the fault made them: a memory fault ends the dispatch, and the
   * debugger, the one observer of a faulted wave, runs instructions one by one.)
   */
  @Test
  void aLoadThatFaultsPartWayReportsItsInstructionAndLane() throws Exception {
    Target t = Target.GFX90A;
    List<Enc> code = List.of(
        Enc.of(t, Format.VOP2, Operation.V_ADD_U32).vdst(12).src0(128 + 4).src1(256 + 12), // v12 += 4: read, then written
        Enc.of(t, Format.GLOBAL, Operation.GLOBAL_LOAD_DWORD).vdst(0).flat(12, 0, 0x7f, 0),
        Enc.of(t, Format.VOP2, Operation.V_ADD_U32).vdst(1).src0(256).src1(256));
    String[] faults = new String[2];
    Machine[] machines = new Machine[2];
    for (int i = 0; i < 2; i++) {
      Machine m = machine(t, 3, code);
      m.w.setExec(-1L);
      for (int l = 0; l < Wave.LANES; l++) {
        m.setV(12, l, (int) DATA + 4 * l + (l == 40 ? 16 * 4096 : 0)); // lane 40 past the last page
        m.setV(13, l, (int) (DATA >>> 32));
      }
      machines[i] = m;
      faults[i] = run(m, new CodeCache(t, i == 0, 0), 3);
    }
    assertThat(faults[0]).isNotNull().isEqualTo(faults[1]).contains("lane 40").contains("global_load_dword")
        .contains(String.format("0x%x", DATA + 16 * 4096 + 4 * 40 + 4));
    for (int l = 0; l < Wave.LANES; l++) {
      assertThat(machines[0].v(12, l)).as("v12, lane " + l).isEqualTo(machines[1].v(12, l));
    }
    assertThat(machines[0].w.pc).isEqualTo(machines[1].w.pc);
  }

  private static Machine machine(Target t, long seed, List<Enc> code) throws Exception {
    Machine m = new Machine(t);
    Random r = new Random(seed);
    m.randomize(r, 16);
    m.w.setExec(Vals.exec(r));
    // f32 values with their special cases (NaN, infinity, denormals, zeros) in half the registers, and now and
    // then a MODE other than the default
    for (int i = 0; i < 16 * Wave.LANES; i++) {
      if (r.nextBoolean()) m.w.v[i] = Vals.f32(r);
    }
    if (r.nextInt(4) == 0) m.w.mode = Vals.mode(r);
    // LDS of a random size and contents; v8-v11 hold LDS addresses, mostly aligned and inside it
    int size = 4 * (64 + r.nextInt(1024));
    m.group.lds().reset(size);
    byte[] contents = new byte[size];
    r.nextBytes(contents);
    m.group.lds().write(0, contents);
    for (int reg = ADDRESS_REGS; reg < ADDRESS_REGS + 4; reg++) {
      int kind = r.nextInt(8);
      for (int l = 0; l < Wave.LANES; l++) {
        int a = 4 * r.nextInt(size / 4 - 48);
        if (kind == 0 && r.nextInt(16) == 0) a += 1 + r.nextInt(3); // misaligned lanes
        if (kind == 1 && r.nextInt(16) == 0) a = size - 4 * r.nextInt(4); // lanes at or past the end
        m.setV(reg, l, a);
      }
    }
    // v[12:13], v[14:15]: global addresses, v16, v17: offsets from s[30:31], mostly aligned and in mapped pages
    // (with room for the loads' offsets, up to 128 bytes either way, and 16 bytes)
    m.w.setS64(GLOBAL_BASE, DATA);
    int mappedDwords = (DATA_PAGES - 1) * 1024;
    for (int pair = 0; pair < 2; pair++) {
      int kind = r.nextInt(8);
      int start = 128 + 4 * r.nextInt(mappedDwords - 64 - 80);
      for (int l = 0; l < Wave.LANES; l++) {
        int offset = kind < 5 ? start + 4 * l : 128 + 4 * r.nextInt(mappedDwords - 80);
        if (kind == 5 && r.nextInt(8) == 0) offset += 1 + r.nextInt(3); // misaligned lanes
        if (kind == 6 && r.nextInt(8) == 0) offset = 4096 * (1 + r.nextInt(DATA_PAGES - 2)) - 4; // across pages
        if (kind == 7 && r.nextInt(16) == 0) offset = (DATA_PAGES - 1) * 4096 + r.nextInt(8192); // unmapped
        m.setV(GLOBAL_PAIRS + 2 * pair, l, (int) (DATA + offset));
        m.setV(GLOBAL_PAIRS + 2 * pair + 1, l, (int) ((DATA + offset) >>> 32));
        m.setV(GLOBAL_OFFSETS + pair, l, offset);
      }
    }
    long at = CODE;
    for (Enc e : code) {
      byte[] b = e.bytes();
      m.memory.write(at, b, 0, b.length);
      at += b.length;
    }
    byte[] end = ScalarProperties.sopp(t, Operation.S_ENDPGM, 0).bytes();
    m.memory.write(at, end, 0, end.length);
    m.w.pc = CODE;
    return m;
  }

  /**
   * The machine's memory with the global data of {@code seed} at DATA: pages mostly cached, some that take the
   * load32 path, the last one unmapped.
   */
  private static WordPagesMemory memory(Machine m, long seed) throws Exception {
    Random r = new Random(seed ^ 0x5eed);
    int[] kind = new int[DATA_PAGES];
    for (int p = 0; p < DATA_PAGES - 1; p++) kind[p] = r.nextInt(3) == 0 ? 1 : 2;
    WordPagesMemory memory = new WordPagesMemory(m.memory, DATA, kind);
    for (int p = 0; p < DATA_PAGES; p++) {
      if (kind[p] == 0) continue;
      for (int i = 0; i < 512; i++) memory.store64(DATA + 4096L * p + 8L * i, r.nextLong());
    }
    return memory;
  }

  /** Runs the code to its end with the global data of {@code seed}; returns the device error's message, or null. */
  private static String run(Machine m, CodeCache cache, long seed) throws Exception {
    return run(m, cache, memory(m, seed));
  }

  /** Runs the code to its end with global data in {@code memory}; returns the device error's message, or null. */
  private static String run(Machine m, CodeCache cache, WordPagesMemory memory) throws Exception {
    try {
      new Interpreter(cache, memory, m.launch).run(m.w, 1000);
    } catch (dev.hipsim.isa.dispatch.WaveFault f) {
      return f.getMessage();
    }
    assertThat(m.w.status).isEqualTo(WaveStatus.DONE);
    return null;
  }

  private static String listing(Machine m, List<Enc> code) {
    StringBuilder b = new StringBuilder("exec ").append(Long.toHexString(m.w.exec())).append(" mode ")
        .append(Integer.toHexString(m.w.mode)).append('\n');
    for (Enc e : code) b.append(m.text(e)).append('\n');
    return b.toString();
  }

  /**
   * Random fusible instructions: VALU operations, LDS reads and writes, global loads and stores, 64-bit add pairs,
   * scalar ALU instructions (some of which end a run), and now and then an s_waitcnt or s_nop inside. Each kind has
   * its own chance, tuned so that the coverage checks of the property hold.
   */
  static List<Enc> sequence(Target t, Random r, int n) {
    List<Operation> ops = new ArrayList<>(FusibleOp.operations());
    ops.sort(null);
    List<Enc> out = new ArrayList<>();
    while (out.size() < n) {
      if (r.nextInt(8) == 0) {
        // s_waitcnt and s_nop do not end a run
        out.add(ScalarProperties.sopp(t, r.nextBoolean() ? Operation.S_WAITCNT : Operation.S_NOP, r.nextInt(8)));
        continue;
      }
      if (r.nextInt(5) == 0) {
        out.add(ldsRead(t, r, copiedAddress(t, r, out)));
        continue;
      }
      if (r.nextInt(6) == 0) {
        out.add(scalar(t, r));
        continue;
      }
      if (r.nextInt(12) == 0) {
        wideAdd(t, r, out);
        continue;
      }
      if (r.nextInt(6) == 0) {
        out.add(ldsWrite(t, r, copiedAddress(t, r, out)));
        continue;
      }
      if (r.nextInt(5) == 0) {
        out.add(globalLoad(t, r));
        continue;
      }
      if (r.nextInt(5) == 0) {
        out.add(globalStore(t, r));
        continue;
      }
      Operation op = ops.get(r.nextInt(ops.size()));
      Enc e = instruction(t, op, r);
      if (e != null) out.add(e);
    }
    return out;
  }

  private static Enc instruction(Target t, Operation op, Random r) {
    ValuSpec spec = ValuTable.get(op);
    Format shortForm = op.name().startsWith("V_CMP_") ? Format.VOPC : spec.w1() == 0 ? Format.VOP1 : Format.VOP2;
    boolean hasShort = Enc.has(t, shortForm, op);
    boolean hasLong = Enc.has(t, Format.VOP3, op);
    if (!hasShort && !hasLong) return null;
    boolean vop3 = !hasShort || (hasLong && r.nextBoolean());
    FusibleOp f = FusibleOp.of(op);
    Enc e = Enc.of(t, vop3 ? Format.VOP3 : shortForm, op);
    e.src0(source(r, spec.w0(), true, !vop3));
    if (spec.w1() != 0) e.src1(vop3 ? source(r, spec.w1(), true, false) : 256 + r.nextInt(VGPRS));
    if (vop3 && f.shape().readsMask()) {
      e.src2(MASK_REGS[r.nextInt(MASK_REGS.length)]);
    } else if (vop3 && spec.w2() != 0) {
      e.src2(source(r, spec.w2(), true, false));
    }
    if (!f.shape().masksOnly()) e.vdst(spec.wd() == 64 ? 2 * r.nextInt(VGPRS / 2) : r.nextInt(VGPRS));
    // VOP3 compares name their SGPR pair in the vdst field; carries (VOP3b) have a field of their own.
    if (vop3 && f.shape().masksOnly()) e.vdst(MASK_REGS[r.nextInt(MASK_REGS.length)]);
    if (vop3 && f.shape().carries()) e.sdst(MASK_REGS[r.nextInt(MASK_REGS.length)]);
    if (e.literal == null && !vop3 && (e.bits & 0x1ff) == Sources.LITERAL) e.literal(r.nextInt());
    return e;
  }

  /**
   * A 64-bit add as compilers write it: v_add_co_u32 of the low halves, v_addc_co_u32 of the high halves with its
   * carry. Into a pair among v0-v7 from any sources (now and then the high half reads the low half's new value, or
   * the carry goes elsewhere), or a small step of a global address pair that the loads then use.
   */
  private static void wideAdd(Target t, Random r, List<Enc> out) {
    boolean address = r.nextInt(3) == 0;
    int d = address ? GLOBAL_PAIRS + 2 * r.nextInt(2) : 2 * r.nextInt(VGPRS / 2);
    boolean vop3 = r.nextInt(3) == 0;
    int mask = vop3 ? MASK_REGS[r.nextInt(MASK_REGS.length)] : 106;
    int lowA = address ? 128 + 4 * r.nextInt(8) : source(r, 32, true, false);
    int lowB = address ? 256 + d : 256 + r.nextInt(VGPRS);
    int highA = address ? 128 : r.nextInt(6) == 0 ? 256 + d : source(r, 32, true, false);
    int highB = address ? 256 + d + 1 : 256 + r.nextInt(VGPRS);
    int carryIn = r.nextInt(8) == 0 ? MASK_REGS[r.nextInt(MASK_REGS.length)] : mask;
    if (vop3) {
      out.add(Enc.of(t, Format.VOP3, Operation.V_ADD_CO_U32).vdst(d).sdst(mask).src0(lowA).src1(lowB));
      // now and then the high half's carry goes elsewhere, and the low half's is a mask the run writes back
      int highMask = r.nextInt(3) == 0 ? MASK_REGS[r.nextInt(MASK_REGS.length)] : mask;
      out.add(Enc.of(t, Format.VOP3, Operation.V_ADDC_CO_U32).vdst(d + 1).sdst(highMask).src0(highA).src1(highB)
          .src2(carryIn));
    } else {
      out.add(Enc.of(t, Format.VOP2, Operation.V_ADD_CO_U32).vdst(d).src0(lowA).src1(lowB));
      out.add(Enc.of(t, Format.VOP2, Operation.V_ADDC_CO_U32).vdst(d + 1).src0(highA).src1(highB));
    }
  }

  /** Scalar ALU instructions of each family a run may defer, and some it may not (EXEC, M0, the program counter). */
  private static final Operation[] SCALARS = {
    Operation.S_ADD_U32, Operation.S_ADD_I32, Operation.S_ADDC_U32, Operation.S_MUL_I32, Operation.S_MIN_U32,
    Operation.S_AND_B32, Operation.S_OR_B64, Operation.S_XOR_B64, Operation.S_LSHR_B32, Operation.S_LSHL_B64,
    Operation.S_MOV_B32, Operation.S_MOV_B64, Operation.S_CSELECT_B32, Operation.S_BFE_U32,
    Operation.S_BCNT1_I32_B64, Operation.S_CMP_LT_I32, Operation.S_CMP_EQ_U64, Operation.S_ADDK_I32,
    Operation.S_CMPK_GT_U32, Operation.S_AND_SAVEEXEC_B64, Operation.S_GETPC_B64,
  };

  /**
   * A scalar ALU instruction on the SGPRs the steps read (s0-s15), the mask registers, now and then the global base
   * in s[30:31] or M0, or constants: most can join a run (it runs them after its lane loop), some end it.
   */
  private static Enc scalar(Target t, Random r) {
    Operation op = SCALARS[r.nextInt(SCALARS.length)];
    boolean wide = op.name().contains("64");
    if (op == Operation.S_ADDK_I32 || op == Operation.S_CMPK_GT_U32) {
      return Enc.of(t, Format.SOPK, op).sdst(scalarRegister(r, false)).simm16(r.nextInt(1 << 16));
    }
    Format f = op.name().startsWith("S_CMP_") ? Format.SOPC
        : op == Operation.S_MOV_B32 || op == Operation.S_MOV_B64 || op == Operation.S_BCNT1_I32_B64
            || op == Operation.S_AND_SAVEEXEC_B64 || op == Operation.S_GETPC_B64 ? Format.SOP1 : Format.SOP2;
    Enc e = Enc.of(t, f, op);
    int s0 = scalarSource(r, wide);
    e.ssrc0(s0);
    int s1 = 0;
    if (f != Format.SOP1) {
      s1 = scalarSource(r, wide && op != Operation.S_LSHL_B64);
      e.ssrc1(s1);
    }
    if (f != Format.SOPC) {
      boolean pair = wide || op == Operation.S_GETPC_B64;
      int d = !pair && r.nextInt(16) == 0 ? Wave.M0 : scalarRegister(r, pair);
      e.sdst(op == Operation.S_BCNT1_I32_B64 ? scalarRegister(r, false) : d);
    }
    if (s0 == Sources.LITERAL || s1 == Sources.LITERAL) e.literal(r.nextInt());
    return e;
  }

  private static int scalarSource(Random r, boolean wide) {
    int k = r.nextInt(8);
    if (k < 2) return 128 + r.nextInt(65);
    if (k < 3 && !wide) return Sources.LITERAL;
    return scalarRegister(r, wide);
  }

  /** s0-s15 mostly, else a mask register, or (rarely) the global base in s[30:31]; even for a pair. */
  private static int scalarRegister(Random r, boolean pair) {
    int k = r.nextInt(16);
    if (k == 0) return GLOBAL_BASE;
    if (k < 5) return MASK_REGS[r.nextInt(MASK_REGS.length)] + (pair ? 0 : r.nextInt(2));
    return pair ? 2 * r.nextInt(8) : r.nextInt(16);
  }

  /**
   * A quarter of the time, a v_mov_b32 of one of the LDS addresses in v8-v11 into v6 or v7 (added to {@code out}),
   * for the LDS access that follows: an address the run computes, checked in the loop rather than before it.
   * Returns that register, else -1.
   */
  private static int copiedAddress(Target t, Random r, List<Enc> out) {
    if (r.nextInt(4) != 0) return -1;
    int copy = 6 + r.nextInt(2);
    out.add(Enc.of(t, Format.VOP1, Operation.V_MOV_B32).vdst(copy).src0(256 + ADDRESS_REGS + r.nextInt(4)));
    return copy;
  }

  /**
   * An LDS write: dwords mostly (a 16-bit or a two-address write, which do not fuse, now and then), its address
   * {@code copy} when not -1, else mostly from v8-v11 (now and then from v0-v7, which mostly faults), its data
   * among v0-v5.
   */
  private static Enc ldsWrite(Target t, Random r, int copy) {
    Operation op = LDS_WRITES[r.nextInt(LDS_WRITES.length)];
    String n = op.name();
    int dwords = n.contains("B128") ? 4 : n.contains("B96") ? 3 : n.contains("B64") ? 2 : 1;
    int addr = copy >= 0 ? copy : r.nextInt(12) == 0 ? r.nextInt(VGPRS) : ADDRESS_REGS + r.nextInt(4);
    int data = r.nextInt(6 - dwords + 1);
    if (n.startsWith("DS_WRITE2")) return Enc.of(t, Format.DS, op).ds(addr, data, data + 1, r.nextInt(16), r.nextInt(16));
    return Enc.of(t, Format.DS, op).ds(addr, data, 0, 0, 0).dsOffset(r.nextInt(8) == 0 ? r.nextInt(256)
        : 4 * r.nextInt(32));
  }

  /** A dword LDS read, its address {@code copy} or mostly from v8-v11, its destination among v0-v7. */
  private static Enc ldsRead(Target t, Random r, int copy) {
    Operation op = LDS_READS[r.nextInt(LDS_READS.length)];
    String n = op.name();
    int dwords = n.contains("B128") ? 4 : n.contains("B96") ? 3 : n.contains("B64") ? 2 : 1;
    int registers = n.startsWith("DS_READ2") ? 2 * dwords : dwords;
    int addr = copy >= 0 ? copy : r.nextInt(6) == 0 ? r.nextInt(VGPRS) : ADDRESS_REGS + r.nextInt(4);
    int vdst = r.nextInt(VGPRS - registers + 1);
    Enc e = Enc.of(t, Format.DS, op).vdst(vdst);
    if (n.startsWith("DS_READ2")) {
      boolean st64 = n.contains("ST64");
      return e.ds(addr, 0, 0, r.nextInt(st64 ? 2 : 16), r.nextInt(st64 ? 2 : 16));
    }
    return e.ds(addr, 0, 0, 0, 0).dsOffset(r.nextInt(8) == 0 ? r.nextInt(256) : 4 * r.nextInt(32));
  }

  /**
   * A global load, mostly of dwords (a byte load, which does not fuse, now and then): its address from v[12:13] or
   * v[14:15], or from v16 or v17 and the base in s[30:31], now and then from v0-v7 (which mostly faults) or from a
   * mask register as the base (which a run cannot read as a scalar once it wrote it); its destination among
   * v0-v7, its offset mostly dword-aligned.
   */
  private static Enc globalLoad(Target t, Random r) {
    Operation op = GLOBAL_LOADS[r.nextInt(GLOBAL_LOADS.length)];
    String n = op.name();
    int dwords = n.endsWith("X4") ? 4 : n.endsWith("X3") ? 3 : n.endsWith("X2") ? 2 : 1;
    int vdst = r.nextInt(VGPRS - dwords + 1);
    int offset = r.nextInt(4) == 0 ? 0 : r.nextInt(10) == 0 ? r.nextInt(64) - 32 : 4 * (r.nextInt(64) - 32);
    int k = r.nextInt(24);
    int addr;
    int saddr;
    if (k < 11) {
      addr = GLOBAL_PAIRS + 2 * r.nextInt(2);
      saddr = 0x7f;
    } else if (k < 22) {
      addr = GLOBAL_OFFSETS + r.nextInt(2);
      saddr = GLOBAL_BASE;
    } else if (k < 23) {
      addr = 2 * r.nextInt(VGPRS / 2);
      saddr = 0x7f;
    } else {
      addr = GLOBAL_OFFSETS + r.nextInt(2);
      saddr = MASK_REGS[1 + r.nextInt(MASK_REGS.length - 1)];
    }
    return Enc.of(t, Format.GLOBAL, op).vdst(vdst).flat(addr, 0, saddr, offset);
  }

  /**
   * A global store, mostly of dwords (a short store, which does not fuse, now and then), addressed as {@link
   * #globalLoad} addresses, its data among v0-v7.
   */
  private static Enc globalStore(Target t, Random r) {
    Operation op = GLOBAL_STORES[r.nextInt(GLOBAL_STORES.length)];
    String n = op.name();
    int dwords = n.endsWith("X4") ? 4 : n.endsWith("X3") ? 3 : n.endsWith("X2") ? 2 : 1;
    Enc load = globalLoad(t, r); // for its address fields
    long bits = load.bits;
    int addr = (int) (bits >>> 32) & 0xff;
    int saddr = (int) (bits >>> 48) & 0x7f;
    int offset = (int) bits & 0x1fff;
    return Enc.of(t, Format.GLOBAL, op).flat(addr, r.nextInt(VGPRS - dwords + 1), saddr, offset);
  }

  /** A source: mostly VGPRs, sometimes the mask registers (as scalars), SGPRs or inline constants. */
  private static int source(Random r, int width, boolean scalarOk, boolean literalOk) {
    int k = r.nextInt(10);
    if (width == 64) {
      if (k < 7) return 256 + 2 * r.nextInt(VGPRS / 2);
      if (k < 9) return MASK_REGS[r.nextInt(MASK_REGS.length)];
      return 128 + r.nextInt(65);
    }
    if (k < 6) return 256 + r.nextInt(VGPRS);
    if (k < 7) return MASK_REGS[r.nextInt(MASK_REGS.length)] + r.nextInt(2);
    if (k < 8) return 2 * r.nextInt(8);
    if (k < 9 || !literalOk) return 128 + r.nextInt(81);
    return Sources.LITERAL;
  }

  /** The op a {@link BranchTail} joins with its branch; any other op itself. */
  static Op withoutBranch(Op op) {
    return op instanceof BranchTail ? ((BranchTail) op).head() : op;
  }
}
