package dev.hipsim.isa.interp;

import dev.hipsim.isa.alu.F32Ops;
import dev.hipsim.isa.exec.Wave;

/**
 * Whole-wave forms ({@link WaveFn}) of the f32 add, subtract, multiply and fused multiply-add. They accept only
 * when MODE is the default (round to nearest even, denormals kept: Java's float arithmetic), and then give exactly
 * {@link F32Ops}' results in one pass over the lanes.
 *
 * <p>Why one pass is exact: in the default mode {@link F32Ops} returns Java's result whenever that result is not a
 * NaN, and every NaN input makes a NaN result. So each lane's Java result is kept unless it is a NaN; a NaN lane
 * keeps its old destination value (branch-free), which leaves its sources intact even where the destination is one
 * of them ({@code v_fmac_f32}, {@code v_add_f32 v1, v1, v2}), and is then redone by {@link F32Ops}, which applies
 * the GPU's NaN rules. A separate pass to prove the sources finite first cost, under C1, as much as the arithmetic.
 */
final class F32WaveOps {
  private F32WaveOps() {}

  /** 1 when the f32 {@code bits} is a NaN, else 0. */
  static int nan(int bits) {
    return (0x7f80_0000 - (bits & 0x7fff_ffff)) >>> 31;
  }

  /** {@code result}, or {@code old} where {@code nan} is 1. */
  private static int keep(int result, int old, int nan) {
    return result ^ ((result ^ old) & -nan);
  }

  static boolean add(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    if (!F32Ops.fast(mode)) return false;
    long nans = 0;
    for (int l = 0; l < Wave.LANES; l++) {
      int r = Float.floatToRawIntBits(Float.intBitsToFloat(a[ao + l]) + Float.intBitsToFloat(b[bo + l]));
      int n = nan(r);
      v[d + l] = keep(r, v[d + l], n);
      nans |= (long) n << l;
    }
    for (long m = nans; m != 0; m &= m - 1) {
      int l = Long.numberOfTrailingZeros(m);
      v[d + l] = F32Ops.add(a[ao + l], b[bo + l], mode);
    }
    return true;
  }

  static boolean sub(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    if (!F32Ops.fast(mode)) return false;
    long nans = 0;
    for (int l = 0; l < Wave.LANES; l++) {
      int r = Float.floatToRawIntBits(Float.intBitsToFloat(a[ao + l]) - Float.intBitsToFloat(b[bo + l]));
      int n = nan(r);
      v[d + l] = keep(r, v[d + l], n);
      nans |= (long) n << l;
    }
    for (long m = nans; m != 0; m &= m - 1) {
      int l = Long.numberOfTrailingZeros(m);
      v[d + l] = F32Ops.sub(a[ao + l], b[bo + l], mode);
    }
    return true;
  }

  static boolean mul(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    if (!F32Ops.fast(mode)) return false;
    long nans = 0;
    for (int l = 0; l < Wave.LANES; l++) {
      int r = Float.floatToRawIntBits(Float.intBitsToFloat(a[ao + l]) * Float.intBitsToFloat(b[bo + l]));
      int n = nan(r);
      v[d + l] = keep(r, v[d + l], n);
      nans |= (long) n << l;
    }
    for (long m = nans; m != 0; m &= m - 1) {
      int l = Long.numberOfTrailingZeros(m);
      v[d + l] = F32Ops.mul(a[ao + l], b[bo + l], mode);
    }
    return true;
  }

  /** V_FMA_F32 and V_FMAC_F32 (whose c is the old destination): one rounding, as {@link Math#fma} does. */
  static boolean fma(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    if (!F32Ops.fast(mode)) return false;
    long nans = 0;
    for (int l = 0; l < Wave.LANES; l++) {
      int r = Float.floatToRawIntBits(Math.fma(Float.intBitsToFloat(a[ao + l]), Float.intBitsToFloat(b[bo + l]),
          Float.intBitsToFloat(c[co + l])));
      int n = nan(r);
      v[d + l] = keep(r, v[d + l], n);
      nans |= (long) n << l;
    }
    for (long m = nans; m != 0; m &= m - 1) {
      int l = Long.numberOfTrailingZeros(m);
      v[d + l] = F32Ops.fma(a[ao + l], b[bo + l], c[co + l], mode);
    }
    return true;
  }
}
