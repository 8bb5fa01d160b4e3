package dev.hipsim.isa.interp;

import dev.hipsim.isa.alu.Mfma;
import dev.hipsim.isa.alu.MfmaOp;
import dev.hipsim.isa.alu.MfmaType;
import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.OpcodeInfo;
import dev.hipsim.isa.decode.OpcodeTables;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.fp.Fp8;
import dev.hipsim.isa.fp.FpMode;
import dev.hipsim.isa.fp.RefFloat;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * MFMA through the interpreter against a reference written from the ISA guide's matrix layout (CDNA3 guide
 * section 7.1.4: where A[b][i][k], B[b][k][j] and D[b][i][j] live for M x N x K with B blocks), with AGPR or VGPR
 * operands as the ACC/ACC_CD bits say (AGPRs at the wave's accumulation offset), CBSZ/ABID/BLGP, and C from
 * registers or an inline constant. Accumulation runs over k in order, each step one rounding (the order the
 * guide leaves open and hipsim fixes). SMFMAC is checked for its operand wiring against {@link Mfma}.
 */
class MatrixProperties {
  static final int F32 = 2;
  static final int F64 = 3;

  /** The dense instructions checked (the f64 4x4x4_4b is left out: its hardware layout is not the formula). */
  static final MfmaOp[] DENSE = {MfmaOp.F32_16X16X4_F32, MfmaOp.F32_4X4X1_16B_F32, MfmaOp.F32_32X32X8_F16,
      MfmaOp.F32_16X16X4_4B_F16, MfmaOp.F32_16X16X16_BF16, MfmaOp.I32_16X16X16_I8, MfmaOp.I32_16X16X32_I8,
      MfmaOp.I32_4X4X4_16B_I8, MfmaOp.F64_16X16X4_F64, MfmaOp.F32_16X16X32_FP8_BF8, MfmaOp.F32_32X32X2_2B_BF16};

  @Provide
  Arbitrary<MfmaOp> dense() {
    return Arbitraries.of(DENSE);
  }

  @Provide
  Arbitrary<Target> targets() {
    return Arbitraries.of(Target.GFX90A, Target.GFX942);
  }

  static int regsOf(MfmaType t, int itemsPerLane) {
    return Math.max(1, itemsPerLane * t.bits / 32);
  }

  /** Item {@code item} of an operand of type t at register {@code base} (unified file), as raw bits. */
  static long item(Machine m, int base, MfmaType t, int item, int lane) {
    if (t.bits == 64) return m.before64(base + 2 * item, lane);
    int reg = base + item * t.bits / 32;
    int word = m.before(reg, lane);
    if (t.bits == 32) return word & 0xffff_ffffL;
    return word >>> (item * t.bits % 32) & ((1 << t.bits) - 1);
  }

  /** An input element in the accumulation domain (f32 bits, f64 bits, or a signed integer). */
  static long widen(MfmaType t, long raw) {
    switch (t) {
      case F16: return RefFloat.convert(0, raw, F32, FpMode.DEFAULT);
      case BF16: return raw << 16;
      case FP8: return Fp8.fp8ToF32((int) raw) & 0xffff_ffffL;
      case BF8: return Fp8.bf8ToF32((int) raw) & 0xffff_ffffL;
      case I8: return (byte) raw;
      default: return raw;
    }
  }

  @Property(tries = 40)
  void denseMatrixInstructions(@ForAll("dense") MfmaOp op, @ForAll("targets") Target t, @ForAll long seed)
      throws Exception {
    int tsel = t.isCdna3() ? MfmaOp.GFX940 : MfmaOp.GFX90A;
    if (!op.existsOn(tsel)) return;
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 64);
    for (int reg : new int[] {0, Machine.ACC_OFFSET}) {
      for (int i = 0; i < 16 * Wave.LANES; i++) {
        m.w.v[reg * 64 + i] = op.typeA == MfmaType.F16 ? Vals.f16x2(r)
            : op.typeA == MfmaType.F32 ? Vals.f32(r) : op.typeA == MfmaType.F64 ? (int) Vals.f64(r) : r.nextInt();
      }
    }
    int kl = op.k / (64 / (op.m * op.blocks));
    int regsA = regsOf(op.typeA, kl);
    int regsB = regsOf(op.typeB, kl);
    int regsCd = op.registersCd();
    int accAB = r.nextInt(4);
    boolean accCd = r.nextBoolean();
    int a = 0;
    int b = 8;
    int d = 16 + (r.nextBoolean() ? 0 : 16 * 0);
    int c = r.nextBoolean() ? d : 48 - regsCd;
    boolean constantC = r.nextInt(4) == 0;
    int cEnc = constantC ? (r.nextBoolean() ? 128 + r.nextInt(65) : 240 + r.nextInt(8)) : 256 + c;
    int cbsz = op.blocks > 1 ? r.nextInt(Math.min(5, Integer.numberOfTrailingZeros(op.blocks) + 1)) : 0;
    int abid = cbsz > 0 ? r.nextInt(1 << cbsz) : 0;
    int blgp = op.typeCd == MfmaType.F64 ? (t.isCdna3() ? r.nextInt(8) : 0) : r.nextInt(8);
    int opcode = op.opcode(tsel);
    OpcodeInfo row = OpcodeTables.get().lookup(t, Format.VOP3P, opcode);
    Enc e = Enc.raw(t, Format.VOP3P, opcode).vdst(d).src0(256 + a).src1(256 + b).src2(cEnc).accCd(accCd)
        .acc(accAB).cbsz(cbsz).abid(abid).blgp(blgp);
    m.snapshot();
    m.run(e);
    int baseA = (accAB & 1) != 0 ? Machine.ACC_OFFSET + a : a;
    int baseB = (accAB & 2) != 0 ? Machine.ACC_OFFSET + b : b;
    int baseCd = accCd ? Machine.ACC_OFFSET : 0;
    boolean f64 = op.typeCd == MfmaType.F64;
    boolean negA = f64 && t.isCdna3() && (blgp & 1) != 0;
    boolean negB = f64 && t.isCdna3() && (blgp & 2) != 0;
    boolean negC = f64 && t.isCdna3() && (blgp & 4) != 0;
    long cConst = Sources.value64(m, cEnc, 0, 0, f64 ? Sources.Type.F64 : Sources.Type.I32);
    if (!f64) cConst = Sources.value(m, cEnc, 0, 0, Sources.Type.I32) & 0xffff_ffffL;
    int h = f64 ? 1 : 4;
    int bi = (64 + op.n * op.m / h - 1) / (op.n * op.m / h);
    int mi = 64 / bi / op.n;
    int g = op.m / (h * mi);
    int[] v = m.savedV.clone();
    int mode = FpMode.DEFAULT;
    for (int blk = 0; blk < op.blocks; blk++) {
      for (int i = 0; i < op.m; i++) {
        for (int j = 0; j < op.n; j++) {
          int item = (i % h) + h * (i / (h * mi) + g * (blk / bi));
          int lane = j + op.n * ((i / h) % mi + mi * (blk % bi));
          int reg = f64 ? 2 * item : item;
          long acc = constantC ? cConst : f64 ? m.before64(baseCd + c + reg, lane) : m.before(baseCd + c + reg, lane)
              & 0xffff_ffffL;
          if (negC) acc ^= Long.MIN_VALUE;
          for (int k = 0; k < op.k; k++) {
            int la = i + op.m * (blk + op.blocks * (k / kl));
            if (cbsz > 0 && op.honoursCbszAbid()) {
              int s = 64 >> cbsz;
              la = (la % s + s * abid) & 63;
            }
            int lb = j + op.n * (blk + op.blocks * (k / kl));
            if (blgp != 0 && op.honoursBlgp(tsel)) {
              lb = switch (blgp) {
                case 1 -> lb & 31;
                case 2 -> (lb & 31) + 32;
                case 3 -> (lb + 16) & 63;
                default -> (lb & 15) + 16 * (blgp - 4);
              };
            }
            long x = widen(op.typeA, item(m, baseA, op.typeA, k % kl, la));
            long y = widen(op.typeB, item(m, baseB, op.typeB, k % kl, lb));
            if (negA) x ^= Long.MIN_VALUE;
            if (negB) y ^= Long.MIN_VALUE;
            if (op.typeCd == MfmaType.I32) {
              acc = (int) acc + (int) x * (int) y & 0xffff_ffffL;
            } else if (f64) {
              acc = RefFloat.fma(F64, x, y, acc, mode);
            } else {
              acc = RefFloat.fma(F32, x, y, acc, mode);
            }
          }
          int at = (baseCd + d + reg) * 64 + lane;
          v[at] = (int) acc;
          if (f64) v[at + 64] = (int) (acc >>> 32);
        }
      }
    }
    m.assertState(v, m.savedS, m.text(e) + " (" + row + ")");
  }

  @Property(tries = 20)
  void sparseMatrixOperandsAreWired(@ForAll long seed) throws Exception {
    Target t = Target.GFX942;
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 64);
    MfmaOp op = r.nextBoolean() ? MfmaOp.SMFMAC_F32_16X16X32_F16 : MfmaOp.SMFMAC_I32_16X16X64_I8;
    int accAB = r.nextInt(4);
    boolean accCd = r.nextBoolean();
    int cbsz = r.nextInt(2);
    int abid = r.nextInt(4);
    Enc e = Enc.raw(t, Format.VOP3P, op.opcode(MfmaOp.GFX940)).vdst(20).src0(256).src1(256 + 4).src2(256 + 10)
        .accCd(accCd).acc(accAB).cbsz(cbsz).abid(abid);
    m.snapshot();
    m.run(e);
    int[] expected = m.savedV.clone();
    Mfma.executeSparse(op, expected, (accCd ? Machine.ACC_OFFSET : 0) + 20, (accAB & 1) != 0 ? Machine.ACC_OFFSET : 0,
        ((accAB & 2) != 0 ? Machine.ACC_OFFSET : 0) + 4, 10, cbsz, abid, FpMode.DEFAULT);
    m.assertState(expected, m.savedS, m.text(e));
  }
}
