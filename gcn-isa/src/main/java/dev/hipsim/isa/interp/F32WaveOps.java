package dev.hipsim.isa.interp;

import dev.hipsim.isa.alu.F32Ops;
import dev.hipsim.isa.exec.Wave;

/**
 * Whole-wave forms ({@link WaveFn}) of the f32 add, subtract, multiply and fused multiply-add. They accept only
 * when MODE is the default (round to nearest even, denormals kept: Java's float arithmetic) and no source lane is
 * a NaN or an infinity. Then no result is a NaN either, so {@link F32Ops}' NaN handling has nothing to do and the
 * results are exactly its results, from a loop C2 vectorises.
 */
final class F32WaveOps {
  private F32WaveOps() {}

  /**
   * Whether every lane of two sources is finite, in one pass. A lane's exponent field plus one at its lowest bit
   * carries into the sign bit only when the field is all ones (an infinity or a NaN); or-ing the sums keeps the loop
   * free of branches.
   */
  static boolean finite(int[] x, int xo, int[] y, int yo) {
    int carry = 0;
    for (int l = 0; l < Wave.LANES; l++) carry |= exponentCarry(x[xo + l]) | exponentCarry(y[yo + l]);
    return carry >= 0;
  }

  /** Whether every lane of three sources is finite, in one pass. */
  static boolean finite(int[] x, int xo, int[] y, int yo, int[] z, int zo) {
    int carry = 0;
    for (int l = 0; l < Wave.LANES; l++) {
      carry |= exponentCarry(x[xo + l]) | exponentCarry(y[yo + l]) | exponentCarry(z[zo + l]);
    }
    return carry >= 0;
  }

  /** Negative exactly when the f32 {@code bits} is an infinity or a NaN. */
  private static int exponentCarry(int bits) {
    return (bits & 0x7f80_0000) + 0x0080_0000;
  }

  static boolean add(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    if (!F32Ops.fast(mode) || !finite(a, ao, b, bo)) return false;
    for (int l = 0; l < Wave.LANES; l++) {
      v[d + l] = Float.floatToRawIntBits(Float.intBitsToFloat(a[ao + l]) + Float.intBitsToFloat(b[bo + l]));
    }
    return true;
  }

  static boolean sub(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    if (!F32Ops.fast(mode) || !finite(a, ao, b, bo)) return false;
    for (int l = 0; l < Wave.LANES; l++) {
      v[d + l] = Float.floatToRawIntBits(Float.intBitsToFloat(a[ao + l]) - Float.intBitsToFloat(b[bo + l]));
    }
    return true;
  }

  static boolean mul(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    if (!F32Ops.fast(mode) || !finite(a, ao, b, bo)) return false;
    for (int l = 0; l < Wave.LANES; l++) {
      v[d + l] = Float.floatToRawIntBits(Float.intBitsToFloat(a[ao + l]) * Float.intBitsToFloat(b[bo + l]));
    }
    return true;
  }

  /** V_FMA_F32 and V_FMAC_F32 (whose c is the old destination): one rounding, as {@link Math#fma} does. */
  static boolean fma(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    if (!F32Ops.fast(mode) || !finite(a, ao, b, bo, c, co)) return false;
    for (int l = 0; l < Wave.LANES; l++) {
      v[d + l] = Float.floatToRawIntBits(Math.fma(Float.intBitsToFloat(a[ao + l]), Float.intBitsToFloat(b[bo + l]),
          Float.intBitsToFloat(c[co + l])));
    }
    return true;
  }
}
