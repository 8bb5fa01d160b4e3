package dev.hipsim.isa.interp;

import static dev.hipsim.isa.interp.Sources.Type.I16;
import static dev.hipsim.isa.interp.Sources.Type.I32;

import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.exec.Wave;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Integer VALU instructions executed one at a time: random encodings (VOP1/VOP2/VOP3), sources (VGPRs, SGPRs,
 * inline constants, literals), EXEC masks and register contents; every lane and every register compared with
 * reference models written from the GCN3/Vega/CDNA instruction descriptions (not from dev.hipsim.isa.alu).
 */
class ValuIntegerProperties {

  interface Ref {
    int apply(int a, int b, int c);
  }

  /** An operation, its arity, whether it is 16-bit (and then whether it keeps the old high half), its model. */
  record Case(Operation op, int arity, boolean sixteen, boolean preserve, Ref ref) {
    @Override
    public String toString() {
      return op.name();
    }
  }

  static int sext24(int x) {
    return x << 8 >> 8;
  }

  static long u(int x) {
    return x & 0xffff_ffffL;
  }

  static int byteOf(int x, int i) {
    return x >>> (8 * i) & 0xff;
  }

  static int bfeU(int a, int off, int width) {
    off &= 31;
    width &= 31;
    if (width == 0) return 0;
    long field = (u(a) >>> off) & ((1L << width) - 1);
    return (int) field;
  }

  static int perm(int s0, int s1, int sel) {
    int r = 0;
    for (int i = 0; i < 4; i++) {
      int k = byteOf(sel, i);
      int b;
      if (k >= 13) b = 0xff;
      else if (k == 12) b = 0;
      else if (k == 11) b = s0 < 0 ? 0xff : 0;
      else if (k == 10) b = (s0 >>> 15 & 1) != 0 ? 0xff : 0;
      else if (k == 9) b = s1 < 0 ? 0xff : 0;
      else if (k == 8) b = (s1 >>> 15 & 1) != 0 ? 0xff : 0;
      else b = k < 4 ? byteOf(s1, k) : byteOf(s0, k - 4);
      r |= b << (8 * i);
    }
    return r;
  }

  static final List<Case> CASES = new ArrayList<>();

  static void c(Operation op, int arity, Ref ref) {
    CASES.add(new Case(op, arity, false, false, ref));
  }

  static void h(Operation op, int arity, boolean preserve, Ref ref) {
    CASES.add(new Case(op, arity, true, preserve, ref));
  }

