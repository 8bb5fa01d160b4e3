package dev.hipsim.isa.alu;

import dev.hipsim.isa.fp.Fp8;
import dev.hipsim.isa.fp.FpFormat;
import dev.hipsim.isa.fp.FpMode;

/**
 * Executes MFMA and SMFMAC instructions on the unified vector register file ({@code int[]} indexed
 * {@code register * 64 + lane}; AGPRs are ordinary indices above the architectural VGPRs). EXEC is ignored, as on
 * the hardware.
 *
 * <p>Numerics (the guides fix rounding to nearest even and disable MODE's denormal flushing for MFMA, except that
 * f32-input MFMAs honour the f32 input-flush field for A and B):
 * <ul>
 *   <li>D[b][i][j] starts from C[b][i][j] and accumulates the K products in increasing k, each step a fused
 *       multiply-add rounded to f32 (f64 for the DGEMM instructions). The guides do not specify the hardware's
 *       internal summation order or width; f16, bf16 and 8-bit float products are exact in f32, so each step is
 *       one rounding of an exact product-plus-accumulator.
 *   <li>NaN: an operand NaN propagates (quieted); 0 * inf and inf - inf give the default NaN.
 *   <li>XF32 operands are rounded to 10 fraction bits (nearest even) before use; the exact xf32 rounding is not
 *       documented.
 *   <li>I8: exact products summed with 32-bit wrap-around.
 * </ul>
 * Broadcast controls: CBSZ/ABID make lane l read A from lane {@code l % S + S * ABID} with
 * {@code S = 64 >> CBSZ}; BLGP permutes B lanes (1: lanes 0-31 to all, 2: lanes 32-63, 3: rotate by 16,
 * 4-7: broadcast a 16-lane group); on gfx940 the f64 instructions read BLGP as neg:[A,B,C]. Which instructions
 * honour which control is in {@link MfmaOp}.
 */
public final class Mfma {
  private Mfma() {}

  /** Mode used inside the matrix core: nearest even, denormals kept, NaNs quieted. */
  static final int MATRIX_MODE = FpMode.DEFAULT;

  private static final class Scratch {
    final long[] a = new long[1024];
    final long[] b = new long[2048];
    final float[] af = new float[1024];
    final float[] bf = new float[1024];
    final double[] ad = new double[1024];
    final double[] bd = new double[1024];
    final int[] d = new int[64 * 32];
  }

  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  /**
   * Dense MFMA with C in registers {@code srcC...}; D is written to {@code dst...}. Operands may overlap (D is
   * formed in a scratch buffer first). {@code mode} is the wave's MODE (only its f32 input-flush field matters).
   */
  public static void execute(MfmaOp op, int target, int[] regs, int dst, int srcA, int srcB, int srcC, int cbsz,
      int abid, int blgp, int mode) {
    run(op, target, regs, dst, srcA, srcB, srcC, 0, cbsz, abid, blgp, mode);
  }

  /**
   * Dense MFMA whose C operand is an inline constant (SRC2 may be one): every C element is {@code cBits} (an f32,
   * i32 or f64 bit pattern as the instruction's accumulator type says).
   */
  public static void executeConstantC(MfmaOp op, int target, int[] regs, int dst, int srcA, int srcB, long cBits,
      int cbsz, int abid, int blgp, int mode) {
    run(op, target, regs, dst, srcA, srcB, -1, cBits, cbsz, abid, blgp, mode);
  }

  static int permuteA(MfmaOp op, int lane, int cbsz, int abid) {
    if (cbsz == 0 || !op.honoursCbszAbid()) return lane;
    int size = 64 >> cbsz;
    return (lane % size + size * abid) & 63;
  }

  static int permuteB(MfmaOp op, int target, int lane, int blgp) {
    if (blgp == 0 || !op.honoursBlgp(target)) return lane;
    switch (blgp & 7) {
      case 1:
        return lane & 31;
      case 2:
        return (lane & 31) + 32;
      case 3:
        return (lane + 16) & 63;
      default:
        return (lane & 15) + 16 * ((blgp & 7) - 4);
    }
  }

  /** Reads item {@code item} of the operand at {@code base} in {@code lane}, as raw bits of its type. */
  static long readItem(int[] regs, int base, MfmaType t, int item, int lane) {
    int reg = base + MfmaLayout.itemRegister(t, item);
    int word = regs[reg * 64 + lane];
    switch (t.bits) {
      case 64:
        return (word & 0xffffffffL) | (long) regs[(reg + 1) * 64 + lane] << 32;
      case 32:
        return word;
      default:
        return (word >>> MfmaLayout.itemShift(t, item)) & ((1 << t.bits) - 1);
    }
  }

