package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.fp.Dyadic;
import dev.hipsim.isa.fp.RefFloat;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * VOP3P through the interpreter: packed 16-bit integer and f16 math and packed f32 with random op_sel, op_sel_hi,
 * neg_lo, neg_hi and clamp; v_pk_mov_b32; the dot products; v_fma_mix*; the AGPR moves. Models per the guide's
 * packed-math rules (op_sel picks the half feeding the low result, op_sel_hi the one feeding the high result).
 */
class PackedProperties {
  static final int F16 = 0;
  static final int F32 = 2;

  @Provide
  Arbitrary<Target> targets() {
    return Arbitraries.of(Target.GFX90A, Target.GFX942);
  }

  @Provide
  Arbitrary<Operation> half2Ops() {
    return Arbitraries.of(Operation.V_PK_ADD_F16, Operation.V_PK_MUL_F16, Operation.V_PK_FMA_F16,
        Operation.V_PK_ADD_U16, Operation.V_PK_SUB_U16, Operation.V_PK_ADD_I16, Operation.V_PK_SUB_I16,
        Operation.V_PK_MUL_LO_U16, Operation.V_PK_LSHLREV_B16, Operation.V_PK_LSHRREV_B16, Operation.V_PK_ASHRREV_I16,
        Operation.V_PK_MAX_I16, Operation.V_PK_MIN_U16, Operation.V_PK_MAD_U16, Operation.V_PK_MAD_I16);
  }

  static int half(int reg, boolean high) {
    return high ? reg >>> 16 : reg & 0xffff;
  }

  /**
   * A packed source's register value. A constant is not replicated on GFX9: an f16 operand's float constant is
   * its binary16 pattern in the low half, an integer operand's constant its 32-bit value.
   */
  static int raw(Machine m, int enc, int lane, boolean f16) {
    if (enc >= 256) return m.before(enc - 256, lane);
    if (enc < 128) return m.savedS[enc];
    if (f16 && enc >= 240) return Sources.value(m, enc, 0, lane, Sources.Type.F16);
    return Sources.value(m, enc, 0, lane, Sources.Type.I32);
  }

  static long clampF16(long x, int mode) {
    return ValuFloatProperties.clamp(F16, x, mode);
  }

  /** One 16-bit result half of a packed operation. */
  static int halfResult(Operation op, int a, int b, int c, boolean clamp, int mode) {
    switch (op) {
      case V_PK_ADD_F16: return (int) (clamp ? clampF16(RefFloat.add(F16, a, b, mode), mode) : RefFloat.add(F16, a, b, mode));
      case V_PK_MUL_F16: return (int) (clamp ? clampF16(RefFloat.mul(F16, a, b, mode), mode) : RefFloat.mul(F16, a, b, mode));
      case V_PK_FMA_F16: {
        long r = RefFloat.fma(F16, a, b, c, mode);
        return (int) (clamp ? clampF16(r, mode) : r);
      }
      case V_PK_ADD_U16: return clamp ? Math.min(a + b, 0xffff) : (a + b) & 0xffff;
      case V_PK_SUB_U16: return clamp ? Math.max(a - b, 0) : (a - b) & 0xffff;
      case V_PK_ADD_I16: return sat16((short) a + (short) b, clamp);
      case V_PK_SUB_I16: return sat16((short) a - (short) b, clamp);
      case V_PK_MUL_LO_U16: return clamp ? Math.min(a * b, 0xffff) : (a * b) & 0xffff;
      case V_PK_LSHLREV_B16: return (b << (a & 15)) & 0xffff;
      case V_PK_LSHRREV_B16: return b >>> (a & 15);
      case V_PK_ASHRREV_I16: return ((short) b >> (a & 15)) & 0xffff;
      case V_PK_MAX_I16: return Math.max((short) a, (short) b) & 0xffff;
      case V_PK_MIN_U16: return Math.min(a, b);
      case V_PK_MAD_U16: {
        long r = (long) a * b + c;
        return (int) (clamp ? Math.min(r, 0xffff) : r & 0xffff);
      }
      default: return sat16((short) a * (short) b + (short) c, clamp); // V_PK_MAD_I16
    }
  }

