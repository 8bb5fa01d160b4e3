package dev.hipsim.isa.interp;

/**
 * A VALU operation over all 64 lanes at once whose lanes also read or write one bit of a lane mask: the carry
 * chain ({@code v_add_co}, {@code v_addc_co}, {@code v_sub_co}, ...), the integer compares and {@code v_cndmask}.
 * Used only for a full EXEC without the clamp bit, where its results are exactly the lane function's; it never
 * declines.
 */
@FunctionalInterface
interface MaskWaveFn {
  /**
   * Lane {@code l}'s sources are {@code a[ao + l]} and {@code b[bo + l]}, its mask input bit {@code l} of
   * {@code maskIn}; a result goes to {@code v[d + l]}. Returns the mask output (carries, compare results), 0 when
   * the operation has none.
   */
  long apply(int[] v, int d, int[] a, int ao, int[] b, int bo, long maskIn);
}
