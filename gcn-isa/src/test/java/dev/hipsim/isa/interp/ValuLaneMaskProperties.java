package dev.hipsim.isa.interp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.exec.Wave;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The VALU instructions whose lanes meet scalar state: carries and borrows out to VCC or an SGPR pair and in from
 * them, v_cndmask, the 64-bit multiply-adds with their carry mask, 64-bit shifts, mbcnt, and the lane
 * reads/writes that ignore EXEC. Inactive lanes must contribute 0 to every mask written.
 */
class ValuLaneMaskProperties {
  static long u(int x) {
    return x & 0xffff_ffffL;
  }

  @Provide
  Arbitrary<Target> targets() {
    return Arbitraries.of(Target.GFX90A, Target.GFX942);
  }

  @Provide
  Arbitrary<Operation> carryOps() {
    return Arbitraries.of(Operation.V_ADD_CO_U32, Operation.V_SUB_CO_U32, Operation.V_SUBREV_CO_U32,
        Operation.V_ADDC_CO_U32, Operation.V_SUBB_CO_U32, Operation.V_SUBBREV_CO_U32, Operation.V_CNDMASK_B32);
  }

  @Property(tries = 600)
  void carriesGoToVccOrAnSgprPair(@ForAll("carryOps") Operation op, @ForAll("targets") Target t,
      @ForAll boolean vop3, @ForAll long seed) throws Exception {
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 16);
    for (int i = 0; i < 16 * Wave.LANES; i++) m.w.v[i] = Vals.i32(r);
    long exec = Vals.exec(r);
    m.w.setExec(exec);
    boolean carryIn = op == Operation.V_ADDC_CO_U32 || op == Operation.V_SUBB_CO_U32
        || op == Operation.V_SUBBREV_CO_U32 || op == Operation.V_CNDMASK_B32;
    boolean carryOut = op != Operation.V_CNDMASK_B32;
    int vdst = r.nextInt(16);
    int src0 = carryIn && !vop3 ? 256 + r.nextInt(16) : Sources.random(r, true, !vop3);
    int src1 = vop3 ? (src0 < 128 ? 256 + r.nextInt(16) : Sources.random(r, true, false)) : 256 + r.nextInt(16);
    if (vop3 && src1 < 128 && src0 < 128) src1 = src0;
    int sdst = 2 * (20 + r.nextInt(10));
    int maskIn = 2 * (40 + r.nextInt(10));
    Enc e = Enc.of(t, vop3 ? Format.VOP3 : Format.VOP2, op).vdst(vdst).src0(src0).src1(src1);
    int literal = r.nextInt();
    if (src0 == Sources.LITERAL) e.literal(literal);
    if (vop3 && carryOut) e.sdst(sdst);
    if (vop3 && carryIn) e.src2(maskIn);
    m.snapshot();
    m.run(e);
    long in = vop3 ? (u(m.savedS[maskIn]) | (long) m.savedS[maskIn + 1] << 32) : m.savedS[Wave.VCC_LO] & 0xffff_ffffL
        | (long) m.savedS[Wave.VCC_HI] << 32;
    int[] values = new int[64];
    long carries = 0;
    for (int l = 0; l < 64; l++) {
      int a = Sources.value(m, src0, literal, l, Sources.Type.I32);
      int b = Sources.value(m, src1, literal, l, Sources.Type.I32);
      int ci = (int) (in >>> l & 1);
      long wide;
      switch (op) {
        case V_ADD_CO_U32: wide = u(a) + u(b); break;
        case V_SUB_CO_U32: wide = u(a) - u(b); break;
        case V_SUBREV_CO_U32: wide = u(b) - u(a); break;
        case V_ADDC_CO_U32: wide = u(a) + u(b) + ci; break;
        case V_SUBB_CO_U32: wide = u(a) - u(b) - ci; break;
        case V_SUBBREV_CO_U32: wide = u(b) - u(a) - ci; break;
        default: wide = ci != 0 ? b : a;
      }
      values[l] = (int) wide;
      // The carry (or borrow) is bit 32 of the exact sum (difference) of the unsigned operands.
      if ((exec >>> l & 1) != 0 && (wide >>> 32 & 1) != 0 && carryOut) carries |= 1L << l;
    }
    int[] s = m.savedS.clone();
    if (carryOut) {
      int at = vop3 ? sdst : Wave.VCC_LO;
      s[at] = (int) carries;
      s[at + 1] = (int) (carries >>> 32);
    }
    m.assertState(ValuHarness.expectWrite(m, vdst, exec, values), s, m.text(e));
  }

  @Property(tries = 300)
  void wideMultiplyAddsCarryOut(@ForAll("targets") Target t, @ForAll boolean signed, @ForAll long seed)
      throws Exception {
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 16);
    long exec = Vals.exec(r);
    m.w.setExec(exec);
    int vdst = 2 * r.nextInt(7);
    int src0 = 256 + r.nextInt(16);
    int src1 = Sources.random(r, true, false);
    int src2 = 256 + 2 * r.nextInt(7);
    int sdst = 2 * (20 + r.nextInt(10));
    Operation op = signed ? Operation.V_MAD_I64_I32 : Operation.V_MAD_U64_U32;
    Enc e = Enc.of(t, Format.VOP3, op).vdst(vdst).src0(src0).src1(src1).src2(src2).sdst(sdst);
    m.snapshot();
    m.run(e);
    int[] v = m.savedV.clone();
    long carries = 0;
    for (int l = 0; l < 64; l++) {
      if ((exec >>> l & 1) == 0) continue;
      int a = Sources.value(m, src0, 0, l, Sources.Type.I32);
      int b = Sources.value(m, src1, 0, l, Sources.Type.I32);
      long c = m.before64(src2 - 256, l);
      java.math.BigInteger p = signed ? java.math.BigInteger.valueOf((long) a * b)
          : java.math.BigInteger.valueOf(u(a)).multiply(java.math.BigInteger.valueOf(u(b)));
      java.math.BigInteger sum = p.add(signed ? java.math.BigInteger.valueOf(c)
          : new java.math.BigInteger(Long.toUnsignedString(c)));
      long result = sum.longValue();
      // The guide computes a 65-bit result, {VCC, D} = 65'(S0 * S1 + S2): the carry is its bit 64, i.e. the sign
      // of the exact signed result, or 2^64 and above for the unsigned one.
      boolean carry = signed ? sum.signum() < 0 : sum.bitLength() > 64;
      if (carry) carries |= 1L << l;
      v[vdst * 64 + l] = (int) result;
      v[(vdst + 1) * 64 + l] = (int) (result >>> 32);
    }
    int[] s = m.savedS.clone();
    s[sdst] = (int) carries;
    s[sdst + 1] = (int) (carries >>> 32);
    m.assertState(v, s, m.text(e));
  }

  @Provide
  Arbitrary<Operation> shifts64() {
    return Arbitraries.of(Operation.V_LSHLREV_B64, Operation.V_LSHRREV_B64, Operation.V_ASHRREV_I64,
        Operation.V_LSHL_ADD_U64, Operation.V_MOV_B64);
  }

  @Property(tries = 300)
  void sixtyFourBitShiftsAndMoves(@ForAll("shifts64") Operation op, @ForAll("targets") Target t, @ForAll long seed)
      throws Exception {
    if (!Enc.has(t, Format.VOP3, op) && !Enc.has(t, Format.VOP1, op)) return;
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 16);
    long exec = Vals.exec(r);
    m.w.setExec(exec);
    int vdst = 2 * r.nextInt(7);
    boolean mov = op == Operation.V_MOV_B64;
    int src0 = mov ? (r.nextBoolean() ? 256 + 2 * r.nextInt(7) : Sources.random(r, true, false))
        : Sources.random(r, true, false);
    if (mov && src0 >= 256) src0 = 256 + 2 * ((src0 - 256) / 2);
    int src1 = src0 < 128 ? 256 + 2 * r.nextInt(7) : r.nextBoolean() ? 2 * r.nextInt(16) : 256 + 2 * r.nextInt(7);
    int src2 = 256 + 2 * r.nextInt(7);
    boolean add = op == Operation.V_LSHL_ADD_U64;
    Enc e;
    if (mov) {
      e = Enc.of(t, r.nextBoolean() && Enc.has(t, Format.VOP1, op) ? Format.VOP1 : Format.VOP3, op).vdst(vdst)
          .src0(src0);
    } else if (add) {
      // v_lshl_add_u64 D = (S0 << S1) + S2: S0 and S2 are 64-bit, S1 the shift.
      src0 = 256 + 2 * r.nextInt(7);
      src1 = 128 + r.nextInt(8);
      e = Enc.of(t, Format.VOP3, op).vdst(vdst).src0(src0).src1(src1).src2(src2);
    } else {
      e = Enc.of(t, Format.VOP3, op).vdst(vdst).src0(src0).src1(src1);
    }
    m.snapshot();
    m.run(e);
    int[] v = m.savedV.clone();
    for (int l = 0; l < 64; l++) {
      if ((exec >>> l & 1) == 0) continue;
      long result;
      if (mov) {
        result = Sources.value64(m, src0, 0, l, Sources.Type.I64);
      } else if (add) {
        int sh = (Sources.value(m, src1, 0, l, Sources.Type.I32)) & 7;
        long a = Sources.value64(m, src0, 0, l, Sources.Type.I64);
        result = (sh > 4 ? a : a << sh) + m.before64(src2 - 256, l);
      } else {
        int sh = Sources.value(m, src0, 0, l, Sources.Type.I32) & 63;
        long b = Sources.value64(m, src1, 0, l, Sources.Type.I64);
        result = op == Operation.V_LSHLREV_B64 ? b << sh : op == Operation.V_LSHRREV_B64 ? b >>> sh : b >> sh;
      }
      v[vdst * 64 + l] = (int) result;
      v[(vdst + 1) * 64 + l] = (int) (result >>> 32);
    }
    m.assertState(v, m.savedS, m.text(e));
  }

  @Property(tries = 200)
  void laneCountsAndLaneAccess(@ForAll("targets") Target t, @ForAll long seed) throws Exception {
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 16);
    long exec = Vals.exec(r);
    m.w.setExec(exec);
    // v_mbcnt_lo then v_mbcnt_hi: the lane's count of set mask bits below it, plus the second source.
    int mask = r.nextInt();
    m.w.s[10] = mask;
    m.w.s[11] = r.nextInt();
    m.snapshot();
    m.run(Enc.of(t, Format.VOP3, Operation.V_MBCNT_LO_U32_B32).vdst(3).src0(10).src1(256 + 4));
    m.run(Enc.of(t, Format.VOP3, Operation.V_MBCNT_HI_U32_B32).vdst(5).src0(11).src1(256 + 3));
    long full = u(mask) | (long) m.savedS[11] << 32;
    for (int l = 0; l < 64; l++) {
      if ((exec >>> l & 1) == 0) continue;
      int lo = Long.bitCount(u(mask) & ((1L << Math.min(l, 32)) - 1)) + m.before(4, l);
      assertThat(m.v(3, l)).isEqualTo(lo);
      int hi = Long.bitCount(full & ((1L << l) - 1) & ~0xffff_ffffL);
      assertThat(m.v(5, l)).isEqualTo(lo + hi);
    }
    // v_readlane / v_writelane ignore EXEC; v_readfirstlane takes the lowest active lane (lane 0 if none).
    int lane = r.nextInt(64);
    m.w.s[12] = lane | r.nextInt() << 6;
    m.run(Enc.of(t, Format.VOP3, Operation.V_READLANE_B32).vdst(14).src0(256 + 7).src1(12));
    assertThat(m.w.s[14]).isEqualTo(m.v(7, lane));
    m.run(Enc.of(t, Format.VOP3, Operation.V_WRITELANE_B32).vdst(8).src0(12).src1(12));
    assertThat(m.v(8, lane)).isEqualTo(m.w.s[12]);
    m.w.setExec(exec);
    m.run(Enc.of(t, Format.VOP1, Operation.V_READFIRSTLANE_B32).vdst(16).src0(256 + 9));
    assertThat(m.w.s[16]).isEqualTo(m.v(9, exec == 0 ? 0 : Long.numberOfTrailingZeros(exec)));
  }
}