  static {
    c(Operation.V_MOV_B32, 1, (a, b, x) -> a);
    c(Operation.V_NOT_B32, 1, (a, b, x) -> ~a);
    c(Operation.V_BFREV_B32, 1, (a, b, x) -> Integer.reverse(a));
    c(Operation.V_FFBH_U32, 1, (a, b, x) -> a == 0 ? -1 : Integer.numberOfLeadingZeros(a));
    c(Operation.V_FFBL_B32, 1, (a, b, x) -> a == 0 ? -1 : Integer.numberOfTrailingZeros(a));
    c(Operation.V_FFBH_I32, 1, (a, b, x) -> a == 0 || a == -1 ? -1 : Integer.numberOfLeadingZeros(a < 0 ? ~a : a));
    c(Operation.V_ADD_U32, 2, (a, b, x) -> a + b);
    c(Operation.V_SUB_U32, 2, (a, b, x) -> a - b);
    c(Operation.V_SUBREV_U32, 2, (a, b, x) -> b - a);
    c(Operation.V_ADD_I32, 2, (a, b, x) -> a + b);
    c(Operation.V_SUB_I32, 2, (a, b, x) -> a - b);
    c(Operation.V_AND_B32, 2, (a, b, x) -> a & b);
    c(Operation.V_OR_B32, 2, (a, b, x) -> a | b);
    c(Operation.V_XOR_B32, 2, (a, b, x) -> a ^ b);
    c(Operation.V_XNOR_B32, 2, (a, b, x) -> ~(a ^ b));
    c(Operation.V_LSHLREV_B32, 2, (a, b, x) -> b << (a & 31));
    c(Operation.V_LSHRREV_B32, 2, (a, b, x) -> b >>> (a & 31));
    c(Operation.V_ASHRREV_I32, 2, (a, b, x) -> b >> (a & 31));
    c(Operation.V_MUL_LO_U32, 2, (a, b, x) -> a * b);
    c(Operation.V_MUL_HI_U32, 2, (a, b, x) -> (int) ((u(a) * u(b)) >>> 32));
    c(Operation.V_MUL_HI_I32, 2, (a, b, x) -> (int) (((long) a * b) >> 32));
    c(Operation.V_MUL_U32_U24, 2, (a, b, x) -> (a & 0xffffff) * (b & 0xffffff));
    c(Operation.V_MUL_HI_U32_U24, 2, (a, b, x) -> (int) (((long) (a & 0xffffff) * (b & 0xffffff)) >>> 32));
    c(Operation.V_MUL_I32_I24, 2, (a, b, x) -> sext24(a) * sext24(b));
    c(Operation.V_MUL_HI_I32_I24, 2, (a, b, x) -> (int) (((long) sext24(a) * sext24(b)) >> 32));
    c(Operation.V_MIN_I32, 2, (a, b, x) -> Math.min(a, b));
    c(Operation.V_MAX_I32, 2, (a, b, x) -> Math.max(a, b));
    c(Operation.V_MIN_U32, 2, (a, b, x) -> Integer.compareUnsigned(a, b) < 0 ? a : b);
    c(Operation.V_MAX_U32, 2, (a, b, x) -> Integer.compareUnsigned(a, b) > 0 ? a : b);
    c(Operation.V_BFM_B32, 2, (a, b, x) -> ((1 << (a & 31)) - 1) << (b & 31));
    c(Operation.V_BCNT_U32_B32, 2, (a, b, x) -> Integer.bitCount(a) + b);
    c(Operation.V_BFE_U32, 3, (a, b, x) -> bfeU(a, b, x));
    c(Operation.V_BFE_I32, 3, (a, b, x) -> {
      int width = x & 31;
      if (width == 0) return 0;
      int field = (a >> (b & 31)) & (int) ((1L << width) - 1); // the guide shifts the signed S0
      return field << (32 - width) >> (32 - width);
    });
    c(Operation.V_BFI_B32, 3, (a, b, x) -> (a & b) | (~a & x));
    c(Operation.V_ALIGNBIT_B32, 3, (a, b, x) -> (int) (((u(a) << 32) | u(b)) >>> (x & 31)));
    c(Operation.V_ALIGNBYTE_B32, 3, (a, b, x) -> (int) (((u(a) << 32) | u(b)) >>> (8 * (x & 3))));
    c(Operation.V_ADD3_U32, 3, (a, b, x) -> a + b + x);
    c(Operation.V_LSHL_ADD_U32, 3, (a, b, x) -> (a << (b & 31)) + x);
    c(Operation.V_ADD_LSHL_U32, 3, (a, b, x) -> (a + b) << (x & 31));
    c(Operation.V_LSHL_OR_B32, 3, (a, b, x) -> (a << (b & 31)) | x);
    c(Operation.V_AND_OR_B32, 3, (a, b, x) -> (a & b) | x);
    c(Operation.V_OR3_B32, 3, (a, b, x) -> a | b | x);
    c(Operation.V_XAD_U32, 3, (a, b, x) -> (a ^ b) + x);
    c(Operation.V_MIN3_I32, 3, (a, b, x) -> Math.min(Math.min(a, b), x));
    c(Operation.V_MAX3_I32, 3, (a, b, x) -> Math.max(Math.max(a, b), x));
    c(Operation.V_MIN3_U32, 3, (a, b, x) -> (int) Math.min(Math.min(u(a), u(b)), u(x)));
    c(Operation.V_MAX3_U32, 3, (a, b, x) -> (int) Math.max(Math.max(u(a), u(b)), u(x)));
    c(Operation.V_MED3_I32, 3, (a, b, x) -> Math.max(Math.min(a, b), Math.min(Math.max(a, b), x)));
    c(Operation.V_MED3_U32, 3,
        (a, b, x) -> (int) Math.max(Math.min(u(a), u(b)), Math.min(Math.max(u(a), u(b)), u(x))));
    c(Operation.V_MAD_U32_U24, 3, (a, b, x) -> (a & 0xffffff) * (b & 0xffffff) + x);
    c(Operation.V_MAD_I32_I24, 3, (a, b, x) -> sext24(a) * sext24(b) + x);
    c(Operation.V_SAD_U8, 3, (a, b, x) -> {
      int s = x;
      for (int i = 0; i < 4; i++) s += Math.abs(byteOf(a, i) - byteOf(b, i));
      return s;
    });
    c(Operation.V_SAD_HI_U8, 3, (a, b, x) -> {
      int s = 0;
      for (int i = 0; i < 4; i++) s += Math.abs(byteOf(a, i) - byteOf(b, i));
      return (s << 16) + x;
    });
    c(Operation.V_SAD_U16, 3, (a, b, x) -> x + Math.abs((a & 0xffff) - (b & 0xffff)) + Math.abs((a >>> 16) - (b >>> 16)));
    c(Operation.V_SAD_U32, 3, (a, b, x) -> (int) (Math.abs(u(a) - u(b)) + x));
    c(Operation.V_MSAD_U8, 3, (a, b, x) -> {
      int s = x;
      for (int i = 0; i < 4; i++) if (byteOf(b, i) != 0) s += Math.abs(byteOf(a, i) - byteOf(b, i));
      return s;
    });
    c(Operation.V_LERP_U8, 3, (a, b, x) -> {
      int s = 0;
      for (int i = 0; i < 4; i++) s |= ((byteOf(a, i) + byteOf(b, i) + (byteOf(x, i) & 1)) >> 1) << (8 * i);
      return s;
    });
    c(Operation.V_PERM_B32, 3, ValuIntegerProperties::perm);
    c(Operation.V_SCREEN_PARTITION_4SE_B32, 1, (a, b, x) -> dev.hipsim.isa.alu.IntOps.screenPartition4se(a));
    // 16-bit: the VOP1/VOP2 forms zero the high half on GFX9; the op_sel-capable VOP3 ones keep it.
    h(Operation.V_ADD_U16, 2, false, (a, b, x) -> a + b);
    h(Operation.V_SUB_U16, 2, false, (a, b, x) -> a - b);
    h(Operation.V_SUBREV_U16, 2, false, (a, b, x) -> b - a);
    h(Operation.V_MUL_LO_U16, 2, false, (a, b, x) -> a * b);
    h(Operation.V_LSHLREV_B16, 2, false, (a, b, x) -> b << (a & 15));
    h(Operation.V_LSHRREV_B16, 2, false, (a, b, x) -> (b & 0xffff) >>> (a & 15));
    h(Operation.V_ASHRREV_I16, 2, false, (a, b, x) -> (short) b >> (a & 15));
    h(Operation.V_MAX_U16, 2, false, (a, b, x) -> Math.max(a & 0xffff, b & 0xffff));
    h(Operation.V_MIN_U16, 2, false, (a, b, x) -> Math.min(a & 0xffff, b & 0xffff));
    h(Operation.V_MAX_I16, 2, false, (a, b, x) -> Math.max((short) a, (short) b));
    h(Operation.V_MIN_I16, 2, false, (a, b, x) -> Math.min((short) a, (short) b));
    h(Operation.V_MAD_LEGACY_U16, 3, false, (a, b, x) -> a * b + x);
    h(Operation.V_MAD_LEGACY_I16, 3, false, (a, b, x) -> (short) a * (short) b + (short) x);
    h(Operation.V_MAD_U16, 3, true, (a, b, x) -> a * b + x);
    h(Operation.V_MAD_I16, 3, true, (a, b, x) -> (short) a * (short) b + (short) x);
    h(Operation.V_ADD_I16, 2, true, (a, b, x) -> a + b);
    h(Operation.V_SUB_I16, 2, true, (a, b, x) -> a - b);
    h(Operation.V_MIN3_I16, 3, true, (a, b, x) -> Math.min(Math.min((short) a, (short) b), (short) x));
    h(Operation.V_MAX3_U16, 3, true, (a, b, x) -> Math.max(Math.max(a & 0xffff, b & 0xffff), x & 0xffff));
    h(Operation.V_MED3_I16, 3, true, (a, b, x) -> {
      int p = (short) a;
      int q = (short) b;
      int s = (short) x;
      return Math.max(Math.min(p, q), Math.min(Math.max(p, q), s));
    });
    c(Operation.V_MAD_U32_U16, 3, (a, b, x) -> (a & 0xffff) * (b & 0xffff) + x);
    c(Operation.V_MAD_I32_I16, 3, (a, b, x) -> (short) a * (short) b + x);
  }

