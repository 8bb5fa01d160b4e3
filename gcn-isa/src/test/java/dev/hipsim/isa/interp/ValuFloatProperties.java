package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.fp.Dyadic;
import dev.hipsim.isa.fp.RefFloat;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * IEEE VALU instructions through the interpreter, bit-exact against {@link RefFloat} (exact dyadic arithmetic)
 * in random MODEs (rounding, denormals, IEEE, DX10_CLAMP): f16/f32/f64 add, sub, mul, fma (and the accumulating
 * forms), conversions, with VOP3 abs/neg, clamp, op_sel and the 16-bit destination rules; OMOD on values whose
 * scaled result is exact.
 */
class ValuFloatProperties {
  static final int F16 = 0;
  static final int F32 = 2;
  static final int F64 = 3;

  /** An operation: source and result formats, arity, whether D is also S2, and its model on modified inputs. */
  record Case(Operation op, int in, int out, int arity, boolean accumulate, Model model) {
    @Override
    public String toString() {
      return op.name();
    }
  }

  interface Model {
    long apply(long a, long b, long c, int mode);
  }

  static long neg(int f, long x) {
    return x ^ RefFloat.sign(f);
  }

  static final List<Case> CASES = new ArrayList<>();

  static void add(Operation op, int f, int arity, boolean acc, Model m) {
    CASES.add(new Case(op, f, f, arity, acc, m));
  }

  static {
    for (int f : new int[] {F16, F32, F64}) {
      Operation addOp = f == F16 ? Operation.V_ADD_F16 : f == F32 ? Operation.V_ADD_F32 : Operation.V_ADD_F64;
      Operation mulOp = f == F16 ? Operation.V_MUL_F16 : f == F32 ? Operation.V_MUL_F32 : Operation.V_MUL_F64;
      Operation fmaOp = f == F16 ? Operation.V_FMA_F16 : f == F32 ? Operation.V_FMA_F32 : Operation.V_FMA_F64;
      add(addOp, f, 2, false, (a, b, c, m) -> RefFloat.add(f, a, b, m));
      add(mulOp, f, 2, false, (a, b, c, m) -> RefFloat.mul(f, a, b, m));
      add(fmaOp, f, 3, false, (a, b, c, m) -> RefFloat.fma(f, a, b, c, m));
    }
    add(Operation.V_SUB_F32, F32, 2, false, (a, b, c, m) -> RefFloat.add(F32, a, neg(F32, b), m));
    add(Operation.V_SUBREV_F32, F32, 2, false, (a, b, c, m) -> RefFloat.add(F32, b, neg(F32, a), m));
    add(Operation.V_SUB_F16, F16, 2, false, (a, b, c, m) -> RefFloat.add(F16, a, neg(F16, b), m));
    add(Operation.V_SUBREV_F16, F16, 2, false, (a, b, c, m) -> RefFloat.add(F16, b, neg(F16, a), m));
    add(Operation.V_FMA_LEGACY_F16, F16, 3, false, (a, b, c, m) -> RefFloat.fma(F16, a, b, c, m));
    add(Operation.V_FMAC_F32, F32, 2, true, (a, b, c, m) -> RefFloat.fma(F32, a, b, c, m));
    add(Operation.V_FMAC_F64, F64, 2, true, (a, b, c, m) -> RefFloat.fma(F64, a, b, c, m));
    CASES.add(new Case(Operation.V_CVT_F32_F16, F16, F32, 1, false, (a, b, c, m) -> RefFloat.convert(F16, a, F32, m)));
    CASES.add(new Case(Operation.V_CVT_F16_F32, F32, F16, 1, false, (a, b, c, m) -> RefFloat.convert(F32, a, F16, m)));
    CASES.add(new Case(Operation.V_CVT_F64_F32, F32, F64, 1, false, (a, b, c, m) -> RefFloat.convert(F32, a, F64, m)));
    CASES.add(new Case(Operation.V_CVT_F32_F64, F64, F32, 1, false, (a, b, c, m) -> RefFloat.convert(F64, a, F32, m)));
  }

  @Provide
  Arbitrary<Case> cases() {
    return Arbitraries.of(CASES);
  }

  @Provide
  Arbitrary<Target> targets() {
    return Arbitraries.of(Target.GFX90A, Target.GFX942);
  }

  static int regs(int f) {
    return f == F64 ? 2 : 1;
  }

  /** Raw bits of source i (its low half, or high half with op_sel, for f16). */
  static long operand(Machine m, int enc, int literal, int lane, int f, boolean high) {
    if (f == F64) return Sources.value64(m, enc, literal, lane, Sources.Type.F64);
    if (f == F32) return Sources.value(m, enc, literal, lane, Sources.Type.F32) & 0xffff_ffffL;
    if (high && enc >= 256) return m.before(enc - 256, lane) >>> 16;
    if (high && enc < 128) return m.savedS[enc] >>> 16;
    // The high half of a constant: GFX9 does not replicate 16-bit constants, so a float constant has 0 there and
    // an integer constant its 32-bit sign extension.
    if (high) return enc == Sources.LITERAL ? literal >>> 16 : enc >= 193 && enc <= 208 ? 0xffff : 0;
    return Sources.value(m, enc, literal, lane, Sources.Type.F16);
  }

