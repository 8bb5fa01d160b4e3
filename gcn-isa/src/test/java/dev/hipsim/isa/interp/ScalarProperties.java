package dev.hipsim.isa.interp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.exec.Wave;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The scalar ALU (SOP2, SOP1, SOPC, SOPK) against models of the guide's descriptions, result and SCC, with
 * SGPR, constant and literal sources; EXEC-manipulating forms; and the scalar control flow (branches, calls,
 * the fork/join stack, s_setvskip) run as small programs.
 */
class ScalarProperties {
  /** A model: result (64 bits for B64 forms) and SCC (-1: unchanged). */
  record Out(long value, int scc) {}

  interface Model {
    Out apply(long a, long b, int scc, long exec);
  }

  record Case(Operation op, Format format, boolean wide0, boolean wide1, boolean wideDst, Model model) {
    @Override
    public String toString() {
      return op.name();
    }
  }

  static long u(long x) {
    return x & 0xffff_ffffL;
  }

  static int b(boolean x) {
    return x ? 1 : 0;
  }

  static Out nz(long r, boolean wide) {
    long v = wide ? r : u(r);
    return new Out(v, b(v != 0));
  }

  static final List<Case> CASES = new ArrayList<>();

  static void sop2(Operation op, Model m) {
    CASES.add(new Case(op, Format.SOP2, false, false, false, m));
  }

  static void sop2w(Operation op, boolean w1, Model m) {
    CASES.add(new Case(op, Format.SOP2, true, w1, true, m));
  }

  static void sop1(Operation op, boolean w0, boolean wd, Model m) {
    CASES.add(new Case(op, Format.SOP1, w0, false, wd, m));
  }

  static void sopc(Operation op, boolean wide, Model m) {
    CASES.add(new Case(op, Format.SOPC, wide, wide, false, m));
  }

  static int bfeWidth(long b) {
    return (int) (b >>> 16) & 0x7f;
  }

