package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.OpcodeInfo;
import dev.hipsim.isa.decode.OpcodeTables;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.exec.Wave;
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
 * Every V_CMP/V_CMPX of both targets, in the VOPC (result in VCC) and VOP3 (result in an SGPR pair) encodings:
 * the predicate tables of the guide (ordered and unordered float predicates, class masks, signed and unsigned
 * integers), inactive lanes reading 0, and v_cmpx writing EXEC too.
 */
class ValuCompareProperties {
  static final List<Operation> COMPARES = new ArrayList<>();

  static {
    for (OpcodeInfo row : OpcodeTables.get().rows(Target.GFX90A)) {
      if (row.format() == Format.VOPC) COMPARES.add(row.operation());
    }
  }

  @Provide
  Arbitrary<Operation> compares() {
    return Arbitraries.of(COMPARES);
  }

  @Provide
  Arbitrary<Target> targets() {
    return Arbitraries.of(Target.GFX90A, Target.GFX942);
  }

  static int format(String type) {
    return type.equals("F16") ? 0 : type.equals("F32") ? 2 : 3;
  }

  /** The guide's class mask bit of a float: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denorm, 5 -0, then mirrored. */
  static int classBit(int f, long x) {
    boolean neg = RefFloat.isNeg(f, x);
    if (RefFloat.isNaN(f, x)) return (x >>> (RefFloat.man(f) - 1) & 1) != 0 ? 1 : 0;
    if (RefFloat.isInf(f, x)) return neg ? 2 : 9;
    if ((x & ~RefFloat.sign(f)) == 0) return neg ? 5 : 6;
    if (RefFloat.isSubnormal(f, x)) return neg ? 4 : 7;
    return neg ? 3 : 8;
  }

  static boolean floatPredicate(String p, int f, long a, long b, int mode) {
    a = RefFloat.in(f, a, mode);
    b = RefFloat.in(f, b, mode);
    boolean unordered = RefFloat.isNaN(f, a) || RefFloat.isNaN(f, b);
    int cmp = unordered ? 0 : order(f, a, b);
    switch (p) {
      case "F": return false;
      case "LT": return !unordered && cmp < 0;
      case "EQ": return !unordered && cmp == 0;
      case "LE": return !unordered && cmp <= 0;
      case "GT": return !unordered && cmp > 0;
      case "LG": return !unordered && cmp != 0;
      case "GE": return !unordered && cmp >= 0;
      case "O": return !unordered;
      case "U": return unordered;
      case "NGE": return unordered || cmp < 0;
      case "NLG": return unordered || cmp == 0;
      case "NGT": return unordered || cmp <= 0;
      case "NLE": return unordered || cmp > 0;
      case "NEQ": return unordered || cmp != 0;
      case "NLT": return unordered || cmp >= 0;
      default: return true; // TRU
    }
  }

  /** Order of two non-NaN floats by value (so -0 equals +0). */
  static int order(int f, long a, long b) {
    if (RefFloat.isInf(f, a) || RefFloat.isInf(f, b)) {
      int ia = RefFloat.isInf(f, a) ? (RefFloat.isNeg(f, a) ? -1 : 1) : 0;
      int ib = RefFloat.isInf(f, b) ? (RefFloat.isNeg(f, b) ? -1 : 1) : 0;
      if (ia != ib) return Integer.compare(ia, ib);
      if (ia != 0) return 0;
    }
    return RefFloat.value(f, a).compareTo(RefFloat.value(f, b));
  }

  static boolean intPredicate(String p, int cmp) {
    switch (p) {
      case "F": return false;
      case "LT": return cmp < 0;
      case "EQ": return cmp == 0;
      case "LE": return cmp <= 0;
      case "GT": return cmp > 0;
      case "NE": case "LG": return cmp != 0;
      case "GE": return cmp >= 0;
      default: return true;
    }
  }

