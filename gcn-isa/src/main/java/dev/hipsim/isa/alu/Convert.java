package dev.hipsim.isa.alu;

import static dev.hipsim.isa.fp.FpFormat.BF16;
import static dev.hipsim.isa.fp.FpFormat.F16;
import static dev.hipsim.isa.fp.FpFormat.F32;
import static dev.hipsim.isa.fp.FpFormat.F64;

import dev.hipsim.isa.fp.Fp8;
import dev.hipsim.isa.fp.FpFormat;
import dev.hipsim.isa.fp.FpMode;
import dev.hipsim.isa.fp.SoftFloat;

/**
 * The V_CVT_* conversions. Float sources are flushed per their own precision's MODE field, float results rounded
 * and flushed per the destination's (as the guide says for V_CVT_F16_F32 / V_CVT_F32_F16). Float-to-integer
 * conversions truncate unless named otherwise, saturate out-of-range values and infinities to the destination
 * range, and turn NaN into 0.
 */
public final class Convert {
  private Convert() {}

  static long u(int a) {
    return a & 0xffffffffL;
  }

  // ---- integer to float

  public static int f32FromI32(int a, int mode) {
    return (int) SoftFloat.fromLong(F32, a, mode);
  }

  public static int f32FromU32(int a, int mode) {
    return (int) SoftFloat.fromLong(F32, u(a), mode);
  }

  public static long f64FromI32(int a) {
    return Double.doubleToRawLongBits(a);
  }

  public static long f64FromU32(int a) {
    return Double.doubleToRawLongBits(u(a));
  }

  public static int f16FromI16(int a, int mode) {
    return (int) SoftFloat.fromLong(F16, (short) a, mode);
  }

  public static int f16FromU16(int a, int mode) {
    return (int) SoftFloat.fromLong(F16, a & 0xffff, mode);
  }

  /** V_CVT_F32_UBYTE0..3: byte {@code n} of the source as an exact float. */
  public static int f32FromUbyte(int a, int n) {
    return Float.floatToRawIntBits((a >>> (8 * n)) & 0xff);
  }

  /** V_CVT_OFF_F32_I4: the signed nibble S0[3:0] divided by 16 (the guide's offset table). */
  public static int offF32FromI4(int a) {
    return Float.floatToRawIntBits(((a << 28) >> 28) / 16.0f);
  }

  // ---- float to integer

  public static int i32FromF32(int a, int mode) {
    return (int) SoftFloat.toInteger(F32, u(a), SoftFloat.TO_INT_TRUNCATE, Integer.MIN_VALUE, Integer.MAX_VALUE, mode);
  }

  public static int u32FromF32(int a, int mode) {
    return (int) SoftFloat.toInteger(F32, u(a), SoftFloat.TO_INT_TRUNCATE, 0, 0xffffffffL, mode);
  }

  public static int i32FromF64(long a, int mode) {
    return (int) SoftFloat.toInteger(F64, a, SoftFloat.TO_INT_TRUNCATE, Integer.MIN_VALUE, Integer.MAX_VALUE, mode);
  }

  public static int u32FromF64(long a, int mode) {
    return (int) SoftFloat.toInteger(F64, a, SoftFloat.TO_INT_TRUNCATE, 0, 0xffffffffL, mode);
  }

  /** V_CVT_I16_F16: a signed 16-bit result (sign-extended in the int). */
  public static int i16FromF16(int a, int mode) {
    return (int) SoftFloat.toInteger(F16, a & 0xffff, SoftFloat.TO_INT_TRUNCATE, Short.MIN_VALUE, Short.MAX_VALUE,
        mode);
  }

  public static int u16FromF16(int a, int mode) {
    return (int) SoftFloat.toInteger(F16, a & 0xffff, SoftFloat.TO_INT_TRUNCATE, 0, 0xffff, mode);
  }

  /**
   * V_CVT_RPI_I32_F32: floor(a + 0.5). The addition is evaluated exactly (halves go up), as AMD's emulator
   * observed on hardware; the guide's pseudocode would round the f32 addition first, which differs only for
   * inputs within half an ULP below a half-integer.
   */
  public static int rpiI32FromF32(int a, int mode) {
    return (int) SoftFloat.toInteger(F32, u(a), SoftFloat.TO_INT_HALF_UP, Integer.MIN_VALUE, Integer.MAX_VALUE, mode);
  }