  static {
    sop2(Operation.S_ADD_U32, (a, b, s, e) -> new Out(u(a + b), b(u(a) + u(b) > 0xffff_ffffL)));
    sop2(Operation.S_SUB_U32, (a, b, s, e) -> new Out(u(a - b), b(u(b) > u(a))));
    sop2(Operation.S_ADDC_U32, (a, b, s, e) -> new Out(u(a + b + s), b(u(a) + u(b) + s > 0xffff_ffffL)));
    sop2(Operation.S_SUBB_U32, (a, b, s, e) -> new Out(u(a - b - s), b(u(b) + s > u(a))));
    sop2(Operation.S_ADD_I32, (a, b, s, e) -> {
      long r = (long) (int) a + (int) b;
      return new Out(u(r), b(r != (int) r));
    });
    sop2(Operation.S_SUB_I32, (a, b, s, e) -> {
      long r = (long) (int) a - (int) b;
      return new Out(u(r), b(r != (int) r));
    });
    sop2(Operation.S_MIN_I32, (a, b, s, e) -> new Out(u(Math.min((int) a, (int) b)), b((int) a < (int) b)));
    sop2(Operation.S_MAX_I32, (a, b, s, e) -> new Out(u(Math.max((int) a, (int) b)), b((int) a > (int) b)));
    sop2(Operation.S_MIN_U32, (a, b, s, e) -> new Out(Math.min(u(a), u(b)), b(u(a) < u(b))));
    sop2(Operation.S_MAX_U32, (a, b, s, e) -> new Out(Math.max(u(a), u(b)), b(u(a) > u(b))));
    sop2(Operation.S_CSELECT_B32, (a, b, s, e) -> new Out(u(s != 0 ? a : b), -1));
    sop2(Operation.S_AND_B32, (a, b, s, e) -> nz(a & b, false));
    sop2(Operation.S_OR_B32, (a, b, s, e) -> nz(a | b, false));
    sop2(Operation.S_XOR_B32, (a, b, s, e) -> nz(a ^ b, false));
    sop2(Operation.S_ANDN2_B32, (a, b, s, e) -> nz(a & ~b, false));
    sop2(Operation.S_ORN2_B32, (a, b, s, e) -> nz(a | ~b, false));
    sop2(Operation.S_NAND_B32, (a, b, s, e) -> nz(~(a & b), false));
    sop2(Operation.S_NOR_B32, (a, b, s, e) -> nz(~(a | b), false));
    sop2(Operation.S_XNOR_B32, (a, b, s, e) -> nz(~(a ^ b), false));
    sop2(Operation.S_LSHL_B32, (a, b, s, e) -> nz((int) a << (b & 31), false));
    sop2(Operation.S_LSHR_B32, (a, b, s, e) -> nz((int) a >>> (b & 31), false));
    sop2(Operation.S_ASHR_I32, (a, b, s, e) -> nz((int) a >> (b & 31), false));
    sop2(Operation.S_BFM_B32, (a, b, s, e) -> new Out(u(((1 << (a & 31)) - 1) << (b & 31)), -1));
    sop2(Operation.S_MUL_I32, (a, b, s, e) -> new Out(u((int) a * (int) b), -1));
    sop2(Operation.S_MUL_HI_U32, (a, b, s, e) -> new Out((u(a) * u(b)) >>> 32, -1));
    sop2(Operation.S_MUL_HI_I32, (a, b, s, e) -> new Out(u(((long) (int) a * (int) b) >> 32), -1));
    sop2(Operation.S_BFE_U32, (a, b, s, e) -> {
      int w = bfeWidth(b);
      long r = w == 0 ? 0 : (u(a) >>> (b & 31)) & (w >= 32 ? 0xffff_ffffL : (1L << w) - 1);
      return nz(r, false);
    });
    sop2(Operation.S_BFE_I32, (a, b, s, e) -> {
      int w = bfeWidth(b);
      int x = (int) a >> (b & 31);
      return nz(w == 0 ? 0 : w >= 32 ? x : x << (32 - w) >> (32 - w), false);
    });
    sop2(Operation.S_ABSDIFF_I32, (a, b, s, e) -> nz(Math.abs((int) a - (int) b), false));
    sop2(Operation.S_LSHL1_ADD_U32, (a, b, s, e) -> new Out(u((u(a) << 1) + u(b)), b((u(a) << 1) + u(b) >>> 32 != 0)));
    sop2(Operation.S_LSHL4_ADD_U32, (a, b, s, e) -> new Out(u((u(a) << 4) + u(b)), b((u(a) << 4) + u(b) >>> 32 != 0)));
    sop2(Operation.S_PACK_LL_B32_B16, (a, b, s, e) -> new Out(u(a & 0xffff | (b & 0xffff) << 16), -1));
    sop2(Operation.S_PACK_LH_B32_B16, (a, b, s, e) -> new Out(u(a & 0xffff | b & 0xffff0000L), -1));
    sop2(Operation.S_PACK_HH_B32_B16, (a, b, s, e) -> new Out(u(a >>> 16 & 0xffff | b & 0xffff0000L), -1));
    sop2w(Operation.S_AND_B64, true, (a, b, s, e) -> nz(a & b, true));
    sop2w(Operation.S_ORN2_B64, true, (a, b, s, e) -> nz(a | ~b, true));
    sop2w(Operation.S_XNOR_B64, true, (a, b, s, e) -> nz(~(a ^ b), true));
    sop2w(Operation.S_CSELECT_B64, true, (a, b, s, e) -> new Out(s != 0 ? a : b, -1));
    sop2w(Operation.S_LSHL_B64, false, (a, b, s, e) -> nz(a << (b & 63), true));
    sop2w(Operation.S_LSHR_B64, false, (a, b, s, e) -> nz(a >>> (b & 63), true));
    sop2w(Operation.S_ASHR_I64, false, (a, b, s, e) -> nz(a >> (b & 63), true));
    sop2w(Operation.S_BFE_U64, false, (a, b, s, e) -> {
      int w = bfeWidth(b);
      long x = a >>> (b & 63);
      return nz(w == 0 ? 0 : w >= 64 ? x : x & ((1L << w) - 1), true);
    });
    sop2w(Operation.S_BFE_I64, false, (a, b, s, e) -> {
      int w = bfeWidth(b);
      long x = a >> (b & 63);
      return nz(w == 0 ? 0 : w >= 64 ? x : x << (64 - w) >> (64 - w), true);
    });
    sop1(Operation.S_MOV_B32, false, false, (a, b, s, e) -> new Out(u(a), -1));
    sop1(Operation.S_MOV_B64, true, true, (a, b, s, e) -> new Out(a, -1));
    sop1(Operation.S_NOT_B32, false, false, (a, b, s, e) -> nz(~a, false));
    sop1(Operation.S_NOT_B64, true, true, (a, b, s, e) -> nz(~a, true));
    sop1(Operation.S_BREV_B32, false, false, (a, b, s, e) -> new Out(u(Integer.reverse((int) a)), -1));
    sop1(Operation.S_BCNT1_I32_B64, true, false, (a, b, s, e) -> nz(Long.bitCount(a), false));
    sop1(Operation.S_BCNT0_I32_B32, false, false, (a, b, s, e) -> nz(32 - Integer.bitCount((int) a), false));
    sop1(Operation.S_FF1_I32_B64, true, false, (a, b, s, e) -> new Out(u(a == 0 ? -1 : Long.numberOfTrailingZeros(a)),
        -1));
    sop1(Operation.S_FLBIT_I32_B32, false, false,
        (a, b, s, e) -> new Out(u((int) a == 0 ? -1 : Integer.numberOfLeadingZeros((int) a)), -1));
    sop1(Operation.S_FLBIT_I32, false, false, (a, b, s, e) -> {
      int x = (int) a;
      return new Out(u(x == 0 || x == -1 ? -1 : Integer.numberOfLeadingZeros(x < 0 ? ~x : x)), -1);
    });
    sop1(Operation.S_SEXT_I32_I8, false, false, (a, b, s, e) -> new Out(u((byte) a), -1));
    sop1(Operation.S_SEXT_I32_I16, false, false, (a, b, s, e) -> new Out(u((short) a), -1));
    sop1(Operation.S_ABS_I32, false, false, (a, b, s, e) -> nz(Math.abs((int) a), false));
    sop1(Operation.S_WQM_B64, true, true, (a, b, s, e) -> {
      long r = 0;
      for (int q = 0; q < 16; q++) if ((a >>> 4 * q & 15) != 0) r |= 15L << 4 * q;
      return nz(r, true);
    });
    sop1(Operation.S_QUADMASK_B64, true, true, (a, b, s, e) -> {
      long r = 0;
      for (int q = 0; q < 16; q++) if ((a >>> 4 * q & 15) != 0) r |= 1L << q;
      return nz(r, true);
    });
    sop1(Operation.S_BITREPLICATE_B64_B32, false, true, (a, b, s, e) -> {
      long r = 0;
      for (int i = 0; i < 32; i++) if ((a >>> i & 1) != 0) r |= 3L << 2 * i;
      return new Out(r, -1);
    });
    sopc(Operation.S_CMP_LT_I32, false, (a, b, s, e) -> new Out(0, b((int) a < (int) b)));
    sopc(Operation.S_CMP_GE_U32, false, (a, b, s, e) -> new Out(0, b(u(a) >= u(b))));
    sopc(Operation.S_CMP_LG_U32, false, (a, b, s, e) -> new Out(0, b(u(a) != u(b))));
    sopc(Operation.S_CMP_EQ_U64, true, (a, b, s, e) -> new Out(0, b(a == b)));
    sopc(Operation.S_CMP_LG_U64, true, (a, b, s, e) -> new Out(0, b(a != b)));
    CASES.add(new Case(Operation.S_BITCMP1_B64, Format.SOPC, true, false, false,
        (a, b, s, e) -> new Out(0, (int) (a >>> (b & 63) & 1))));
    CASES.add(new Case(Operation.S_BITCMP0_B32, Format.SOPC, false, false, false,
        (a, b, s, e) -> new Out(0, b((a >>> (b & 31) & 1) == 0))));
  }

