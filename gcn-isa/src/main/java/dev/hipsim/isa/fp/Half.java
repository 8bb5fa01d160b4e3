package dev.hipsim.isa.fp;

/**
 * IEEE 754 binary16 (half precision) held in the low 16 bits of an int. Java 17 has no half type, so conversions are
 * written out: exact widening to float, and narrowing with round-to-nearest-even (the default rounding mode).
 */
public final class Half {
  private Half() {}

  public static final int POSITIVE_INFINITY = 0x7c00;
  public static final int NEGATIVE_INFINITY = 0xfc00;
  public static final int QUIET_NAN = 0x7e00;

  /** Widens a half to float exactly (NaN payloads are kept, quieted). */
  public static float toFloat(int half) {
    int sign = (half & 0x8000) << 16;
    int exponent = (half >>> 10) & 0x1f;
    int mantissa = half & 0x3ff;
    if (exponent == 0x1f) {
      return Float.intBitsToFloat(sign | 0x7f80_0000 | (mantissa << 13) | (mantissa != 0 ? 0x40_0000 : 0));
    }
    if (exponent == 0) {
      if (mantissa == 0) return Float.intBitsToFloat(sign);
      // subnormal: mantissa * 2^-24, exact in float
      float magnitude = mantissa * 0x1p-24f;
      return sign != 0 ? -magnitude : magnitude;
    }
    return Float.intBitsToFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
  }

  /**
   * Narrows a non-NaN double to half, rounding to nearest even (overflow gives infinity, subnormal halves are
   * produced). Used by the ALU's default-mode fast paths, where the double is exact or rounded to odd.
   */
  public static int fromDouble(double value) {
    long bits = Double.doubleToRawLongBits(value);
    int sign = (int) (bits >>> 48) & 0x8000;
    int exponent = (int) (bits >>> 52) & 0x7ff;
    long mantissa = bits & 0xf_ffff_ffff_ffffL;
    if (exponent == 0x7ff) return sign | 0x7c00;
    int e = exponent - 1023 + 15;
    if (e >= 0x1f) return sign | 0x7c00;
    long m = mantissa | (exponent == 0 ? 0 : 1L << 52);
    int shift;
    int base;
    if (e <= 0) {
      if (e < -11) return sign; // below half the smallest subnormal
      shift = 42 + 1 - e; // keep the subnormal's 10-bit field
      base = 0;
    } else {
      shift = 42;
      base = e << 10;
      m &= 0xf_ffff_ffff_ffffL;
    }
    long kept = m >>> shift;
    long rest = m & ((1L << shift) - 1);
    long halfway = 1L << (shift - 1);
    int half = base + (int) kept;
    if (rest > halfway || (rest == halfway && (half & 1) != 0)) half++; // a carry into the exponent is correct
    return sign | half;
  }

  /** Narrows a float to half, rounding to nearest even; overflow gives infinity, NaN stays a quiet NaN. */
  public static int fromFloat(float value) {
    int bits = Float.floatToRawIntBits(value);
    int sign = (bits >>> 16) & 0x8000;
    int exponent = (bits >>> 23) & 0xff;
    int mantissa = bits & 0x7f_ffff;
    if (exponent == 0xff) {
      return mantissa == 0 ? sign | 0x7c00 : sign | 0x7e00 | (mantissa >>> 13);
    }
    int e = exponent - 127 + 15;
    if (e >= 0x1f) return sign | 0x7c00;
    if (e <= 0) {
      if (e < -10) return sign; // below half the smallest subnormal: rounds to zero
      int m = mantissa | 0x80_0000; // implicit bit
      int shift = 14 - e; // bits dropped so that the result is in units of 2^-24
      int half = m >>> shift;
      int rest = m & ((1 << shift) - 1);
      int halfway = 1 << (shift - 1);
      if (rest > halfway || (rest == halfway && (half & 1) != 0)) half++;
      return sign | half;
    }
    int half = (e << 10) | (mantissa >>> 13);
    int rest = mantissa & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (half & 1) != 0)) half++; // may carry into the exponent: correct
    return sign | half;
  }
}