  /** V_CVT_FLR_I32_F32: floor(a). */
  public static int flrI32FromF32(int a, int mode) {
    return (int) SoftFloat.toInteger(F32, u(a), SoftFloat.TO_INT_FLOOR, Integer.MIN_VALUE, Integer.MAX_VALUE, mode);
  }

  // ---- float to float

  public static int f16FromF32(int a, int mode) {
    return (int) SoftFloat.convert(F32, u(a), F16, mode);
  }

  public static int f32FromF16(int a, int mode) {
    return (int) SoftFloat.convert(F16, a & 0xffff, F32, mode);
  }

  public static int f32FromF64(long a, int mode) {
    return (int) SoftFloat.convert(F64, a, F32, mode);
  }

  public static long f64FromF32(int a, int mode) {
    return SoftFloat.convert(F32, u(a), F64, mode);
  }

  /** BF16 to f32 (exact: the bf16 is the high half of the f32). */
  public static int f32FromBf16(int a) {
    return a << 16;
  }

  /** f32 to BF16, rounded per the single-precision MODE fields. */
  public static int bf16FromF32(int a, int mode) {
    return (int) SoftFloat.convert(F32, u(a), BF16, mode);
  }

  /** V_CVT_PKRTZ_F16_F32: two f32 to packed f16, rounding toward zero whatever MODE says. */
  public static int pkrtzF16FromF32(int lo, int hi, int mode) {
    int m = FpMode.withRound(mode, F16, FpMode.ROUND_TOWARD_ZERO);
    return f16FromF32(hi, m) << 16 | f16FromF32(lo, m);
  }

  // ---- normalized and small integers

  /**
   * f32_to_snorm: clamp to [-1, 1], scale by 32767, round to nearest even; NaN gives 0. (The guide names the
   * function without defining its rounding; D3D's float-to-SNORM rule is used.)
   */
  static int snorm(double x) {
    if (x != x) return 0;
    return (int) Math.rint(Math.max(-1.0, Math.min(1.0, x)) * 32767.0);
  }

  /** f32_to_unorm: clamp to [0, 1], scale by 65535, round to nearest even; NaN gives 0. */
  static int unorm(double x) {
    if (x != x) return 0;
    return (int) Math.rint(Math.max(0.0, Math.min(1.0, x)) * 65535.0);
  }

  static double f32Value(int a, int mode) {
    return Float.intBitsToFloat((int) FloatOps.in(F32, u(a), mode));
  }

  static double f16Value(int a, int mode) {
    return dev.hipsim.isa.fp.Half.toFloat((int) FloatOps.in(F16, a & 0xffff, mode));
  }

  public static int pknormI16FromF32(int lo, int hi, int mode) {
    return (snorm(f32Value(hi, mode)) & 0xffff) << 16 | (snorm(f32Value(lo, mode)) & 0xffff);
  }

  public static int pknormU16FromF32(int lo, int hi, int mode) {
    return unorm(f32Value(hi, mode)) << 16 | unorm(f32Value(lo, mode));
  }

  public static int pknormI16FromF16(int lo, int hi, int mode) {
    return (snorm(f16Value(hi, mode)) & 0xffff) << 16 | (snorm(f16Value(lo, mode)) & 0xffff);
  }

  public static int pknormU16FromF16(int lo, int hi, int mode) {
    return unorm(f16Value(hi, mode)) << 16 | unorm(f16Value(lo, mode));
  }

  /** V_CVT_NORM_I16_F16 (16-bit result). */
  public static int normI16FromF16(int a, int mode) {
    return snorm(f16Value(a, mode)) & 0xffff;
  }

  /** V_CVT_NORM_U16_F16 (16-bit result). */
  public static int normU16FromF16(int a, int mode) {
    return unorm(f16Value(a, mode));
  }

  /** f32_to_u8: round to nearest even, clamp to [0, 255], NaN gives 0 (the guide does not define it further). */
  static int u8(int a, int mode) {
    double x = f32Value(a, mode);
    if (x != x) return 0;
    return (int) Math.max(0, Math.min(255, Math.rint(x)));
  }

  /** V_CVT_PK_U8_F32: S2 with byte S1[1:0] replaced by f32_to_u8(S0). */
  public static int pkU8FromF32(int a, int byteSelect, int into, int mode) {
    int shift = (byteSelect & 3) * 8;
    return (into & ~(0xff << shift)) | u8(a, mode) << shift;
  }

  /** V_CVT_PKACCUM_U8_F32: the destination with byte S1[1:0] replaced by f32_to_u8(S0). */
  public static int pkaccumU8FromF32(int a, int byteSelect, int dst, int mode) {
    return pkU8FromF32(a, byteSelect, dst, mode);
  }