  @Provide
  Arbitrary<Case> cases() {
    return Arbitraries.of(CASES);
  }

  @Provide
  Arbitrary<Target> targets() {
    return Arbitraries.of(Target.GFX90A, Target.GFX942);
  }

  @Property(tries = 1500)
  void integerOperationsMatchTheirModel(@ForAll("cases") Case c, @ForAll("targets") Target t, @ForAll long seed)
      throws Exception {
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 16);
    for (int i = 0; i < 16 * Wave.LANES; i++) m.w.v[i] = Vals.i32(r);
    long exec = Vals.exec(r);
    m.w.setExec(exec);
    ValuHarness.Built b = ValuHarness.build(r, t, c.op(), c.arity(), 0, false);
    boolean mixed = c.op() == Operation.V_MAD_U32_U16 || c.op() == Operation.V_MAD_I32_I16;
    m.snapshot();
    m.run(b.enc());
    int[] values = new int[Wave.LANES];
    for (int l = 0; l < Wave.LANES; l++) {
      int[] x = new int[3];
      for (int i = 0; i < c.arity(); i++) {
        x[i] = Sources.value(m, b.src()[i], b.literal(), l, c.sixteen() || mixed && i < 2 ? I16 : I32);
      }
      int r0 = c.ref().apply(x[0], x[1], x[2]);
      values[l] = c.sixteen() ? ValuHarness.half(m, b.vdst(), l, r0, c.preserve()) : r0;
    }
    m.assertState(ValuHarness.expectWrite(m, b.vdst(), exec, values), m.savedS, m.text(b.enc()));
  }
}