  static int sat16(int x, boolean clamp) {
    return (clamp ? Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, x)) : x) & 0xffff;
  }

  @Property(tries = 800)
  void packedHalvesFollowOpSel(@ForAll("half2Ops") Operation op, @ForAll("targets") Target t, @ForAll long seed)
      throws Exception {
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 16);
    boolean isFloat = op.name().endsWith("F16");
    for (int i = 0; i < 16 * Wave.LANES; i++) m.w.v[i] = isFloat ? Vals.f16x2(r) : Vals.i32(r);
    long exec = Vals.exec(r);
    m.w.setExec(exec);
    int mode = Vals.mode(r);
    m.w.mode = mode;
    int arity = op == Operation.V_PK_FMA_F16 || op == Operation.V_PK_MAD_U16 || op == Operation.V_PK_MAD_I16 ? 3 : 2;
    int[] src = new int[arity];
    int scalar = -1;
    for (int i = 0; i < arity; i++) {
      int s = Sources.random(r, scalar < 0, false);
      if (s < 128) scalar = s;
      src[i] = s;
    }
    int mask = (1 << arity) - 1;
    int opSel = r.nextInt(8) & mask;
    int opSelHi = r.nextInt(4) == 0 ? mask : r.nextInt(8) & mask;
    int negLo = isFloat ? r.nextInt(8) & mask : 0;
    int negHi = isFloat ? r.nextInt(8) & mask : 0;
    boolean clamp = r.nextInt(3) == 0;
    int vdst = r.nextInt(16);
    Enc e = Enc.of(t, Format.VOP3P, op).vdst(vdst).src0(src[0]).src1(src[1]).opSel(opSel).opSelHi(opSelHi)
        .neg(negLo).negHi(negHi).clamp(clamp);
    if (arity > 2) e.src2(src[2]);
    m.snapshot();
    m.run(e);
    int[] values = new int[64];
    for (int l = 0; l < 64; l++) {
      int[] reg = new int[3];
      for (int i = 0; i < arity; i++) reg[i] = raw(m, src[i], l, isFloat);
      int[] out = new int[2];
      for (int h = 0; h < 2; h++) {
        int sel = h == 0 ? opSel : opSelHi;
        int neg = h == 0 ? negLo : negHi;
        int[] x = new int[3];
        for (int i = 0; i < 3; i++) {
          x[i] = half(reg[i], (sel >>> i & 1) != 0);
          if ((neg >>> i & 1) != 0) x[i] ^= 0x8000;
        }
        out[h] = halfResult(op, x[0], x[1], x[2], clamp, mode) & 0xffff;
      }
      values[l] = out[1] << 16 | out[0];
    }
    m.assertState(ValuHarness.expectWrite(m, vdst, exec, values), m.savedS,
        m.text(e) + String.format(" mode 0x%x", mode));
  }

  @Provide
  Arbitrary<Operation> float2Ops() {
    return Arbitraries.of(Operation.V_PK_FMA_F32, Operation.V_PK_MUL_F32, Operation.V_PK_ADD_F32,
        Operation.V_PK_MOV_B32);
  }

  /** A packed-f32 source pair: VGPR or SGPR pair, or a 32-bit constant in both dwords. */
  static long pair(Machine m, int enc, int lane) {
    if (enc >= 256) return m.before64(enc - 256, lane);
    if (enc < 128) return (m.savedS[enc] & 0xffff_ffffL) | (long) m.savedS[enc + 1] << 32;
    long c = Sources.value(m, enc, 0, lane, Sources.Type.F32) & 0xffff_ffffL;
    return c | c << 32;
  }

  @Property(tries = 500)
  void packedFloatPairs(@ForAll("float2Ops") Operation op, @ForAll("targets") Target t, @ForAll long seed)
      throws Exception {
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 16);
    for (int i = 0; i < 16 * Wave.LANES; i++) m.w.v[i] = Vals.f32(r);
    for (int i = 0; i < 32; i++) m.w.s[i] = Vals.f32(r);
    long exec = Vals.exec(r);
    m.w.setExec(exec);
    int mode = Vals.mode(r);
    m.w.mode = mode;
    boolean mov = op == Operation.V_PK_MOV_B32;
    int arity = op == Operation.V_PK_FMA_F32 ? 3 : 2;
    int[] src = new int[arity];
    int scalar = -1;
    for (int i = 0; i < arity; i++) {
      int s = Sources.random(r, scalar < 0, false);
      if (s >= 256) s = 256 + 2 * ((s - 256) / 2);
      if (s < 128) scalar = s;
      src[i] = s;
    }
    int mask = (1 << arity) - 1;
    int opSel = r.nextInt(8) & mask;
    int opSelHi = r.nextInt(3) == 0 ? mask : r.nextInt(8) & mask;
    int negLo = mov ? 0 : r.nextInt(8) & mask;
    int negHi = mov ? 0 : r.nextInt(8) & mask;
    boolean clamp = !mov && r.nextInt(3) == 0;
    int vdst = 2 * r.nextInt(8);
    Enc e = Enc.of(t, Format.VOP3P, op).vdst(vdst).src0(src[0]).src1(src[1]).opSel(opSel).opSelHi(opSelHi)
        .neg(negLo).negHi(negHi).clamp(clamp);
    if (arity > 2) e.src2(src[2]);
    m.snapshot();
    m.run(e);
    int[] v = m.savedV.clone();
    for (int l = 0; l < 64; l++) {
      if ((exec >>> l & 1) == 0) continue;
      long[] p = new long[3];
      for (int i = 0; i < arity; i++) p[i] = pair(m, src[i], l);
      long[] out = new long[2];
      for (int h = 0; h < 2; h++) {
        if (mov) {
          // v_pk_mov_b32: D.lo from S0 (op_sel[0] picks its dword), D.hi from S1 (op_sel[1]).
          long s = h == 0 ? p[0] : p[1];
          out[h] = (opSel >>> h & 1) != 0 ? s >>> 32 : s & 0xffff_ffffL;
          continue;
        }
        int sel = h == 0 ? opSel : opSelHi;
        int neg = h == 0 ? negLo : negHi;
        long[] x = new long[3];
        for (int i = 0; i < 3; i++) {
          x[i] = (sel >>> i & 1) != 0 ? p[i] >>> 32 : p[i] & 0xffff_ffffL;
          if ((neg >>> i & 1) != 0) x[i] ^= 0x8000_0000L;
        }
        long y = op == Operation.V_PK_FMA_F32 ? RefFloat.fma(F32, x[0], x[1], x[2], mode)
            : op == Operation.V_PK_MUL_F32 ? RefFloat.mul(F32, x[0], x[1], mode) : RefFloat.add(F32, x[0], x[1], mode);
        out[h] = clamp ? ValuFloatProperties.clamp(F32, y, mode) : y;
      }
      v[vdst * 64 + l] = (int) out[0];
      v[(vdst + 1) * 64 + l] = (int) out[1];
    }
    m.assertState(v, m.savedS, m.text(e) + String.format(" mode 0x%x", mode));
  }

  @Provide
  Arbitrary<Operation> dotOps() {
    return Arbitraries.of(Operation.V_DOT2_F32_F16, Operation.V_DOT2_I32_I16, Operation.V_DOT2_U32_U16,
        Operation.V_DOT4_I32_I8, Operation.V_DOT4_U32_U8, Operation.V_DOT8_I32_I4, Operation.V_DOT8_U32_U4,
        Operation.V_DOT2C_F32_F16, Operation.V_DOT2C_I32_I16, Operation.V_DOT4C_I32_I8, Operation.V_DOT8C_I32_I4);
  }

  /** The f16 as an f32 with denormal inputs flushed (the float dot products flush them whatever MODE says). */
  static long f16In(int h) {
    if ((h & 0x7c00) == 0) h &= 0x8000;
    return RefFloat.convert(F16, h, F32, 0x3f0);
  }

  @Property(tries = 500)
  void dotProducts(@ForAll("dotOps") Operation op, @ForAll("targets") Target t, @ForAll long seed) throws Exception {
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 16);
    boolean isFloat = op.name().endsWith("F32_F16");
    boolean accumulating = op.name().startsWith("V_DOT") && op.name().charAt(6) == 'C';
    for (int i = 0; i < 16 * Wave.LANES; i++) m.w.v[i] = isFloat ? Vals.f16x2(r) : Vals.i32(r);
    if (isFloat) for (int l = 0; l < 64; l++) m.setV(7, l, Vals.f32(r));
    long exec = Vals.exec(r);
    m.w.setExec(exec);
    int mode = Vals.mode(r);
    m.w.mode = mode;
    int vdst = accumulating ? 7 : r.nextInt(16);
    boolean clamp = !isFloat && r.nextInt(3) == 0 && !accumulating;
    Enc e;
    if (accumulating) {
      e = Enc.of(t, Format.VOP2, op).vdst(vdst).src0(256 + r.nextInt(16)).src1(256 + r.nextInt(16));
    } else {
      e = Enc.of(t, Format.VOP3P, op).vdst(vdst).src0(256 + r.nextInt(16)).src1(256 + r.nextInt(16)).src2(256 + 7)
          .clamp(clamp);
      if (op.name().startsWith("V_DOT2")) e.opSelHi(3);
    }
    m.snapshot();
    m.run(e);
    int s0 = (int) ((e.bits >>> (accumulating ? 0 : 32)) & 0x1ff) - 256;
    int s1 = accumulating ? (int) (e.bits >>> 9 & 0xff) : (int) ((e.bits >>> 41) & 0x1ff) - 256;
    int[] values = new int[64];
    for (int l = 0; l < 64; l++) {
      int a = m.before(s0, l);
      int b = m.before(s1, l);
      int c = m.before(7, l);
      long sum;
      switch (op) {
        case V_DOT2_F32_F16: case V_DOT2C_F32_F16: {
          // tmp = S2; tmp += a.lo * b.lo; tmp += a.hi * b.hi — nearest even, every denormal flushed.
          int dm = (mode & 0x300) | 0xc0;
          long p0 = RefFloat.mul(F32, f16In(a & 0xffff), f16In(b & 0xffff), dm);
          long p1 = RefFloat.mul(F32, f16In(a >>> 16), f16In(b >>> 16), dm);
          values[l] = (int) RefFloat.add(F32, RefFloat.add(F32, c & 0xffff_ffffL, p0, dm), p1, dm);
          continue;
        }
        case V_DOT2_I32_I16: case V_DOT2C_I32_I16:
          sum = (long) c + (short) a * (short) b + (short) (a >>> 16) * (short) (b >>> 16);
          break;
        case V_DOT2_U32_U16:
          sum = (c & 0xffff_ffffL) + (long) (a & 0xffff) * (b & 0xffff) + (long) (a >>> 16) * (b >>> 16);
          break;
        case V_DOT4_I32_I8: case V_DOT4C_I32_I8:
          sum = c;
          for (int k = 0; k < 4; k++) sum += (byte) (a >> 8 * k) * (byte) (b >> 8 * k);
          break;
        case V_DOT4_U32_U8:
          sum = c & 0xffff_ffffL;
          for (int k = 0; k < 4; k++) sum += (long) (a >>> 8 * k & 0xff) * (b >>> 8 * k & 0xff);
          break;
        case V_DOT8_I32_I4: case V_DOT8C_I32_I4:
          sum = c;
          for (int k = 0; k < 8; k++) sum += (a << (28 - 4 * k) >> 28) * (b << (28 - 4 * k) >> 28);
          break;
        default: // V_DOT8_U32_U4
          sum = c & 0xffff_ffffL;
          for (int k = 0; k < 8; k++) sum += (long) (a >>> 4 * k & 15) * (b >>> 4 * k & 15);
      }
      boolean unsigned = op.name().contains("_U32_");
      if (clamp) sum = unsigned ? Math.min(sum, 0xffff_ffffL) : Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, sum));
      values[l] = (int) sum;
    }
    m.assertState(ValuHarness.expectWrite(m, vdst, exec, values), m.savedS,
        m.text(e) + String.format(" mode 0x%x", mode));
  }

  @Provide
  Arbitrary<Operation> mixOps() {
    return Arbitraries.of(Operation.V_FMA_MIX_F32, Operation.V_FMA_MIXLO_F16, Operation.V_FMA_MIXHI_F16);
  }

  /** An exact a * b + c of f32 encodings rounded to {@code out}, with the IEEE special cases of fma. */
  static long fmaTo(int out, long a, long b, long c, int mode) {
    a = RefFloat.in(F32, a, mode);
    b = RefFloat.in(F32, b, mode);
    c = RefFloat.in(F32, c, mode);
    boolean zeroA = (a & 0x7fff_ffffL) == 0;
    boolean zeroB = (b & 0x7fff_ffffL) == 0;
    if ((RefFloat.isInf(F32, a) && zeroB) || (RefFloat.isInf(F32, b) && zeroA)) return RefFloat.defaultNaN(out);
    for (long x : new long[] {a, b, c}) {
      if (RefFloat.isNaN(F32, x)) return RefFloat.convert(F32, RefFloat.nanOut(F32, x, mode), out, mode);
    }
    boolean negP = RefFloat.isNeg(F32, a) != RefFloat.isNeg(F32, b);
    if (RefFloat.isInf(F32, a) || RefFloat.isInf(F32, b)) {
      if (RefFloat.isInf(F32, c) && RefFloat.isNeg(F32, c) != negP) return RefFloat.defaultNaN(out);
      return RefFloat.allExp(out) | (negP ? RefFloat.sign(out) : 0);
    }
    if (RefFloat.isInf(F32, c)) return RefFloat.allExp(out) | (RefFloat.isNeg(F32, c) ? RefFloat.sign(out) : 0);
    Dyadic p = RefFloat.value(F32, a).multiply(RefFloat.value(F32, b));
    Dyadic s = p.add(RefFloat.value(F32, c));
    boolean zeroNeg = p.signum() == 0 && RefFloat.value(F32, c).signum() == 0 && negP == RefFloat.isNeg(F32, c)
        ? negP : RefFloat.rm(mode, out) == RefFloat.RDN;
    return RefFloat.result(out, s, zeroNeg, mode);
  }

  @Property(tries = 500)
  void mixedPrecisionFma(@ForAll("mixOps") Operation op, @ForAll("targets") Target t, @ForAll long seed)
      throws Exception {
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 16);
    for (int i = 0; i < 16 * Wave.LANES; i++) m.w.v[i] = r.nextBoolean() ? Vals.f16x2(r) : Vals.f32(r);
    long exec = Vals.exec(r);
    m.w.setExec(exec);
    int mode = Vals.mode(r);
    m.w.mode = mode;
    int[] src = {256 + r.nextInt(16), 256 + r.nextInt(16), 256 + r.nextInt(16)};
    int opSel = r.nextInt(8);
    int opSelHi = r.nextInt(8);
    int neg = r.nextInt(8);
    int abs = r.nextInt(8);
    boolean clamp = r.nextInt(4) == 0;
    int vdst = r.nextInt(16);
    Enc e = Enc.of(t, Format.VOP3P, op).vdst(vdst).src0(src[0]).src1(src[1]).src2(src[2]).opSel(opSel)
        .opSelHi(opSelHi).neg(neg).negHi(abs).clamp(clamp);
    m.snapshot();
    m.run(e);
    int[] values = new int[64];
    for (int l = 0; l < 64; l++) {
      long[] x = new long[3];
      for (int i = 0; i < 3; i++) {
        int reg = m.before(src[i] - 256, l);
        // op_sel_hi[i] set: an f16 operand (the half op_sel[i] picks), widened exactly; else the f32 register.
        long v = (opSelHi >>> i & 1) == 0 ? reg & 0xffff_ffffL
            : RefFloat.convert(F16, (opSel >>> i & 1) != 0 ? reg >>> 16 : reg & 0xffff, F32, mode);
        if ((abs >>> i & 1) != 0) v &= 0x7fff_ffffL;
        if ((neg >>> i & 1) != 0) v ^= 0x8000_0000L;
        x[i] = v;
      }
      int old = m.before(vdst, l);
      if (op == Operation.V_FMA_MIX_F32) {
        long y = fmaTo(F32, x[0], x[1], x[2], mode);
        values[l] = (int) (clamp ? ValuFloatProperties.clamp(F32, y, mode) : y);
      } else {
        long y = fmaTo(F16, x[0], x[1], x[2], mode);
        if (clamp) y = ValuFloatProperties.clamp(F16, y, mode);
        values[l] = op == Operation.V_FMA_MIXLO_F16 ? (old & 0xffff0000) | (int) y : (old & 0xffff) | (int) y << 16;
      }
    }
    m.assertState(ValuHarness.expectWrite(m, vdst, exec, values), m.savedS,
        m.text(e) + String.format(" mode 0x%x", mode));
  }

  @Property(tries = 100)
  void agprMovesUseTheAccumulationOffset(@ForAll("targets") Target t, @ForAll long seed) throws Exception {
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 16);
    long exec = Vals.exec(r);
    m.w.setExec(exec);
    int a = r.nextInt(16);
    int v = r.nextInt(16);
    int src = Sources.random(r, true, false);
    m.snapshot();
    Enc write = Enc.of(t, Format.VOP3P, Operation.V_ACCVGPR_WRITE_B32).vdst(a).src0(src);
    m.run(write);
    int[] values = new int[64];
    for (int l = 0; l < 64; l++) values[l] = Sources.value(m, src, 0, l, Sources.Type.I32);
    m.assertState(ValuHarness.expectWrite(m, Machine.ACC_OFFSET + a, exec, values), m.savedS, m.text(write));
    m.snapshot();
    Enc read = Enc.of(t, Format.VOP3P, Operation.V_ACCVGPR_READ_B32).vdst(v).src0(256 + a);
    m.run(read);
    for (int l = 0; l < 64; l++) values[l] = m.before(Machine.ACC_OFFSET + a, l);
    m.assertState(ValuHarness.expectWrite(m, v, exec, values), m.savedS, m.text(read));
  }
}