  /** V_CVT_PK_U16_U32: both sources saturated to u16. */
  public static int pkU16FromU32(int lo, int hi) {
    return (int) Math.min(u(hi), 0xffff) << 16 | (int) Math.min(u(lo), 0xffff);
  }

  /** V_CVT_PK_I16_I32: both sources saturated to i16. */
  public static int pkI16FromI32(int lo, int hi) {
    int l = Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, lo));
    int h = Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, hi));
    return h << 16 | (l & 0xffff);
  }

  /** V_SAT_PK_U8_I16: the two signed halves saturated to u8, packed into 16 bits. */
  public static int satPkU8FromI16(int a) {
    int lo = Math.max(0, Math.min(255, (short) a));
    int hi = Math.max(0, Math.min(255, (short) (a >>> 16)));
    return hi << 8 | lo;
  }

  // ---- 8-bit floats (gfx940+, FNUZ formats)

  /** V_CVT_F32_FP8 of byte {@code n} (SDWA src0_sel picks the byte; 0 without SDWA). */
  public static int f32FromFp8(int a, int n) {
    return Fp8.fp8ToF32(a >>> (8 * n));
  }

  public static int f32FromBf8(int a, int n) {
    return Fp8.bf8ToF32(a >>> (8 * n));
  }

  /** V_CVT_PK_F32_FP8: the two FP8 bytes of word {@code word} as two f32, packed lo | hi << 32. */
  public static long pkF32FromFp8(int a, int word) {
    int w = a >>> (16 * word);
    return u(Fp8.fp8ToF32(w)) | u(Fp8.fp8ToF32(w >>> 8)) << 32;
  }

  public static long pkF32FromBf8(int a, int word) {
    int w = a >>> (16 * word);
    return u(Fp8.bf8ToF32(w)) | u(Fp8.bf8ToF32(w >>> 8)) << 32;
  }

  /**
   * V_CVT_PK_FP8_F32: {fp8(S1), fp8(S0)} written to the low (op_sel[3] = 0) or high half of {@code old}, the
   * other half preserved. Round to nearest even; saturation follows MODE.FP16_OVFL.
   */
  public static int pkFp8FromF32(int s0, int s1, int old, boolean high, int mode) {
    boolean sat = FpMode.fp16Overflow(mode);
    int pair = Fp8.f32ToFp8(s1, sat) << 8 | Fp8.f32ToFp8(s0, sat);
    return high ? (old & 0xffff) | pair << 16 : (old & 0xffff0000) | pair;
  }

  public static int pkBf8FromF32(int s0, int s1, int old, boolean high, int mode) {
    boolean sat = FpMode.fp16Overflow(mode);
    int pair = Fp8.f32ToBf8(s1, sat) << 8 | Fp8.f32ToBf8(s0, sat);
    return high ? (old & 0xffff) | pair << 16 : (old & 0xffff0000) | pair;
  }

  /**
   * V_CVT_SR_FP8_F32: stochastic rounding as the guide's pseudocode puts it: S1[31:12] is added to the 23-bit
   * mantissa (wrapping inside the mantissa), then the value is converted with nearest-even rounding; the byte
   * lands in byte op_sel[3:2] of {@code old}.
   */
  public static int srFp8FromF32(int s0, int seed, int old, int byteSelect, int mode) {
    int v = withStochasticMantissa(s0, seed >>> 12);
    int b = Fp8.f32ToFp8(v, FpMode.fp16Overflow(mode));
    int shift = (byteSelect & 3) * 8;
    return (old & ~(0xff << shift)) | b << shift;
  }

  /** V_CVT_SR_BF8_F32: as {@link #srFp8FromF32} with S1[31:11]. */
  public static int srBf8FromF32(int s0, int seed, int old, int byteSelect, int mode) {
    int v = withStochasticMantissa(s0, seed >>> 11);
    int b = Fp8.f32ToBf8(v, FpMode.fp16Overflow(mode));
    int shift = (byteSelect & 3) * 8;
    return (old & ~(0xff << shift)) | b << shift;
  }

  private static int withStochasticMantissa(int f32, int add) {
    if (FpFormat.isNaN(F32, u(f32)) || (f32 & 0x7fffffff) == 0x7f800000) return f32;
    int m = (f32 + add) & 0x7fffff;
    return (f32 & 0xff800000) | m;
  }
}
