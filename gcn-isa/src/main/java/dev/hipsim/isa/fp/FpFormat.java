package dev.hipsim.isa.fp;

/**
 * The IEEE-style binary formats the ALU rounds to, as small integer codes (so that hot paths switch on an int and
 * never allocate). Values travel as raw bits in the low bits of a {@code long}.
 */
public final class FpFormat {
  private FpFormat() {}

  public static final int F16 = 0;
  public static final int BF16 = 1;
  public static final int F32 = 2;
  public static final int F64 = 3;

  private static final int[] MANTISSA_BITS = {10, 7, 23, 52};
  private static final int[] EXPONENT_BITS = {5, 8, 8, 11};

  public static int mantissaBits(int format) {
    return MANTISSA_BITS[format];
  }

  public static int exponentBits(int format) {
    return EXPONENT_BITS[format];
  }

  /** Total width in bits (16, 16, 32 or 64). */
  public static int width(int format) {
    return 1 + MANTISSA_BITS[format] + EXPONENT_BITS[format];
  }

  public static int bias(int format) {
    return (1 << (EXPONENT_BITS[format] - 1)) - 1;
  }

  /** F16 and F64 follow MODE's double/half fields; F32 and BF16 the single ones. */
  static boolean usesDoubleFields(int format) {
    return format == F16 || format == F64;
  }

  public static long signBit(int format) {
    return 1L << (width(format) - 1);
  }

  public static long exponentMask(int format) {
    return ((1L << EXPONENT_BITS[format]) - 1) << MANTISSA_BITS[format];
  }

  public static long mantissaMask(int format) {
    return (1L << MANTISSA_BITS[format]) - 1;
  }

  public static long quietBit(int format) {
    return 1L << (MANTISSA_BITS[format] - 1);
  }

  public static long infinity(int format, boolean negative) {
    return exponentMask(format) | (negative ? signBit(format) : 0);
  }

  public static long maxFinite(int format, boolean negative) {
    return (exponentMask(format) - (1L << MANTISSA_BITS[format])) | mantissaMask(format)
        | (negative ? signBit(format) : 0);
  }

  /**
   * The NaN an invalid operation produces on CDNA: negative, quiet, empty payload (0xffc00000 for f32, 0xfe00 for
   * f16, 0xfff8000000000000 for f64), as the ISA's V_DIV_FIXUP and V_LOG examples show.
   */
  public static long defaultNaN(int format) {
    return signBit(format) | exponentMask(format) | quietBit(format);
  }

  public static boolean isNaN(int format, long bits) {
    return (bits & ~signBit(format) & (signBit(format) * 2 - 1)) > exponentMask(format);
  }

  public static boolean isSignalingNaN(int format, long bits) {
    return isNaN(format, bits) && (bits & quietBit(format)) == 0;
  }

  public static boolean isInfinite(int format, long bits) {
    return (bits & ~signBit(format)) == exponentMask(format);
  }

  /** Zero of either sign. */
  public static boolean isZero(int format, long bits) {
    return (bits & ~signBit(format)) == 0;
  }

  public static boolean isSubnormal(int format, long bits) {
    return (bits & exponentMask(format)) == 0 && (bits & mantissaMask(format)) != 0;
  }

  public static boolean isNegative(int format, long bits) {
    return (bits & signBit(format)) != 0;
  }

  /** Replaces a subnormal by a zero of the same sign; every other value is returned unchanged. */
  public static long flush(int format, long bits) {
    return isSubnormal(format, bits) ? bits & signBit(format) : bits;
  }

  /** Biased exponent field (0 for zeros and subnormals). */
  public static int exponentField(int format, long bits) {
    return (int) ((bits & exponentMask(format)) >>> MANTISSA_BITS[format]);
  }
}