  @Provide
  Arbitrary<Case> cases() {
    return Arbitraries.of(CASES);
  }

  @Provide
  Arbitrary<Target> targets() {
    return Arbitraries.of(Target.GFX90A, Target.GFX942);
  }

  /** A scalar source: an SGPR (pair) s0-s30, an inline constant, or the literal. */
  static int source(Random r, boolean literalOk) {
    int k = r.nextInt(8);
    if (k < 5) return 2 * r.nextInt(16);
    if (k < 6) return 128 + r.nextInt(81);
    if (k < 7 || !literalOk) return 240 + r.nextInt(9);
    return Sources.LITERAL;
  }

  static long value(Machine m, int enc, int literal, boolean wide) {
    if (wide) return Sources.value64(m, enc, literal, 0, Sources.Type.I64);
    return Sources.value(m, enc, literal, 0, Sources.Type.I32) & 0xffff_ffffL;
  }

  @Property(tries = 1200)
  void scalarOperationsAndScc(@ForAll("cases") Case c, @ForAll("targets") Target t, @ForAll long seed)
      throws Exception {
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 1);
    for (int i = 0; i < 40; i++) m.w.s[i] = Vals.i32(r);
    int s0 = source(r, true);
    int s1 = source(r, s0 != Sources.LITERAL);
    int sdst = 2 * (20 + r.nextInt(10));
    int literal = Vals.i32(r);
    Enc e = Enc.of(t, c.format(), c.op());
    e.ssrc0(s0);
    if (c.format() != Format.SOP1) e.ssrc1(s1);
    if (c.format() != Format.SOPC) e.sdst(sdst);
    if (s0 == Sources.LITERAL || (c.format() != Format.SOP1 && s1 == Sources.LITERAL)) e.literal(literal);
    m.snapshot();
    int scc = m.w.scc;
    m.run(e);
    long a = value(m, s0, literal, c.wide0());
    long bb = value(m, s1, literal, c.wide1());
    Out out = c.model().apply(a, bb, scc, m.w.exec());
    int[] s = m.savedS.clone();
    if (c.format() != Format.SOPC) {
      s[sdst] = (int) out.value();
      if (c.wideDst()) s[sdst + 1] = (int) (out.value() >>> 32);
    }
    m.assertState(m.savedV, s, m.text(e));
    assertThat(m.w.scc).as("SCC of %s", m.text(e)).isEqualTo(out.scc() < 0 ? scc : out.scc());
  }

  @Property(tries = 300)
  void saveexecForms(@ForAll("targets") Target t, @ForAll long seed) throws Exception {
    Operation[] ops = {Operation.S_AND_SAVEEXEC_B64, Operation.S_OR_SAVEEXEC_B64, Operation.S_XOR_SAVEEXEC_B64,
        Operation.S_ANDN2_SAVEEXEC_B64, Operation.S_ORN2_SAVEEXEC_B64, Operation.S_NAND_SAVEEXEC_B64,
        Operation.S_NOR_SAVEEXEC_B64, Operation.S_XNOR_SAVEEXEC_B64, Operation.S_ANDN1_SAVEEXEC_B64,
        Operation.S_ORN1_SAVEEXEC_B64, Operation.S_ANDN1_WREXEC_B64, Operation.S_ANDN2_WREXEC_B64};
    Random r = new Random(seed);
    Operation op = ops[r.nextInt(ops.length)];
    Machine m = new Machine(t);
    m.randomize(r, 1);
    long exec = Vals.exec(r);
    m.w.setExec(exec);
    int src = 2 * r.nextInt(10);
    int sdst = 2 * (20 + r.nextInt(10));
    Enc e = Enc.of(t, Format.SOP1, op).ssrc0(src).sdst(sdst);
    m.snapshot();
    m.run(e);
    long s = (m.savedS[src] & 0xffff_ffffL) | (long) m.savedS[src + 1] << 32;
    long result = switch (op) {
      case S_AND_SAVEEXEC_B64 -> s & exec;
      case S_OR_SAVEEXEC_B64 -> s | exec;
      case S_XOR_SAVEEXEC_B64 -> s ^ exec;
      case S_ANDN2_SAVEEXEC_B64 -> s & ~exec;
      case S_ORN2_SAVEEXEC_B64 -> s | ~exec;
      case S_NAND_SAVEEXEC_B64 -> ~(s & exec);
      case S_NOR_SAVEEXEC_B64 -> ~(s | exec);
      case S_XNOR_SAVEEXEC_B64 -> ~(s ^ exec);
      case S_ANDN1_SAVEEXEC_B64, S_ANDN1_WREXEC_B64 -> ~s & exec;
      case S_ORN1_SAVEEXEC_B64 -> ~s | exec;
      default -> s & ~exec; // S_ANDN2_WREXEC_B64
    };
    boolean wrexec = op.name().contains("WREXEC");
    int[] expect = m.savedS.clone();
    // saveexec: D = old EXEC, EXEC = result; wrexec: EXEC = D = result. SCC = EXEC != 0 for both.
    long d = wrexec ? result : exec;
    expect[sdst] = (int) d;
    expect[sdst + 1] = (int) (d >>> 32);
    expect[Wave.EXEC_LO] = (int) result;
    expect[Wave.EXEC_HI] = (int) (result >>> 32);
    m.assertState(m.savedV, expect, m.text(e));
    assertThat(m.w.scc).isEqualTo(result != 0 ? 1 : 0);
  }

  /** Runs words laid out at consecutive addresses until s_endpgm, on a device that holds them. */
  static Machine program(Target t, Enc... code) throws Exception {
    Machine m = new Machine(t);
    long at = Machine.MEM;
    for (Enc e : code) {
      byte[] b = e.bytes();
      m.memory.write(at, b, 0, b.length);
      at += b.length;
    }
    m.w.pc = Machine.MEM;
    m.w.setExec(-1L);
    CodeCache cache = new CodeCache(t);
    Interpreter it = new Interpreter(cache, m.memory, m.launch);
    it.run(m.w, 10_000);
    assertThat(m.w.status).isEqualTo(dev.hipsim.isa.exec.WaveStatus.DONE);
    return m;
  }

  static Enc sopp(Target t, Operation op, int imm) {
    return Enc.of(t, Format.SOPP, op).simm16(imm);
  }

  static Enc movk(Target t, int sdst, int imm) {
    return Enc.of(t, Format.SOPK, Operation.S_MOVK_I32).sdst(sdst).simm16(imm);
  }

  @Example
  void branchesCallsAndReturns() throws Exception {
    Target t = Target.GFX90A;
    // s0 = 5; loop: s0 -= 1 until 0, counting in s1; then a call to a subroutine that sets s2 and returns.
    Machine m = program(t,
        movk(t, 0, 5),                                                         // 0x00
        movk(t, 1, 0),                                                         // 0x04
        Enc.of(t, Format.SOP2, Operation.S_SUB_U32).sdst(0).ssrc0(0).ssrc1(129), // 0x08 loop:
        Enc.of(t, Format.SOPK, Operation.S_ADDK_I32).sdst(1).simm16(1),        // 0x0c
        Enc.of(t, Format.SOPC, Operation.S_CMP_LG_U32).ssrc0(0).ssrc1(128),    // 0x10
        sopp(t, Operation.S_CBRANCH_SCC1, -4),                                 // 0x14 -> 0x08
        Enc.of(t, Format.SOP1, Operation.S_GETPC_B64).sdst(10),                // 0x18 s[10:11] = 0x1c
        Enc.of(t, Format.SOP2, Operation.S_ADD_U32).sdst(10).ssrc0(10).ssrc1(128 + 16), // 0x1c
        Enc.of(t, Format.SOP1, Operation.S_SWAPPC_B64).sdst(12).ssrc0(10),     // 0x20 call 0x2c, s[12:13] = 0x24
        sopp(t, Operation.S_ENDPGM, 0),                                        // 0x24
        sopp(t, Operation.S_NOP, 0),                                           // 0x28
        movk(t, 2, 77),                                                        // 0x2c subroutine
        Enc.of(t, Format.SOP1, Operation.S_SETPC_B64).ssrc0(12));              // 0x30 return
    assertThat(m.w.s[0]).isZero();
    assertThat(m.w.s[1]).isEqualTo(5);
    assertThat(m.w.s[2]).isEqualTo(77);
  }

  @Example
  void forkAndJoinRunBothSides() throws Exception {
    for (Target t : new Target[] {Target.GFX90A, Target.GFX942}) {
      // s[20:21] = lanes 0-3: the passing side (fewer lanes) runs first, the join then runs the failing side.
      Machine m = program(t,
          Enc.of(t, Format.SOP1, Operation.S_MOV_B64).sdst(20).ssrc0(128 + 15),
          Enc.of(t, Format.SOP1, Operation.S_MOV_B32).sdst(30).ssrc0(128),        // saved CSP (0)
          Enc.of(t, Format.SOPK, Operation.S_CBRANCH_I_FORK).sdst(20).simm16(3),  // passing lanes go to +16
          Enc.of(t, Format.VOP1, Operation.V_MOV_B32).vdst(1).src0(128 + 1),      // fail side: v1 = 1
          Enc.of(t, Format.SOP1, Operation.S_CBRANCH_JOIN).ssrc0(30),
          sopp(t, Operation.S_ENDPGM, 0),
          Enc.of(t, Format.VOP1, Operation.V_MOV_B32).vdst(1).src0(128 + 2),      // pass side: v1 = 2
          Enc.of(t, Format.SOP1, Operation.S_CBRANCH_JOIN).ssrc0(30),
          sopp(t, Operation.S_ENDPGM, 0));
      for (int l = 0; l < 64; l++) assertThat(m.v(1, l)).as("lane %d", l).isEqualTo(l < 4 ? 2 : 1);
      // The join does not restore EXEC (compilers save it around the fork): the side run last keeps its mask.
      assertThat(m.w.exec()).isEqualTo(~0xfL);
    }
  }

  @Example
  void vskipSkipsVectorInstructionsOnly() throws Exception {
    Target t = Target.GFX942;
    Machine m = program(t,
        Enc.of(t, Format.VOP1, Operation.V_MOV_B32).vdst(1).src0(128 + 1),
        Enc.of(t, Format.SOPC, Operation.S_SETVSKIP).ssrc0(128 + 1).ssrc1(128),
        Enc.of(t, Format.VOP1, Operation.V_MOV_B32).vdst(1).src0(128 + 9),       // skipped
        movk(t, 3, 42),                                                          // runs
        Enc.of(t, Format.SOPC, Operation.S_SETVSKIP).ssrc0(128).ssrc1(128),
        Enc.of(t, Format.VOP1, Operation.V_MOV_B32).vdst(2).src0(128 + 5),
        sopp(t, Operation.S_ENDPGM, 0));
    assertThat(m.v(1, 0)).isEqualTo(1);
    assertThat(m.v(2, 0)).isEqualTo(5);
    assertThat(m.w.s[3]).isEqualTo(42);
  }
}
