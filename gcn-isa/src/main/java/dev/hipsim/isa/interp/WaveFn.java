package dev.hipsim.isa.interp;

/**
 * A VALU operation over all 64 lanes at once, for the common case only: it may decline (return false, having
 * written nothing), and the lane function then does the work lane by lane. Where it accepts, its results are
 * exactly the lane function's. Its loops have no branches and no dependences between lanes, so C2 compiles them
 * to a few vector instructions, where the lane function's special cases (NaN, infinity, rounding and denormal
 * modes) keep the lane loop scalar.
 */
@FunctionalInterface
interface WaveFn {
  /**
   * Lane {@code l}'s sources are {@code a[ao + l]}, {@code b[bo + l]}, {@code c[co + l]}; its result goes to
   * {@code v[d + l]}.
   */
  boolean apply(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, int mode);
}