  @Property(tries = 1200)
  void comparesWriteLaneMasks(@ForAll("compares") Operation op, @ForAll("targets") Target t, @ForAll boolean vop3,
      @ForAll long seed) throws Exception {
    String name = op.name();
    boolean cmpx = name.startsWith("V_CMPX_");
    String rest = name.substring(cmpx ? 7 : 6);
    String pred = rest.substring(0, rest.lastIndexOf('_'));
    String type = rest.substring(rest.lastIndexOf('_') + 1);
    boolean isFloat = type.startsWith("F");
    boolean wide = type.endsWith("64");
    boolean half = type.endsWith("16");
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 16);
    for (int reg = 0; reg < 16; reg++) {
      for (int l = 0; l < 64; l++) {
        if (wide && (reg & 1) == 0) {
          m.setV64(reg, l, isFloat ? Vals.f64(r) : Vals.i64(r));
        } else if (!wide) {
          m.setV(reg, l, isFloat ? (half ? Vals.f16x2(r) : Vals.f32(r)) : (half ? Vals.i32(r) : Vals.i32(r)));
        }
      }
    }
    // Lanes compare equal values often enough to exercise EQ/NE.
    for (int l = 0; l < 64; l += 3) {
      m.setV(3, l, m.v(2, l));
      m.setV(5, l, m.v(4, l));
    }
    long exec = Vals.exec(r);
    m.w.setExec(exec);
    int mode = Vals.mode(r);
    m.w.mode = mode;
    int step = wide ? 2 : 1;
    int src0 = r.nextInt(3) == 0 ? Sources.random(r, true, !vop3) : 256 + step * r.nextInt(8);
    if (src0 >= 256) src0 = 256 + step * ((src0 - 256) / step);
    if (wide && src0 == Sources.LITERAL) src0 = 256 + 2;
    int src1 = 256 + step * r.nextInt(8);
    boolean classOp = pred.equals("CLASS");
    if (classOp) src1 = 256 + r.nextInt(16);
    int sdst = 2 * (20 + r.nextInt(10));
    int literal = r.nextInt();
    int abs = vop3 && isFloat && !classOp ? r.nextInt(4) : 0;
    int negs = vop3 && isFloat && !classOp ? r.nextInt(4) : 0;
    Enc e = Enc.of(t, vop3 ? Format.VOP3 : Format.VOPC, op).src0(src0).src1(src1);
    if (vop3) e.vdst(sdst).abs(abs).neg(negs);
    if (src0 == Sources.LITERAL) e.literal(literal);
    m.snapshot();
    m.run(e);
    long bits = 0;
    int f = isFloat ? format(type) : 0;
    Sources.Type st = half ? (isFloat ? Sources.Type.F16 : Sources.Type.I16)
        : wide ? (isFloat ? Sources.Type.F64 : Sources.Type.I64) : (isFloat ? Sources.Type.F32 : Sources.Type.I32);
    for (int l = 0; l < 64; l++) {
      if ((exec >>> l & 1) == 0) continue;
      long a = wide ? Sources.value64(m, src0, literal, l, st) : Sources.value(m, src0, literal, l, st) & 0xffff_ffffL;
      long b = wide && !classOp ? Sources.value64(m, src1, literal, l, st) : Sources.value(m, src1, literal, l,
          classOp ? Sources.Type.I32 : st) & 0xffff_ffffL;
      boolean result;
      if (classOp) {
        result = (b >>> classBit(f, a) & 1) != 0;
      } else if (isFloat) {
        if ((abs & 1) != 0) a &= ~RefFloat.sign(f);
        if ((negs & 1) != 0) a ^= RefFloat.sign(f);
        if ((abs & 2) != 0) b &= ~RefFloat.sign(f);
        if ((negs & 2) != 0) b ^= RefFloat.sign(f);
        result = floatPredicate(pred, f, a, b, mode);
      } else {
        int cmp;
        boolean signed = type.startsWith("I");
        if (half) {
          cmp = signed ? Integer.compare((short) a, (short) b) : Integer.compare((int) a & 0xffff, (int) b & 0xffff);
        } else if (wide) {
          cmp = signed ? Long.compare(a, b) : Long.compareUnsigned(a, b);
        } else {
          cmp = signed ? Integer.compare((int) a, (int) b) : Integer.compareUnsigned((int) a, (int) b);
        }
        result = intPredicate(pred, cmp);
      }
      if (result) bits |= 1L << l;
    }
    int[] s = m.savedS.clone();
    int at = vop3 ? sdst : Wave.VCC_LO;
    s[at] = (int) bits;
    s[at + 1] = (int) (bits >>> 32);
    if (cmpx) {
      s[Wave.EXEC_LO] = (int) bits;
      s[Wave.EXEC_HI] = (int) (bits >>> 32);
    }
    m.assertState(m.savedV, s, m.text(e) + String.format(" mode 0x%x", mode));
  }
}
