package dev.hipsim.isa.interp;

import dev.hipsim.isa.alu.IntOps;
import dev.hipsim.isa.exec.Wave;

/**
 * Whole-wave forms ({@link WaveFn}) of the 32-bit integer moves, bit operations, shifts and adds that address
 * arithmetic is made of. They decline only a clamped add or subtract (the {@link ValuTable#INT_CLAMP} mode bit);
 * otherwise their results are the lane functions' ({@link dev.hipsim.isa.alu.IntOps}) in every lane.
 *
 * <p>Why: until C2 has compiled an operation's {@link ValuKernel}, the lane loop makes an interface call to the lane
 * function per lane, which C1's code neither inlines nor makes cheap; on a cold JVM that is most of a first
 * dispatch. These loops are plain array arithmetic that even C1 compiles well, and C2 vectorises.
 */
final class IntWaveOps {
  private IntWaveOps() {}

  private static final int N = Wave.LANES;

  private static boolean clamped(int mode) {
    return (mode & ValuTable.INT_CLAMP) != 0;
  }

  static boolean mov(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    System.arraycopy(a, ao, v, d, N);
    return true;
  }

  static boolean add(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    if (clamped(mode)) return false;
    for (int l = 0; l < N; l++) v[d + l] = a[ao + l] + b[bo + l];
    return true;
  }

  static boolean sub(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    if (clamped(mode)) return false;
    for (int l = 0; l < N; l++) v[d + l] = a[ao + l] - b[bo + l];
    return true;
  }

  static boolean subrev(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    if (clamped(mode)) return false;
    for (int l = 0; l < N; l++) v[d + l] = b[bo + l] - a[ao + l];
    return true;
  }

  static boolean and(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    for (int l = 0; l < N; l++) v[d + l] = a[ao + l] & b[bo + l];
    return true;
  }

  static boolean or(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    for (int l = 0; l < N; l++) v[d + l] = a[ao + l] | b[bo + l];
    return true;
  }

  static boolean xor(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    for (int l = 0; l < N; l++) v[d + l] = a[ao + l] ^ b[bo + l];
    return true;
  }

  /** V_LSHLREV_B32: source 0 is the shift. */
  static boolean lshlrev(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    for (int l = 0; l < N; l++) v[d + l] = b[bo + l] << (a[ao + l] & 31);
    return true;
  }

  static boolean lshrrev(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    for (int l = 0; l < N; l++) v[d + l] = b[bo + l] >>> (a[ao + l] & 31);
    return true;
  }

  static boolean ashrrev(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    for (int l = 0; l < N; l++) v[d + l] = b[bo + l] >> (a[ao + l] & 31);
    return true;
  }

  /**
   * V_LSHLREV_B64: a 32-bit shift, a 64-bit value and result as register pairs (low dwords at offset 0, high dwords
   * at offset {@link Wave#LANES}). The destination may be the source pair, so each lane reads before it writes.
   */
  static boolean lshlrev64(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    for (int l = 0; l < N; l++) {
      long x = (b[bo + l] & 0xffff_ffffL) | ((long) b[bo + N + l] << 32);
      long r = x << (a[ao + l] & 63);
      v[d + l] = (int) r;
      v[d + N + l] = (int) (r >>> 32);
    }
    return true;
  }

  static boolean mulLo(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    for (int l = 0; l < N; l++) v[d + l] = a[ao + l] * b[bo + l];
    return true;
  }

  /** V_LSHL_ADD_U32: (a << b) + c. */
  static boolean lshlAdd(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    for (int l = 0; l < N; l++) v[d + l] = (a[ao + l] << (b[bo + l] & 31)) + c[co + l];
    return true;
  }

  static boolean add3(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    for (int l = 0; l < N; l++) v[d + l] = a[ao + l] + b[bo + l] + c[co + l];
    return true;
  }

  /** V_LSHL_OR_B32: (a << b) | c. */
  static boolean lshlOr(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    for (int l = 0; l < N; l++) v[d + l] = (a[ao + l] << (b[bo + l] & 31)) | c[co + l];
    return true;
  }

  /** V_AND_OR_B32: (a & b) | c. */
  static boolean andOr(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    for (int l = 0; l < N; l++) v[d + l] = (a[ao + l] & b[bo + l]) | c[co + l];
    return true;
  }

  static boolean or3(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    for (int l = 0; l < N; l++) v[d + l] = a[ao + l] | b[bo + l] | c[co + l];
    return true;
  }

  /** V_BFE_U32: the {@code c}-bit field of {@code a} at bit {@code b}. */
  static boolean bfeU32(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode) {
    for (int l = 0; l < N; l++) v[d + l] = (a[ao + l] >>> (b[bo + l] & 31)) & ((1 << (c[co + l] & 31)) - 1);
    return true;
  }

  // ---------------------------------------------------------------- with a lane mask (MaskWaveFn)

