package dev.hipsim.isa.fp;

/**
 * The 8-bit float formats of gfx940/gfx942 (CDNA3), which are the "FNUZ" variants: no infinities, no negative
 * zero, and the single NaN 0x80.
 * <ul>
 *   <li>FP8 = E4M3FNUZ: exponent bias 8, largest 240 (0x7f), smallest denormal 2^-10.
 *   <li>BF8 = E5M2FNUZ: exponent bias 16, largest 57344 (0x7f), smallest denormal 2^-17.
 * </ul>
 * Conversions from f32 round to nearest even. A NaN becomes 0x80; an infinity or a value that rounds beyond the
 * largest magnitude becomes 0x80 too, unless saturation (MODE.FP16_OVFL, following the CDNA4 guide's table for
 * the same instructions) is requested, which gives +-largest. Source: LLVM's f8E4M3FNUZ/f8E5M2FNUZ semantics and
 * the CDNA3 ISA guide (gfx940 uses FNUZ, gfx950 the OCP formats).
 */
public final class Fp8 {
  private Fp8() {}

  public static final int NAN = 0x80;

  /** Decodes an FP8 (E4M3FNUZ) byte to f32 bits. */
  public static int fp8ToF32(int b) {
    return decode(b & 0xff, 3, 8);
  }

  /** Decodes a BF8 (E5M2FNUZ) byte to f32 bits. */
  public static int bf8ToF32(int b) {
    return decode(b & 0xff, 2, 16);
  }

  private static int decode(int b, int man, int bias) {
    if (b == NAN) return 0xffc00000; // the negative default NaN: the sign bit is the NaN's only set bit
    if ((b & 0x7f) == 0) return 0;
    int sign = (b & 0x80) << 24;
    int field = (b & 0x7f) >>> man;
    int m = b & ((1 << man) - 1);
    float magnitude;
    if (field == 0) {
      magnitude = Math.scalb((float) m, 1 - bias - man);
    } else {
      magnitude = Math.scalb((float) ((1 << man) | m), field - bias - man);
    }
    return sign | Float.floatToRawIntBits(magnitude);
  }

  /** Encodes f32 bits as FP8 (E4M3FNUZ), nearest even. */
  public static int f32ToFp8(int f32, boolean saturate) {
    return encode(f32, 3, 8, saturate);
  }

  /** Encodes f32 bits as BF8 (E5M2FNUZ), nearest even. */
  public static int f32ToBf8(int f32, boolean saturate) {
    return encode(f32, 2, 16, saturate);
  }

  private static int encode(int f32, int man, int bias, boolean saturate) {
    int mag = f32 & 0x7fffffff;
    if (mag > 0x7f800000) return NAN;
    boolean negative = f32 < 0;
    int maxCode = 0x7f;
    if (mag == 0x7f800000) return saturate ? (negative ? 0x80 | maxCode : maxCode) : NAN;
    if (mag == 0) return 0;
    long bits = mag & 0xffffffffL;
    long sig = SoftFloat.significand(FpFormat.F32, bits);
    int exp = SoftFloat.exponent(FpFormat.F32, bits);
    int emin = 1 - bias;
    int lead = exp + 63 - Long.numberOfLeadingZeros(sig);
    int quantum = Math.max(lead, emin) - man;
    long m = SoftFloat.roundToInteger(sig, exp, quantum, negative, FpMode.ROUND_NEAREST_EVEN);
    if (m == 1L << (man + 1)) {
      m >>>= 1;
      quantum++;
    }
    if (m == 0) return 0; // no negative zero in FNUZ
    int code;
    if (m >= 1L << man) {
      int field = quantum + man + bias;
      if (field > 15 + (man == 2 ? 16 : 0)) return saturate ? (negative ? 0x80 | maxCode : maxCode) : NAN;
      code = field << man | (int) (m & ((1 << man) - 1));
    } else {
      code = (int) m;
    }
    return negative ? 0x80 | code : code;
  }
}