  /** CLAMP from the guide: the result limited to [+0, 1.0]; a NaN gives +0 when DX10_CLAMP is set. */
  static long clamp(int f, long x, int mode) {
    if (RefFloat.isNaN(f, x)) return (mode & (1 << 8)) != 0 ? 0 : x;
    if (RefFloat.isNeg(f, x)) return 0;
    long one = (long) RefFloat.bias(f) << RefFloat.man(f);
    return x > one ? one : x;
  }

  @Property(tries = 1500)
  void floatOperationsAreBitExact(@ForAll("cases") Case c, @ForAll("targets") Target t, @ForAll long seed)
      throws Exception {
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 16);
    for (int i = 0; i < 16 * Wave.LANES; i++) {
      m.w.v[i] = c.in() == F16 ? Vals.f16x2(r) : c.in() == F32 ? Vals.f32(r) : (int) Vals.f64(r);
    }
    if (c.in() == F64) {
      for (int reg = 0; reg < 16; reg += 2) {
        for (int l = 0; l < 64; l++) m.setV64(reg, l, Vals.f64(r));
      }
    }
    for (int i = 0; i < 32; i++) m.w.s[i] = c.in() == F16 ? Vals.f16x2(r) : Vals.f32(r);
    long exec = Vals.exec(r);
    m.w.setExec(exec);
    int mode = Vals.mode(r);
    m.w.mode = mode;
    List<Format> fs = ValuHarness.formats(t, c.op());
    Format f = fs.get(r.nextInt(fs.size()));
    boolean vop3 = f == Format.VOP3;
    int wide = regs(c.in());
    int[] src = new int[c.arity()];
    int scalar = -1;
    for (int i = 0; i < c.arity(); i++) {
      int s;
      if (!vop3 && i > 0) {
        s = 256 + wide * r.nextInt(8);
      } else {
        s = Sources.random(r, scalar < 0, !vop3 && i == 0);
        if (s >= 256) s = 256 + wide * ((s - 256) / wide);
        if (s < 128) scalar = s;
      }
      src[i] = s;
    }
    int vdst = regs(c.out()) * r.nextInt(8);
    int literal = c.in() == F16 ? Vals.f16(r) : c.in() == F64 ? (int) (Vals.f64(r) >>> 32) : Vals.f32(r);
    int abs = vop3 ? r.nextInt(8) & ((1 << c.arity()) - 1) : 0;
    int negs = vop3 ? r.nextInt(8) & ((1 << c.arity()) - 1) : 0;
    boolean clamp = vop3 && r.nextInt(4) == 0;
    boolean opSelOk = vop3 && (c.op() == Operation.V_FMA_F16);
    int opSel = opSelOk ? r.nextInt(16) : 0;
    Enc e = Enc.of(t, f, c.op()).vdst(vdst);
    e.src0(src[0]);
    if (c.arity() > 1) e.src1(src[1]);
    if (c.arity() > 2) e.src2(src[2]);
    if (src[0] == Sources.LITERAL) e.literal(literal);
    if (vop3) e.abs(abs).neg(negs).clamp(clamp).opSel(opSel);
    m.snapshot();
    m.run(e);
    int[] v = m.savedV.clone();
    for (int l = 0; l < 64; l++) {
      if ((exec >>> l & 1) == 0) continue;
      long[] x = new long[3];
      for (int i = 0; i < c.arity(); i++) {
        long raw = operand(m, src[i], literal, l, c.in(), (opSel >>> i & 1) != 0);
        if ((abs >>> i & 1) != 0) raw &= ~RefFloat.sign(c.in());
        if ((negs >>> i & 1) != 0) raw ^= RefFloat.sign(c.in());
        x[i] = raw;
      }
      if (c.accumulate()) {
        x[2] = c.out() == F64 ? m.before64(vdst, l) : m.before(vdst, l) & 0xffff_ffffL;
      }
      long y = c.model().apply(x[0], x[1], x[2], mode);
      if (clamp) y = clamp(c.out(), y, mode);
      if (c.out() == F64) {
        v[vdst * 64 + l] = (int) y;
        v[(vdst + 1) * 64 + l] = (int) (y >>> 32);
      } else if (c.out() == F16) {
        int old = m.before(vdst, l);
        boolean preserve = c.op() == Operation.V_FMA_F16 && vop3;
        v[vdst * 64 + l] = (opSel & 8) != 0 ? (old & 0xffff) | (int) y << 16
            : preserve ? (old & 0xffff0000) | (int) y : (int) y;
      } else {
        v[vdst * 64 + l] = (int) y;
      }
    }
    m.assertState(v, m.savedS, m.text(e) + String.format(" mode 0x%x", mode));
  }

  /**
   * OMOD (x2, x4, /2) where the guide defines it exactly: MODE.IEEE clear and output denormals flushed (otherwise
   * it is ignored), on products whose scaled value stays normal.
   */
  @Property(tries = 300)
  void outputModifierScalesResults(@ForAll("targets") Target t, @ForAll long seed) throws Exception {
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 8);
    for (int i = 0; i < 8 * Wave.LANES; i++) {
      m.w.v[i] = Float.floatToRawIntBits((r.nextFloat() - 0.5f) * (float) Math.scalb(1.0, r.nextInt(40) - 20));
    }
    int omod = 1 + r.nextInt(3);
    boolean ieee = r.nextBoolean();
    int denorm = r.nextInt(4);
    int mode = (denorm << 4) | (denorm << 6) | (ieee ? 1 << 9 : 0) | (1 << 8);
    m.w.mode = mode;
    Enc e = Enc.of(t, Format.VOP3, Operation.V_MUL_F32).vdst(9).src0(256 + 1).src1(256 + 2).omod(omod);
    m.snapshot();
    m.run(e);
    boolean active = !ieee && (denorm & 2) == 0;
    for (int l = 0; l < 64; l++) {
      long p = RefFloat.mul(F32, m.before(1, l) & 0xffff_ffffL, m.before(2, l) & 0xffff_ffffL, mode);
      Dyadic scale = omod == 1 ? Dyadic.of(2.0) : omod == 2 ? Dyadic.of(4.0) : Dyadic.of(0.5);
      long want = active && !RefFloat.isNaN(F32, p) && RefFloat.value(F32, p).signum() != 0
          ? RefFloat.round(F32, RefFloat.value(F32, p).multiply(scale), 0, true, false) : p;
      if (active && RefFloat.value(F32, p).signum() == 0) want = 0;
      if ((int) want != m.v(9, l)) {
        throw new AssertionError(String.format("%s lane %d: %08x * %08x = %08x, expected %08x", m.text(e), l,
            m.before(1, l), m.before(2, l), m.v(9, l), (int) want));
      }
    }
  }

  /**
   * GFX9's 16-bit destination rules (LLVM's zeroesHigh16BitsOfDest): the VOP1/VOP2 and legacy 16-bit operations
   * zero the high half; v_mac_f16, v_madmk_f16 and v_madak_f16 keep it; op_sel VOP3 forms write the half op_sel[3]
   * names and keep the other.
   */
  @net.jqwik.api.Example
  void sixteenBitDestinationRules() throws Exception {
    for (Target t : new Target[] {Target.GFX90A, Target.GFX942}) {
      Machine m = new Machine(t);
      m.randomize(new Random(7), 8);
      for (int l = 0; l < 64; l++) {
        m.setV(1, l, 0x1234_3c00); // 1.0 in the low half
        m.setV(2, l, 0x5678_4000); // 2.0
        m.setV(3, l, 0xabcd_3800); // 0.5 (the accumulator of v_mac_f16), high half to keep
      }
      m.run(Enc.of(t, Format.VOP2, Operation.V_ADD_F16).vdst(4).src0(256 + 1).src1(256 + 2));
      m.run(Enc.of(t, Format.VOP2, Operation.V_MAC_F16).vdst(3).src0(256 + 1).src1(256 + 2));
      m.setV(5, 0, 0x9999_0000);
      m.run(Enc.of(t, Format.VOP2, Operation.V_MADAK_F16).vdst(5).src0(256 + 1).src1(256 + 2).literal(0x3c00));
      m.setV(6, 0, 0x7777_0000);
      m.run(Enc.of(t, Format.VOP3, Operation.V_FMA_F16).vdst(6).src0(256 + 1).src1(256 + 2).src2(256 + 1));
      m.setV(7, 0, 0x0000_1111);
      m.run(Enc.of(t, Format.VOP3, Operation.V_FMA_F16).vdst(7).src0(256 + 1).src1(256 + 2).src2(256 + 1)
          .opSel(8));
      m.setV(8, 0, 0x2222_0000);
      m.run(Enc.of(t, Format.VOP3, Operation.V_FMA_LEGACY_F16).vdst(8).src0(256 + 1).src1(256 + 2).src2(256 + 1));
      org.assertj.core.api.Assertions.assertThat(m.v(4, 0)).as("v_add_f16").isEqualTo(0x0000_4200);
      org.assertj.core.api.Assertions.assertThat(m.v(3, 0)).as("v_mac_f16").isEqualTo(0xabcd_4100);
      org.assertj.core.api.Assertions.assertThat(m.v(5, 0)).as("v_madak_f16").isEqualTo(0x9999_4200);
      org.assertj.core.api.Assertions.assertThat(m.v(6, 0)).as("v_fma_f16").isEqualTo(0x7777_4200);
      org.assertj.core.api.Assertions.assertThat(m.v(7, 0)).as("v_fma_f16 op_sel:[0,0,0,1]")
          .isEqualTo(0x4200_1111);
      org.assertj.core.api.Assertions.assertThat(m.v(8, 0)).as("v_fma_legacy_f16").isEqualTo(0x0000_4200);
    }
  }
}
