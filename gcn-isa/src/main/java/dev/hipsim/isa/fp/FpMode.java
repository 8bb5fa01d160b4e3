package dev.hipsim.isa.fp;

/**
 * The arithmetic fields of the wave's MODE register (hardware register 1), and their derivation from a kernel
 * descriptor. A mode is a plain {@code int} holding the MODE value, so that lane loops can test it with shifts:
 *
 * <pre>
 *   [1:0] FP_ROUND single        [3:2] FP_ROUND double/half     (0 nearest even, 1 +inf, 2 -inf, 3 toward zero)
 *   [5:4] FP_DENORM single       [7:6] FP_DENORM double/half    (bit 0 keeps input denormals, bit 1 output ones)
 *   [8]   DX10_CLAMP (clamp turns NaN into 0)   [9] IEEE (quiet signalling NaNs, IEEE min/max)
 *   [23]  FP16_OVFL (an f16 result that overflows saturates to +-65504, true infinities are kept)
 * </pre>
 *
 * Half precision shares the double fields ("16_64" in the descriptor's naming). BF16 arithmetic uses the single
 * fields. Source: CDNA3/CDNA4 ISA guides, "Mode register"; LLVM AMDGPUUsage, COMPUTE_PGM_RSRC1.
 */
public final class FpMode {
  private FpMode() {}

  public static final int ROUND_NEAREST_EVEN = 0;
  public static final int ROUND_PLUS_INF = 1;
  public static final int ROUND_MINUS_INF = 2;
  public static final int ROUND_TOWARD_ZERO = 3;

  /** FP_DENORM values. */
  public static final int DENORM_FLUSH_ALL = 0;
  public static final int DENORM_FLUSH_OUT = 1;
  public static final int DENORM_FLUSH_IN = 2;
  public static final int DENORM_KEEP = 3;

  public static final int DX10_CLAMP_BIT = 1 << 8;
  public static final int IEEE_BIT = 1 << 9;
  public static final int FP16_OVFL_BIT = 1 << 23;

  /**
   * What the hardware and LLVM use when nothing else is said: round to nearest even, denormals kept in every
   * precision, DX10_CLAMP and IEEE on (the HIP kernel default).
   */
  public static final int DEFAULT = 0xf0 | DX10_CLAMP_BIT | IEEE_BIT;

  public static int roundSingle(int mode) {
    return mode & 3;
  }

  public static int roundDouble(int mode) {
    return (mode >>> 2) & 3;
  }

  public static int denormSingle(int mode) {
    return (mode >>> 4) & 3;
  }

  public static int denormDouble(int mode) {
    return (mode >>> 6) & 3;
  }

  /** Rounding mode for results of the given {@link FpFormat} code. */
  public static int round(int mode, int format) {
    return FpFormat.usesDoubleFields(format) ? roundDouble(mode) : roundSingle(mode);
  }

  /** FP_DENORM field that governs values of the given {@link FpFormat} code. */
  public static int denorm(int mode, int format) {
    return FpFormat.usesDoubleFields(format) ? denormDouble(mode) : denormSingle(mode);
  }

  public static boolean flushesInput(int mode, int format) {
    return (denorm(mode, format) & 1) == 0;
  }

  public static boolean flushesOutput(int mode, int format) {
    return (denorm(mode, format) & 2) == 0;
  }

  public static boolean dx10Clamp(int mode) {
    return (mode & DX10_CLAMP_BIT) != 0;
  }

  public static boolean ieee(int mode) {
    return (mode & IEEE_BIT) != 0;
  }

  public static boolean fp16Overflow(int mode) {
    return (mode & FP16_OVFL_BIT) != 0;
  }

  /** The mode with the rounding field of {@code format} replaced (used by instructions that force a mode). */
  public static int withRound(int mode, int format, int round) {
    int shift = FpFormat.usesDoubleFields(format) ? 2 : 0;
    return (mode & ~(3 << shift)) | ((round & 3) << shift);
  }

  /** The mode with the denormal field of {@code format} replaced. */
  public static int withDenorm(int mode, int format, int denorm) {
    int shift = FpFormat.usesDoubleFields(format) ? 6 : 4;
    return (mode & ~(3 << shift)) | ((denorm & 3) << shift);
  }

  /** The mode with IEEE set or cleared. */
  public static int withIeee(int mode, boolean ieee) {
    return ieee ? mode | IEEE_BIT : mode & ~IEEE_BIT;
  }

  /** Builds a MODE value from its arithmetic fields. */
  public static int of(int roundSingle, int roundDouble, int denormSingle, int denormDouble, boolean dx10Clamp,
      boolean ieee) {
    return (roundSingle & 3) | (roundDouble & 3) << 2 | (denormSingle & 3) << 4 | (denormDouble & 3) << 6
        | (dx10Clamp ? DX10_CLAMP_BIT : 0) | (ieee ? IEEE_BIT : 0);
  }

  // COMPUTE_PGM_RSRC1 fields (AMDGPUUsage, "compute_pgm_rsrc1 for GFX6-GFX12").
  public static final int RSRC1_FLOAT_ROUND_MODE_32_SHIFT = 12;
  public static final int RSRC1_FLOAT_ROUND_MODE_16_64_SHIFT = 14;
  public static final int RSRC1_FLOAT_DENORM_MODE_32_SHIFT = 16;
  public static final int RSRC1_FLOAT_DENORM_MODE_16_64_SHIFT = 18;
  public static final int RSRC1_ENABLE_DX10_CLAMP_BIT = 1 << 21;
  public static final int RSRC1_ENABLE_IEEE_MODE_BIT = 1 << 23;
  public static final int RSRC1_FP16_OVFL_BIT = 1 << 26;

  /**
   * The initial MODE of a wave, from the kernel descriptor's COMPUTE_PGM_RSRC1: the four rounding/denormal fields
   * sit in rsrc1[19:12] in the same order as MODE[7:0], and DX10_CLAMP, IEEE_MODE and FP16_OVFL map to their MODE
   * bits. Other MODE bits start at zero.
   */
  public static int fromComputePgmRsrc1(int rsrc1) {
    int mode = (rsrc1 >>> RSRC1_FLOAT_ROUND_MODE_32_SHIFT) & 0xff;
    if ((rsrc1 & RSRC1_ENABLE_DX10_CLAMP_BIT) != 0) mode |= DX10_CLAMP_BIT;
    if ((rsrc1 & RSRC1_ENABLE_IEEE_MODE_BIT) != 0) mode |= IEEE_BIT;
    if ((rsrc1 & RSRC1_FP16_OVFL_BIT) != 0) mode |= FP16_OVFL_BIT;
    return mode;
  }
}