  /** An input element converted to the accumulation domain: f32 bits, f64 bits, or a signed int. */
  static long toAccumulatorDomain(MfmaType t, long raw, int mode) {
    switch (t) {
      case F32:
        return FpMode.flushesInput(mode, FpFormat.F32) ? FpFormat.flush(FpFormat.F32, raw & 0xffffffffL) : raw;
      case XF32:
        return roundToXf32((int) raw);
      case F16:
        return Convert.f32FromF16((int) raw, MATRIX_MODE);
      case BF16:
        return (int) raw << 16;
      case FP8:
        return Fp8.fp8ToF32((int) raw);
      case BF8:
        return Fp8.bf8ToF32((int) raw);
      case I8:
        return (byte) raw;
      default:
        return raw;
    }
  }

  /** f32 rounded to 10 fraction bits, nearest even (infinities and NaNs unchanged). */
  static int roundToXf32(int f32) {
    if ((f32 & 0x7f800000) == 0x7f800000) return f32;
    int r = f32 + 0xfff + ((f32 >>> 13) & 1);
    return r & ~0x1fff;
  }

  private static void run(MfmaOp op, int target, int[] regs, int dst, int srcA, int srcB, int srcC, long cConst,
      int cbsz, int abid, int blgp, int mode) {
    if (op.sparse()) throw new IllegalArgumentException(op + " is sparse: use executeSparse");
    Scratch s = SCRATCH.get();
    long[] av = s.a;
    long[] bv = s.b;
    int m = op.m;
    int n = op.n;
    int kk = op.k;
    int blocks = op.blocks;
    boolean f64 = op.typeCd == MfmaType.F64;
    boolean negA = f64 && target == MfmaOp.GFX940 && (blgp & 1) != 0;
    boolean negB = f64 && target == MfmaOp.GFX940 && (blgp & 2) != 0;
    boolean negC = f64 && target == MfmaOp.GFX940 && (blgp & 4) != 0;
    for (int b = 0; b < blocks; b++) {
      for (int i = 0; i < m; i++) {
        for (int k = 0; k < kk; k++) {
          int lane = permuteA(op, MfmaLayout.aLane(op, b, i, k), cbsz, abid);
          long raw = readItem(regs, srcA, op.typeA, MfmaLayout.aItem(op, k), lane);
          long v = toAccumulatorDomain(op.typeA, raw, mode);
          av[(b * m + i) * kk + k] = negA ? v ^ Long.MIN_VALUE : v;
        }
      }
      for (int k = 0; k < kk; k++) {
        for (int j = 0; j < n; j++) {
          int lane = permuteB(op, target, MfmaLayout.bLane(op, b, k, j), blgp);
          long raw = readItem(regs, srcB, op.typeB, MfmaLayout.bItem(op, k), lane);
          long v = toAccumulatorDomain(op.typeB, raw, mode);
          bv[(b * kk + k) * n + j] = negB ? v ^ Long.MIN_VALUE : v;
        }
      }
    }
    // Java's fused multiply-add is IEEE nearest-even with denormals, i.e. the matrix core's arithmetic; only NaN
    // results need the architectural NaN rules, so an element whose fast result is NaN is recomputed bit by bit.
    int elementsA = blocks * m * kk;
    int elementsB = blocks * kk * n;
    float[] af = s.af;
    float[] bf = s.bf;
    double[] ad = s.ad;
    double[] bd = s.bd;
    for (int x = 0; x < elementsA; x++) {
      if (f64) {
        ad[x] = Double.longBitsToDouble(av[x]);
      } else {
        af[x] = Float.intBitsToFloat((int) av[x]);
      }
    }
    for (int x = 0; x < elementsB; x++) {
      if (f64) {
        bd[x] = Double.longBitsToDouble(bv[x]);
      } else {
        bf[x] = Float.intBitsToFloat((int) bv[x]);
      }
    }
    int[] d = s.d;
    int regsCd = op.registersCd();
    for (int b = 0; b < blocks; b++) {
      for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
          int lane = MfmaLayout.dLane(op, b, i, j);
          int reg = MfmaLayout.itemRegister(op.typeCd, MfmaLayout.dItem(op, b, i, j));
          int aBase = (b * m + i) * kk;
          int bBase = b * kk * n + j;
          if (f64) {
            long acc = srcC >= 0 ? (regs[(srcC + reg) * 64 + lane] & 0xffffffffL)
                | (long) regs[(srcC + reg + 1) * 64 + lane] << 32 : cConst;
            if (negC) acc ^= Long.MIN_VALUE;
            double fast = Double.longBitsToDouble(acc);
            for (int k = 0; k < kk; k++) fast = Math.fma(ad[aBase + k], bd[bBase + k * n], fast);
            if (fast == fast) {
              acc = Double.doubleToRawLongBits(fast);
            } else {
              for (int k = 0; k < kk; k++) acc = F64Ops.fma(av[aBase + k], bv[bBase + k * n], acc, MATRIX_MODE);
            }
            d[reg * 64 + lane] = (int) acc;
            d[(reg + 1) * 64 + lane] = (int) (acc >>> 32);
          } else if (op.typeCd == MfmaType.I32) {
            int acc = srcC >= 0 ? regs[(srcC + reg) * 64 + lane] : (int) cConst;
            for (int k = 0; k < kk; k++) acc += (int) av[aBase + k] * (int) bv[bBase + k * n];
            d[reg * 64 + lane] = acc;
          } else {
            int acc = srcC >= 0 ? regs[(srcC + reg) * 64 + lane] : (int) cConst;
            float fast = Float.intBitsToFloat(acc);
            for (int k = 0; k < kk; k++) fast = Math.fma(af[aBase + k], bf[bBase + k * n], fast);
            if (fast == fast) {
              acc = Float.floatToRawIntBits(fast);
            } else {
              for (int k = 0; k < kk; k++) {
                acc = F32Ops.fma((int) av[aBase + k], (int) bv[bBase + k * n], acc, MATRIX_MODE);
              }
            }
            d[reg * 64 + lane] = acc;
          }
        }
      }
    }
    System.arraycopy(d, 0, regs, dst * 64, regsCd * 64);
  }

  /**
   * SMFMAC (gfx940): D += A x B with A 4:2 structured-sparse. A holds the two non-zero values of every group of
   * four K positions; {@code srcIndex} (always an architectural VGPR) holds their positions, two 2-bit fields per
   * group. With CBSZ = 0, ABID selects which 8-bit (16-bit data) or 16-bit (8-bit data) set of the index register
   * is used; otherwise the first. C is D's own registers. Each group contributes its two products in slot order
   * (the positions must be increasing).
   */
  public static void executeSparse(MfmaOp op, int[] regs, int dst, int srcA, int srcB, int srcIndex, int cbsz,
      int abid, int mode) {
    if (!op.sparse()) throw new IllegalArgumentException(op + " is dense: use execute");
    Scratch s = SCRATCH.get();
    long[] av = s.a;
    long[] bv = s.b;
    int m = op.m;
    int n = op.n;
    int kk = op.k;
    int kc = kk / 2;
    boolean eightBit = op.typeA.bits == 8;
    int setBits = eightBit ? 16 : 8;
    int set = cbsz == 0 ? (eightBit ? abid & 1 : abid & 3) : 0;
    // Compressed A values in a[], their dense K positions in the upper half of b[].
    for (int i = 0; i < m; i++) {
      for (int c = 0; c < kc; c++) {
        int lane = MfmaLayout.sparseALane(op, i, c);
        long raw = readItem(regs, srcA, op.typeA, MfmaLayout.sparseAItem(op, c), lane);
        int group = c / 2;
        int nibble = (regs[srcIndex * 64 + lane] >>> (setBits * set + MfmaLayout.sparseIndexShift(op, group))) & 15;
        int position = 4 * group + ((c & 1) == 0 ? nibble & 3 : nibble >>> 2);
        av[i * kc + c] = toAccumulatorDomain(op.typeA, raw, mode);
        bv[1024 + i * kc + c] = position;
      }
    }
    int[] d = s.d;
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < n; j++) {
        int lane = MfmaLayout.dLane(op, 0, i, j);
        int reg = MfmaLayout.itemRegister(op.typeCd, MfmaLayout.dItem(op, 0, i, j));
        int acc = regs[(dst + reg) * 64 + lane];
        for (int c = 0; c < kc; c++) {
          int k = (int) bv[1024 + i * kc + c];
          int bl = MfmaLayout.bLane(op, 0, k, j);
          long b = toAccumulatorDomain(op.typeB, readItem(regs, srcB, op.typeB, MfmaLayout.bItem(op, k), bl), mode);
          if (op.typeCd == MfmaType.I32) {
            acc += (int) av[i * kc + c] * (int) b;
          } else {
            acc = F32Ops.fma((int) av[i * kc + c], (int) b, acc, MATRIX_MODE);
          }
        }
        d[reg * 64 + lane] = acc;
      }
    }
    System.arraycopy(d, 0, regs, dst * 64, op.registersCd() * 64);
  }
}
