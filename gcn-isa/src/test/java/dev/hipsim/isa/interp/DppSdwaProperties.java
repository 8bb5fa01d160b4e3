package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.fp.RefFloat;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * DPP and SDWA forms through the interpreter: the DPP lane table (quad_perm, row shifts and rotates, wave shifts,
 * mirrors, broadcasts, row_newbcast for the 64-bit DP ALU forms), row and bank masks, bound_ctrl, EXEC of source
 * lanes, source neg/abs; SDWA byte/word selects with sign extension, float modifiers on the selected bits,
 * dst_sel with dst_unused pad/sign-extend/preserve, SGPR sources, and VOPC SDWA masks.
 */
class DppSdwaProperties {
  static final int F16 = 0;
  static final int F32 = 2;
  static final int F64 = 3;

  @Provide
  Arbitrary<Target> targets() {
    return Arbitraries.of(Target.GFX90A, Target.GFX942);
  }

  /** The source lane of {@code lane} under a DPP control, -1 when it is out of range (from the guide's table). */
  static int source(int ctrl, int lane) {
    int row = lane / 16;
    int pos = lane % 16;
    if (ctrl <= 0xff) return lane / 4 * 4 + (ctrl >> (2 * (lane % 4)) & 3);
    if (ctrl >= 0x101 && ctrl <= 0x10f) return pos + (ctrl & 15) < 16 ? lane + (ctrl & 15) : -1;
    if (ctrl >= 0x111 && ctrl <= 0x11f) return pos - (ctrl & 15) >= 0 ? lane - (ctrl & 15) : -1;
    if (ctrl >= 0x121 && ctrl <= 0x12f) return row * 16 + (pos - (ctrl & 15) + 16) % 16;
    if (ctrl >= 0x150 && ctrl <= 0x15f) return row * 16 + (ctrl & 15);
    switch (ctrl) {
      case 0x130: return lane < 63 ? lane + 1 : -1;
      case 0x134: return (lane + 1) % 64;
      case 0x138: return lane > 0 ? lane - 1 : -1;
      case 0x13c: return (lane + 63) % 64;
      case 0x140: return row * 16 + 15 - pos;
      case 0x141: return lane / 8 * 8 + 7 - lane % 8;
      case 0x142: return row > 0 ? row * 16 - 1 : -1;
      default: return lane >= 32 ? 31 : -1; // row_bcast31
    }
  }

  static int randomControl(Random r) {
    switch (r.nextInt(6)) {
      case 0: return r.nextInt(256);
      case 1: return 0x101 + r.nextInt(15);
      case 2: return 0x111 + r.nextInt(15);
      case 3: return 0x121 + r.nextInt(15);
      case 4: return new int[] {0x130, 0x134, 0x138, 0x13c, 0x140, 0x141, 0x142, 0x143}[r.nextInt(8)];
      default: return 0x150 + r.nextInt(16);
    }
  }

  @Provide
  Arbitrary<Operation> dppOps() {
    return Arbitraries.of(Operation.V_MOV_B32, Operation.V_ADD_U32, Operation.V_ADD_F32, Operation.V_ADD_F16,
        Operation.V_MOV_B64, Operation.V_ADD_F64, Operation.V_SUB_U32);
  }