  private static final long M32 = 0xffff_ffffL;

  /** V_ADD_CO_U32: the sum, and a carry-out bit per lane. */
  static long addCo(int[] v, int d, int[] a, int ao, int[] b, int bo, long maskIn) {
    long carries = 0;
    for (int l = 0; l < N; l++) {
      long r = (a[ao + l] & M32) + (b[bo + l] & M32);
      v[d + l] = (int) r;
      carries |= (r >>> 32) << l;
    }
    return carries;
  }

  /** V_ADDC_CO_U32: a + b + the lane's carry-in bit, and a carry-out bit per lane. */
  static long addc(int[] v, int d, int[] a, int ao, int[] b, int bo, long maskIn) {
    long carries = 0;
    for (int l = 0; l < N; l++) {
      long r = (a[ao + l] & M32) + (b[bo + l] & M32) + ((maskIn >>> l) & 1);
      v[d + l] = (int) r;
      carries |= (r >>> 32) << l;
    }
    return carries;
  }

  /** V_SUB_CO_U32: a - b, and a borrow bit per lane (b > a, unsigned). */
  static long subCo(int[] v, int d, int[] a, int ao, int[] b, int bo, long maskIn) {
    long borrows = 0;
    for (int l = 0; l < N; l++) {
      long r = (a[ao + l] & M32) - (b[bo + l] & M32);
      v[d + l] = (int) r;
      borrows |= (r >>> 63) << l;
    }
    return borrows;
  }

  /** V_SUBREV_CO_U32: b - a, and a borrow bit per lane. */
  static long subrevCo(int[] v, int d, int[] a, int ao, int[] b, int bo, long maskIn) {
    return subCo(v, d, b, bo, a, ao, maskIn);
  }

  /** V_SUBB_CO_U32: a - b - the lane's borrow-in bit, and a borrow bit per lane (b + borrow-in > a). */
  static long subb(int[] v, int d, int[] a, int ao, int[] b, int bo, long maskIn) {
    long borrows = 0;
    for (int l = 0; l < N; l++) {
      long r = (a[ao + l] & M32) - (b[bo + l] & M32) - ((maskIn >>> l) & 1);
      v[d + l] = (int) r;
      borrows |= (r >>> 63) << l;
    }
    return borrows;
  }

  /** V_SUBBREV_CO_U32: b - a - borrow-in. */
  static long subbrev(int[] v, int d, int[] a, int ao, int[] b, int bo, long maskIn) {
    return subb(v, d, b, bo, a, ao, maskIn);
  }

  /** V_CNDMASK_B32: b where the lane's mask bit is set, else a. */
  static long cndmask(int[] v, int d, int[] a, int ao, int[] b, int bo, long maskIn) {
    for (int l = 0; l < N; l++) v[d + l] = ((maskIn >>> l) & 1) != 0 ? b[bo + l] : a[ao + l];
    return 0;
  }

  /**
   * V_CMP(X)_*_I32 / _U32: one bit per lane, {@code p} an {@code IntOps.ICMP_*} predicate. The loops have no
   * branches: the operands are widened to 64 bits (sign- or zero-extended) and the sign of their difference is the
   * lane's "less than"; the other predicates are that, swapped or inverted over all 64 lanes.
   */
  static long compare32(int p, boolean unsigned, int[] a, int ao, int[] b, int bo) {
    long widen = unsigned ? M32 : -1L;
    switch (p) {
      case IntOps.ICMP_F:
        return 0;
      case IntOps.ICMP_T:
        return -1L;
      case IntOps.ICMP_LT:
        return lessThan(a, ao, b, bo, widen);
      case IntOps.ICMP_GE:
        return ~lessThan(a, ao, b, bo, widen);
      case IntOps.ICMP_GT:
        return lessThan(b, bo, a, ao, widen);
      case IntOps.ICMP_LE:
        return ~lessThan(b, bo, a, ao, widen);
      case IntOps.ICMP_EQ:
        return equal(a, ao, b, bo);
      case IntOps.ICMP_NE:
        return ~equal(a, ao, b, bo);
      default:
        throw new IllegalArgumentException("integer compare predicate " + p);
    }
  }

  private static long lessThan(int[] a, int ao, int[] b, int bo, long widen) {
    long bits = 0;
    for (int l = 0; l < N; l++) bits |= ((((long) a[ao + l] & widen) - ((long) b[bo + l] & widen)) >>> 63) << l;
    return bits;
  }

  /** A lane's bit is set when its operands are equal: their xor, zero-extended, minus one is then negative. */
  private static long equal(int[] a, int ao, int[] b, int bo) {
    long bits = 0;
    for (int l = 0; l < N; l++) bits |= ((((long) (a[ao + l] ^ b[bo + l]) & M32) - 1) >>> 63) << l;
    return bits;
  }
}
