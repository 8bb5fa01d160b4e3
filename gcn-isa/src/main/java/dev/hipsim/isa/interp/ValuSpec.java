package dev.hipsim.isa.interp;

import dev.hipsim.isa.fp.FpFormat;

/**
 * How a VALU operation reads and writes: the bit width of each source (0 when absent) and of the result, the float
 * format its output modifiers apply to (or -1), what it does with the lane mask (compare, carry), the lane
 * function, and optionally a whole-wave form of it ({@link WaveFn}, or {@link MaskWaveFn} for the operations with
 * a lane mask; null for most operations).
 */
record ValuSpec(int w0, int w1, int w2, int wd, int outputFormat, int flags, LaneFn fn, WaveFn wave,
    MaskWaveFn maskWave) {
  ValuSpec(int w0, int w1, int w2, int wd, int outputFormat, int flags, LaneFn fn) {
    this(w0, w1, w2, wd, outputFormat, flags, fn, null, null);
  }

  ValuSpec withWave(WaveFn f) {
    return new ValuSpec(w0, w1, w2, wd, outputFormat, flags, fn, f, maskWave);
  }

  ValuSpec withMaskWave(MaskWaveFn f) {
    return new ValuSpec(w0, w1, w2, wd, outputFormat, flags, fn, wave, f);
  }

  /** The result is one bit per lane, written to the scalar destination (VCC or an SGPR pair). */
  static final int COMPARE = 1;
  /** Like COMPARE, and EXEC takes the result too (v_cmpx). */
  static final int COMPARE_EXEC = 2;
  /** Bit 32 of the 32-bit result is a carry/borrow written to the scalar destination. */
  static final int CARRY_OUT = 4;
  /** Source 2 is a lane mask (VCC or an SGPR pair): c is that lane's bit. */
  static final int MASK_IN = 8;
  /** The destination is also read as source 2 (v_mac, v_fmac): c is the old destination. */
  static final int ACCUMULATE = 16;
  /** Bit 32 of the result is the VCC flag of v_div_scale. */
  static final int FLAG_OUT = 32;

  static final int NONE = -1;
  static final int F16 = FpFormat.F16;
  static final int F32 = FpFormat.F32;
  static final int F64 = FpFormat.F64;

  boolean has(int flag) {
    return (flags & flag) != 0;
  }

  int sourceCount() {
    return w2 != 0 ? 3 : w1 != 0 ? 2 : w0 != 0 ? 1 : 0;
  }
}