  @Property(tries = 800)
  void dppMovesLanesAsTheControlSays(@ForAll("dppOps") Operation op, @ForAll("targets") Target t,
      @ForAll long seed) throws Exception {
    boolean wide = op == Operation.V_MOV_B64 || op == Operation.V_ADD_F64;
    boolean unary = op == Operation.V_MOV_B32 || op == Operation.V_MOV_B64;
    Format f = unary ? Format.VOP1_DPP : Format.VOP2_DPP;
    if (!Enc.has(t, f, op)) return;
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 16);
    int fmt = op == Operation.V_ADD_F16 ? F16 : op == Operation.V_ADD_F32 ? F32 : op == Operation.V_ADD_F64 ? F64 : -1;
    for (int reg = 0; reg < 16; reg++) {
      for (int l = 0; l < 64; l++) m.setV(reg, l, fmt == F16 ? Vals.f16x2(r) : fmt == F32 ? Vals.f32(r) : Vals.i32(r));
    }
    if (fmt == F64) {
      for (int reg = 0; reg < 16; reg += 2) for (int l = 0; l < 64; l++) m.setV64(reg, l, Vals.f64(r));
    }
    long exec = Vals.exec(r);
    m.w.setExec(exec);
    int ctrl = wide ? 0x150 + r.nextInt(16) : randomControl(r);
    if (ctrl >= 0x150 && !wide && r.nextBoolean()) ctrl = r.nextInt(256);
    int rowMask = r.nextInt(4) == 0 ? r.nextInt(16) : 15;
    int bankMask = r.nextInt(4) == 0 ? r.nextInt(16) : 15;
    boolean bound = r.nextBoolean();
    boolean floatOp = fmt >= 0;
    boolean neg0 = floatOp && r.nextBoolean();
    boolean abs0 = floatOp && r.nextBoolean();
    boolean neg1 = floatOp && !unary && r.nextBoolean();
    boolean abs1 = floatOp && !unary && r.nextBoolean();
    int step = wide ? 2 : 1;
    int src0 = 256 + step * r.nextInt(8);
    int src1 = 256 + step * r.nextInt(8);
    int vdst = step * r.nextInt(8);
    Enc e = Enc.of(t, f, op).vdst(vdst).src0(src0).dpp(ctrl, rowMask, bankMask, bound)
        .dppMods(neg0, abs0, neg1, abs1);
    if (!unary) e.src1(src1);
    m.snapshot();
    m.run(e);
    int[] v = m.savedV.clone();
    int mode = m.w.mode;
    for (int l = 0; l < 64; l++) {
      if ((exec >>> l & 1) == 0) continue;
      if ((rowMask >>> (l / 16) & 1) == 0 || (bankMask >>> (l / 4 % 4) & 1) == 0) continue;
      int sl = source(ctrl, l);
      boolean valid = sl >= 0 && (exec >>> sl & 1) != 0;
      if (!valid && !bound) continue;
      long a = !valid ? 0 : wide ? m.before64(src0 - 256, sl) : m.before(src0 - 256, sl) & 0xffff_ffffL;
      long b = wide ? m.before64(src1 - 256, l) : m.before(src1 - 256, l) & 0xffff_ffffL;
      if (fmt == F16) {
        a &= 0xffff;
        b &= 0xffff;
      }
      if (floatOp) {
        long sign = RefFloat.sign(fmt);
        if (abs0) a &= ~sign;
        if (neg0) a ^= sign;
        if (abs1) b &= ~sign;
        if (neg1) b ^= sign;
      }
      long result;
      switch (op) {
        case V_ADD_U32: result = (a + b) & 0xffff_ffffL; break;
        case V_SUB_U32: result = (a - b) & 0xffff_ffffL; break;
        case V_ADD_F32: case V_ADD_F16: case V_ADD_F64: result = RefFloat.add(fmt, a, b, mode); break;
        default: result = a;
      }
      v[vdst * 64 + l] = (int) result;
      if (wide) v[(vdst + 1) * 64 + l] = (int) (result >>> 32);
    }
    m.assertState(v, m.savedS, m.text(e));
  }

  /** SDWA_SEL: the selected byte/word/dword of a value, zero- or sign-extended. */
  static int select(int value, int sel, boolean sext) {
    if (sel == 6) return value;
    int width = sel <= 3 ? 8 : 16;
    int shift = sel <= 3 ? 8 * sel : sel == 5 ? 16 : 0;
    int field = value >>> shift & ((1 << width) - 1);
    return sext ? field << (32 - width) >> (32 - width) : field;
  }

  /** The destination after an SDWA write: the result's low bits in the dst_sel field, the rest per dst_unused. */
  static int merge(int result, int old, int sel, int unused) {
    if (sel == 6) return result;
    int width = sel <= 3 ? 8 : 16;
    int shift = sel <= 3 ? 8 * sel : sel == 5 ? 16 : 0;
    int fieldMask = ((1 << width) - 1) << shift;
    int placed = result << shift & fieldMask;
    if (unused == 2) return old & ~fieldMask | placed;
    if (unused == 1 && (result >>> (width - 1) & 1) != 0) {
      return placed | (shift + width >= 32 ? 0 : -1 << (shift + width));
    }
    return placed;
  }

  @Provide
  Arbitrary<Operation> sdwaOps() {
    return Arbitraries.of(Operation.V_MOV_B32, Operation.V_ADD_U32, Operation.V_AND_B32, Operation.V_ADD_F16,
        Operation.V_MUL_F32, Operation.V_CVT_F32_F16, Operation.V_LSHLREV_B32, Operation.V_MAX_I16);
  }

  @Property(tries = 800)
  void sdwaSelectsAndMerges(@ForAll("sdwaOps") Operation op, @ForAll("targets") Target t, @ForAll long seed)
      throws Exception {
    boolean unary = op == Operation.V_MOV_B32 || op == Operation.V_CVT_F32_F16;
    Format f = unary ? Format.VOP1_SDWA : Format.VOP2_SDWA;
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 16);
    int fmt = op == Operation.V_ADD_F16 || op == Operation.V_CVT_F32_F16 ? F16 : op == Operation.V_MUL_F32 ? F32
        : -1;
    for (int reg = 0; reg < 16; reg++) {
      for (int l = 0; l < 64; l++) m.setV(reg, l, fmt == F16 ? Vals.f16x2(r) : fmt == F32 ? Vals.f32(r) : Vals.i32(r));
    }
    long exec = Vals.exec(r);
    m.w.setExec(exec);
    int mode = Vals.mode(r);
    m.w.mode = mode;
    boolean floatOp = fmt >= 0;
    boolean sixteen = op == Operation.V_ADD_F16 || op == Operation.V_MAX_I16;
    int sel0 = r.nextInt(7);
    int sel1 = unary ? 0 : r.nextInt(7);
    int dstSel = r.nextInt(7);
    int unused = r.nextInt(3);
    boolean sext0 = !floatOp && r.nextBoolean();
    boolean sext1 = !floatOp && !unary && r.nextBoolean();
    boolean neg0 = floatOp && r.nextBoolean();
    boolean abs0 = floatOp && r.nextBoolean();
    boolean neg1 = floatOp && !unary && r.nextBoolean();
    boolean abs1 = floatOp && !unary && r.nextBoolean();
    boolean clamp = floatOp && op != Operation.V_CVT_F32_F16 && r.nextInt(4) == 0;
    int src0 = r.nextInt(4) == 0 ? 2 * r.nextInt(16) : 256 + r.nextInt(16);
    int src1 = r.nextInt(4) == 0 ? 2 * r.nextInt(16) : 256 + r.nextInt(16);
    int vdst = r.nextInt(16);
    Enc e = Enc.of(t, f, op).vdst(vdst).src0(src0).sdwa(dstSel, unused, sel0, sel1)
        .sdwaMods(sext0, neg0, abs0, sext1, neg1, abs1);
    if (!unary) e.src1(src1);
    if (clamp) e.clamp(true);
    m.snapshot();
    m.run(e);
    int[] v = m.savedV.clone();
    for (int l = 0; l < 64; l++) {
      if ((exec >>> l & 1) == 0) continue;
      int a = select(src0 >= 256 ? m.before(src0 - 256, l) : m.savedS[src0], sel0, sext0);
      int b = unary ? 0 : select(src1 >= 256 ? m.before(src1 - 256, l) : m.savedS[src1], sel1, sext1);
      if (floatOp) {
        int sign = fmt == F16 ? 0x8000 : 0x80000000;
        if (abs0) a &= ~sign;
        if (neg0) a ^= sign;
        if (abs1) b &= ~sign;
        if (neg1) b ^= sign;
      }
      if (fmt == F16) {
        a &= 0xffff;
        b &= 0xffff;
      }
      if (op == Operation.V_MAX_I16) {
        a &= 0xffff;
        b &= 0xffff;
      }
      long res;
      switch (op) {
        case V_ADD_U32: res = a + b; break;
        case V_AND_B32: res = a & b; break;
        case V_LSHLREV_B32: res = b << (a & 31); break;
        case V_MAX_I16: res = Math.max((short) a, (short) b) & 0xffff; break;
        case V_ADD_F16: res = RefFloat.add(F16, a, b, mode); break;
        case V_MUL_F32: res = RefFloat.mul(F32, a & 0xffff_ffffL, b & 0xffff_ffffL, mode); break;
        case V_CVT_F32_F16: res = RefFloat.convert(F16, a, F32, mode); break;
        default: res = a;
      }
      if (clamp) res = ValuFloatProperties.clamp(fmt == F16 ? F16 : F32, res & (fmt == F16 ? 0xffff : 0xffff_ffffL),
          mode);
      int result = (int) res;
      if (sixteen) result &= 0xffff;
      v[vdst * 64 + l] = merge(result, m.before(vdst, l), dstSel, unused);
    }
    m.assertState(v, m.savedS, m.text(e) + String.format(" mode 0x%x", mode));
  }

  @Property(tries = 300)
  void sdwaComparesWriteVccOrAnSgprPair(@ForAll("targets") Target t, @ForAll boolean toSgpr, @ForAll long seed)
      throws Exception {
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 16);
    long exec = Vals.exec(r);
    m.w.setExec(exec);
    int sel0 = r.nextInt(7);
    int sel1 = r.nextInt(7);
    boolean sext0 = r.nextBoolean();
    boolean sext1 = r.nextBoolean();
    int sdst = 2 * (20 + r.nextInt(10));
    Enc e = Enc.of(t, Format.VOPC_SDWA, Operation.V_CMP_LT_I32).src0(256 + 1).src1(256 + 2)
        .sdwa(0, 0, sel0, sel1).sdwaMods(sext0, false, false, sext1, false, false);
    if (toSgpr) e.sdst(sdst);
    m.snapshot();
    m.run(e);
    long bits = 0;
    for (int l = 0; l < 64; l++) {
      if ((exec >>> l & 1) == 0) continue;
      if (select(m.before(1, l), sel0, sext0) < select(m.before(2, l), sel1, sext1)) bits |= 1L << l;
    }
    int[] s = m.savedS.clone();
    int at = toSgpr ? sdst : Wave.VCC_LO;
    s[at] = (int) bits;
    s[at + 1] = (int) (bits >>> 32);
    m.assertState(m.savedV, s, m.text(e));
  }
}
