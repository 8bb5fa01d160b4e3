package dev.hipsim.isa.alu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.fp.FpMode;
import dev.hipsim.isa.fp.Half;
import java.math.BigDecimal;
import java.math.MathContext;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The division helpers as a whole (LLVM's f32 and f64 division macros must produce the correctly rounded
 * quotient), their special cases, and the documented accuracy of the transcendental approximations.
 */
class DivisionAndApproximationProperties {
  static final int MODE = FpMode.DEFAULT;

  static int f(float v) {
    return Float.floatToRawIntBits(v);
  }

  static float v(int bits) {
    return Float.intBitsToFloat(bits);
  }

  /** LLVM's fdiv f32 lowering (SITargetLowering::LowerFDIV32) on our instruction semantics. */
  static int divideF32(int a, int b) {
    int one = F32Ops.ONE;
    int denScaled = F32Ops.divScale(b, b, a, MODE);
    int numScaled = F32Ops.divScale(a, b, a, MODE);
    boolean vcc = F32Ops.divScaleVcc(a, b, a, MODE);
    int rcp = F32Ops.rcp(denScaled, MODE);
    int negDen = denScaled ^ 0x80000000;
    int fma0 = F32Ops.fma(negDen, rcp, one, MODE);
    int fma1 = F32Ops.fma(fma0, rcp, rcp, MODE);
    int mul = F32Ops.mul(numScaled, fma1, MODE);
    int fma2 = F32Ops.fma(negDen, mul, numScaled, MODE);
    int fma3 = F32Ops.fma(fma2, fma1, mul, MODE);
    int fma4 = F32Ops.fma(negDen, fma3, numScaled, MODE);
    int fmas = F32Ops.divFmas(fma4, fma1, fma3, vcc, MODE);
    return F32Ops.divFixup(fmas, b, a, MODE);
  }

  /** LLVM's fdiv f64 lowering (SITargetLowering::LowerFDIV64). */
  static long divideF64(long x, long y) {
    long one = Double.doubleToRawLongBits(1.0);
    long divScale0 = F64Ops.divScale(y, y, x, MODE);
    long neg0 = divScale0 ^ Long.MIN_VALUE;
    long rcp = F64Ops.rcp(divScale0, MODE);
    long fma0 = F64Ops.fma(neg0, rcp, one, MODE);
    long fma1 = F64Ops.fma(rcp, fma0, rcp, MODE);
    long fma2 = F64Ops.fma(neg0, fma1, one, MODE);
    long divScale1 = F64Ops.divScale(x, y, x, MODE);
    boolean vcc = F64Ops.divScaleVcc(x, y, x, MODE);
    long fma3 = F64Ops.fma(fma1, fma2, fma1, MODE);
    long mul = F64Ops.mul(divScale1, fma3, MODE);
    long fma4 = F64Ops.fma(neg0, mul, divScale1, MODE);
    long fmas = F64Ops.divFmas(fma4, fma3, mul, vcc, MODE);
    return F64Ops.divFixup(fmas, y, x, MODE);
  }

  @Property(tries = 4000)
  void f32DivisionMacroIsCorrectlyRounded(@ForAll float a, @ForAll float b) {
    float q = a / b;
    int got = divideF32(f(a), f(b));
    if (Float.isNaN(q)) {
      assertThat(Float.isNaN(v(got))).as("%s / %s", a, b).isTrue();
    } else {
      assertThat(got).as("%s / %s", a, b).isEqualTo(f(q));
    }
  }

  /** Bit patterns spread over the whole exponent range, including denormal and near-overflow quotients. */
  @Property(tries = 4000)
  void f32DivisionMacroOverTheExponentRange(@ForAll int a, @ForAll int b) {
    f32DivisionMacroIsCorrectlyRounded(v(a), v(b));
  }

  @Property(tries = 4000)
  void f64DivisionMacroIsCorrectlyRounded(@ForAll long x, @ForAll long y) {
    double q = Double.longBitsToDouble(x) / Double.longBitsToDouble(y);
    long got = divideF64(x, y);
    if (Double.isNaN(q)) {
      assertThat(Double.isNaN(Double.longBitsToDouble(got))).isTrue();
    } else {
      assertThat(got).as("%x / %x", x, y).isEqualTo(Double.doubleToRawLongBits(q));
    }
  }

  @Example
  void divFixupSpecialCases() {
    int zero = 0;
    int inf = F32Ops.POS_INF;
    int two = f(2f);
    int q = f(7f);
    assertThat(F32Ops.divFixup(q, zero, zero, MODE)).isEqualTo(0xffc00000); // 0/0
    assertThat(F32Ops.divFixup(q, inf, inf | 0x80000000, MODE)).isEqualTo(0xffc00000); // inf/inf
    assertThat(F32Ops.divFixup(q, zero | 0x80000000, two, MODE)).isEqualTo(0xff800000); // x/-0
    assertThat(F32Ops.divFixup(q, two, inf, MODE)).isEqualTo(inf); // inf/y
    assertThat(F32Ops.divFixup(q, inf, two, MODE)).isEqualTo(0); // x/inf
    assertThat(F32Ops.divFixup(q, two | 0x80000000, two, MODE)).isEqualTo(f(-7f)); // sign applied
    assertThat(F32Ops.divFixup(q, 0x7fa00000, two, MODE)).isEqualTo(0x7fe00000); // NaN denominator, quieted
    assertThat(F32Ops.divFixup(q, two, 0xffa00001, MODE)).isEqualTo(0xffe00001); // numerator NaN first
    assertThat(F16Ops.divFixup(0x4700, 0, 0, MODE)).isEqualTo(0xfe00);
    assertThat(F64Ops.divFixup(0, 0, 0, MODE)).isEqualTo(0xfff8000000000000L);
  }

  @Example
  void divScaleZeroOperandsGiveNaN() {
    assertThat(F32Ops.divScale(f(1f), 0, f(1f), MODE)).isEqualTo(0xffc00000);
    assertThat(F32Ops.divScale(f(1f), f(1f), 0, MODE)).isEqualTo(0xffc00000);
    // Ordinary operands are left alone and need no post-scale.
    assertThat(F32Ops.divScale(f(3f), f(3f), f(5f), MODE)).isEqualTo(f(3f));
    assertThat(F32Ops.divScaleVcc(f(3f), f(3f), f(5f), MODE)).isFalse();
    // A denormal denominator scales both operands up by 2^64.
    assertThat(v(F32Ops.divScale(1, 1, f(5f), MODE))).isEqualTo(Math.scalb(Float.MIN_VALUE, 64));
  }

  // ---- approximations

  /** Distance in ULPs of the f32 result from the exact value, measured at the exact value's binade. */
  static double ulpsF32(int got, BigDecimal exact) {
    float g = v(got);
    double ulp = Math.ulp(exact.floatValue());
    return new BigDecimal(g).subtract(exact).abs().doubleValue() / ulp;
  }

  @Property(tries = 3000)
  void f32RcpAndSqrtAreCorrectlyRounded(@ForAll float x) {
    if (Float.isNaN(x) || x == 0 || Float.isInfinite(x) || Math.abs(x) < Float.MIN_NORMAL) return;
    float r = (float) (1.0 / x);
    int expectedRcp = Math.abs(r) < Float.MIN_NORMAL ? f(Math.copySign(0f, r)) : f(r);
    assertThat(F32Ops.rcp(f(x), MODE)).isEqualTo(expectedRcp);
    if (x > 0) {
      BigDecimal exact = new BigDecimal(x).sqrt(new MathContext(60));
      assertThat(v(F32Ops.sqrt(f(x), MODE))).isEqualTo(exact.floatValue());
    }
  }

  @Property(tries = 3000)
  void f32ApproximationsAreWithinOneUlp(@ForAll float x) {
    if (Float.isNaN(x) || Float.isInfinite(x) || Math.abs(x) < Float.MIN_NORMAL) return;
    MathContext mc = new MathContext(40);
    if (x > 0) {
      BigDecimal rsq = BigDecimal.ONE.divide(new BigDecimal(x).sqrt(mc), mc);
      assertThat(ulpsF32(F32Ops.rsq(f(x), MODE), rsq)).isLessThanOrEqualTo(1.0);
      double log2 = StrictMath.log(x) / StrictMath.log(2);
      assertThat(ulpsF32(F32Ops.log(f(x), MODE), new BigDecimal(log2))).as("log %s", x).isLessThanOrEqualTo(1.0);
    }
    if (Math.abs(x) < 126) {
      double e = StrictMath.pow(2, x);
      if (e >= Float.MIN_NORMAL) {
        assertThat(ulpsF32(F32Ops.exp(f(x), MODE), new BigDecimal(e))).as("exp %s", x).isLessThanOrEqualTo(1.0);
      }
    }
    double r = x - Math.floor(x);
    double s = StrictMath.sin(2 * Math.PI * r);
    double c = StrictMath.cos(2 * Math.PI * r);
    // sin/cos have no documented ULP bound; hold them to 1 ULP or 2^-24 absolute near zeros.
    assertThat(Math.abs(v(F32Ops.sin(f(x), MODE)) - s)).isLessThanOrEqualTo(Math.max(Math.ulp((float) s), 0x1p-24));
    assertThat(Math.abs(v(F32Ops.cos(f(x), MODE)) - c)).isLessThanOrEqualTo(Math.max(Math.ulp((float) c), 0x1p-24));
  }

  @Property(tries = 2000)
  void f64ApproximationsHoldTheirBounds(@ForAll double x) {
    if (Double.isNaN(x) || Double.isInfinite(x) || x == 0) return;
    long b = Double.doubleToRawLongBits(x);
    assertThat(Double.longBitsToDouble(F64Ops.rcp(b, MODE))).isEqualTo(1.0 / x);
    if (x > 0) {
      assertThat(Double.longBitsToDouble(F64Ops.sqrt(b, MODE))).isEqualTo(Math.sqrt(x));
      MathContext mc = new MathContext(40);
      BigDecimal rsq = BigDecimal.ONE.divide(new BigDecimal(x).sqrt(mc), mc);
      double got = Double.longBitsToDouble(F64Ops.rsq(b, MODE));
      assertThat(new BigDecimal(got).subtract(rsq).abs().doubleValue())
          .isLessThanOrEqualTo(Math.ulp(rsq.doubleValue()));
    }
  }

  /** Every half: the f16 approximations are within 1 ULP of the value computed in double. */
  @Property(tries = 3000)
  void f16ApproximationsAreWithinOneUlp(@ForAll @IntRange(min = 0, max = 0xffff) int h) {
    double x = Half.toFloat(h);
    if (Double.isNaN(x) || Double.isInfinite(x)) return;
    checkHalf(F16Ops.rcp(h, MODE), 1 / x);
    checkHalf(F16Ops.exp(h, MODE), Math.pow(2, x));
    checkHalf(F16Ops.sin(h, MODE), StrictMath.sin(2 * Math.PI * (x - Math.floor(x))));
    checkHalf(F16Ops.cos(h, MODE), StrictMath.cos(2 * Math.PI * (x - Math.floor(x))));
    if (x > 0) {
      checkHalf(F16Ops.sqrt(h, MODE), Math.sqrt(x));
      checkHalf(F16Ops.rsq(h, MODE), 1 / Math.sqrt(x));
      checkHalf(F16Ops.log(h, MODE), Math.log(x) / Math.log(2));
    }
  }

  /** Within one f16 ULP (measured at the exact value's binade; 2^-24 below the normal range). */
  static void checkHalf(int got, double exact) {
    double g = Half.toFloat(got);
    if (Double.isInfinite(exact) || Math.abs(exact) > 65504) {
      assertThat(Math.abs(g)).isGreaterThanOrEqualTo(65504);
      return;
    }
    double ulp = exact == 0 ? 0x1p-24 : Math.max(Math.scalb(1.0, Math.getExponent(exact) - 10), 0x1p-24);
    assertThat(Math.abs(g - exact)).as("%x vs %s", got, exact).isLessThanOrEqualTo(ulp);
  }

  /** The functional examples the ISA guide lists for the f32/f16 approximations. */
  @Example
  void guideExamples() {
    assertThat(F32Ops.exp(0xff800000, MODE)).isEqualTo(0x00000000);
    assertThat(F32Ops.exp(0x80000000, MODE)).isEqualTo(0x3f800000);
    assertThat(F32Ops.exp(0x7f800000, MODE)).isEqualTo(0x7f800000);
    assertThat(F32Ops.log(0xff800000, MODE)).isEqualTo(0xffc00000);
    assertThat(F32Ops.log(0xbf800000, MODE)).isEqualTo(0xffc00000);
    assertThat(F32Ops.log(0x80000000, MODE)).isEqualTo(0xff800000);
    assertThat(F32Ops.log(0x00000000, MODE)).isEqualTo(0xff800000);
    assertThat(F32Ops.log(0x3f800000, MODE)).isEqualTo(0x00000000);
    assertThat(F32Ops.log(0x7f800000, MODE)).isEqualTo(0x7f800000);
    assertThat(F32Ops.rcp(0xff800000, MODE)).isEqualTo(0x80000000);
    assertThat(F32Ops.rcp(0xc0000000, MODE)).isEqualTo(0xbf000000);
    assertThat(F32Ops.rcp(0x80000000, MODE)).isEqualTo(0xff800000);
    assertThat(F32Ops.rcp(0x00000000, MODE)).isEqualTo(0x7f800000);
    assertThat(F32Ops.rcp(0x7f800000, MODE)).isEqualTo(0x00000000);
    assertThat(F32Ops.rsq(0xff800000, MODE)).isEqualTo(0xffc00000);
    assertThat(F32Ops.rsq(0x80000000, MODE)).isEqualTo(0xff800000);
    assertThat(F32Ops.rsq(0x00000000, MODE)).isEqualTo(0x7f800000);
    assertThat(F32Ops.rsq(0x40800000, MODE)).isEqualTo(0x3f000000);
    assertThat(F32Ops.rsq(0x7f800000, MODE)).isEqualTo(0x00000000);
    assertThat(F32Ops.sqrt(0xff800000, MODE)).isEqualTo(0xffc00000);
    assertThat(F32Ops.sqrt(0x80000000, MODE)).isEqualTo(0x80000000);
    assertThat(F32Ops.sqrt(0x00000000, MODE)).isEqualTo(0x00000000);
    assertThat(F32Ops.sqrt(0x40800000, MODE)).isEqualTo(0x40000000);
    assertThat(F32Ops.sqrt(0x7f800000, MODE)).isEqualTo(0x7f800000);
    assertThat(F32Ops.sin(0xff800000, MODE)).isEqualTo(0xffc00000);
    assertThat(F32Ops.sin(0xff7fffff, MODE)).isEqualTo(0x00000000);
    assertThat(F32Ops.sin(0x80000000, MODE)).isEqualTo(0x80000000);
    assertThat(F32Ops.sin(0x3e800000, MODE)).isEqualTo(0x3f800000);
    assertThat(F32Ops.sin(0x7f800000, MODE)).isEqualTo(0xffc00000);
    assertThat(F32Ops.cos(0xff800000, MODE)).isEqualTo(0xffc00000);
    assertThat(F32Ops.cos(0xff7fffff, MODE)).isEqualTo(0x3f800000);
    assertThat(F32Ops.cos(0x80000000, MODE)).isEqualTo(0x3f800000);
    assertThat(F32Ops.cos(0x3e800000, MODE)).isEqualTo(0x00000000);
    assertThat(F32Ops.cos(0x7f800000, MODE)).isEqualTo(0xffc00000);
    assertThat(F16Ops.rcp(0xfc00, MODE)).isEqualTo(0x8000);
    assertThat(F16Ops.rcp(0xc000, MODE)).isEqualTo(0xb800);
    assertThat(F16Ops.rcp(0x8000, MODE)).isEqualTo(0xfc00);
    assertThat(F16Ops.rcp(0x0000, MODE)).isEqualTo(0x7c00);
    assertThat(F16Ops.rcp(0x7c00, MODE)).isEqualTo(0x0000);
    assertThat(F16Ops.sqrt(0xfc00, MODE)).isEqualTo(0xfe00);
    assertThat(F16Ops.sqrt(0x8000, MODE)).isEqualTo(0x8000);
    assertThat(F16Ops.sqrt(0x4400, MODE)).isEqualTo(0x4000);
    assertThat(F16Ops.sqrt(0x7c00, MODE)).isEqualTo(0x7c00);
    assertThat(F16Ops.rsq(0xfc00, MODE)).isEqualTo(0xfe00);
    assertThat(F16Ops.rsq(0x8000, MODE)).isEqualTo(0xfc00);
    assertThat(F16Ops.rsq(0x0000, MODE)).isEqualTo(0x7c00);
    assertThat(F16Ops.rsq(0x4400, MODE)).isEqualTo(0x3800);
    assertThat(F16Ops.rsq(0x7c00, MODE)).isEqualTo(0x0000);
    assertThat(F16Ops.log(0xfc00, MODE)).isEqualTo(0xfe00);
    assertThat(F16Ops.log(0xbc00, MODE)).isEqualTo(0xfe00);
    assertThat(F16Ops.log(0x8000, MODE)).isEqualTo(0xfc00);
    assertThat(F16Ops.log(0x0000, MODE)).isEqualTo(0xfc00);
    assertThat(F16Ops.log(0x3c00, MODE)).isEqualTo(0x0000);
    assertThat(F16Ops.log(0x7c00, MODE)).isEqualTo(0x7c00);
    assertThat(F16Ops.exp(0xfc00, MODE)).isEqualTo(0x0000);
    assertThat(F16Ops.exp(0x8000, MODE)).isEqualTo(0x3c00);
    assertThat(F16Ops.exp(0x7c00, MODE)).isEqualTo(0x7c00);
    assertThat(F16Ops.sin(0xfc00, MODE)).isEqualTo(0xfe00);
    assertThat(F16Ops.sin(0xfbff, MODE)).isEqualTo(0x0000);
    assertThat(F16Ops.sin(0x8000, MODE)).isEqualTo(0x8000);
    assertThat(F16Ops.sin(0x3400, MODE)).isEqualTo(0x3c00);
    assertThat(F16Ops.sin(0x7bff, MODE)).isEqualTo(0x0000);
    assertThat(F16Ops.sin(0x7c00, MODE)).isEqualTo(0xfe00);
    assertThat(F16Ops.cos(0xfc00, MODE)).isEqualTo(0xfe00);
    assertThat(F16Ops.cos(0xfbff, MODE)).isEqualTo(0x3c00);
    assertThat(F16Ops.cos(0x8000, MODE)).isEqualTo(0x3c00);
    assertThat(F16Ops.cos(0x3400, MODE)).isEqualTo(0x0000);
    assertThat(F16Ops.cos(0x7bff, MODE)).isEqualTo(0x3c00);
    assertThat(F16Ops.cos(0x7c00, MODE)).isEqualTo(0xfe00);
  }

  /** V_TRIG_PREOP_F64 segments concatenate to 2/pi (first words checked against fdlibm's ipio2 table). */
  @Example
  void trigPreopSegmentsOf2OverPi() {
    long one = Double.doubleToRawLongBits(1.0);
    double s0 = Double.longBitsToDouble(F64Ops.trigPreop(one, 0, MODE));
    double s1 = Double.longBitsToDouble(F64Ops.trigPreop(one, 1, MODE));
    assertThat(s0).isEqualTo(0x1.45f306dc9c882p-1); // 2/pi to 53 bits, truncated
    assertThat(s1).isLessThan(Math.ulp(s0)).isPositive();
    // fdlibm __rem_pio2: 2/pi = 0x.A2F983 6E4E44 1529FC 2757D1 F534DD C0DB62 ...
    long window = (long) Math.scalb(s0, 53);
    assertThat(window >>> 29).isEqualTo(0xA2F983L);
    assertThat(F64Ops.TWO_OVER_PI[0]).isEqualTo(0xA2F9836E4E441529L);
    assertThat(F64Ops.TWO_OVER_PI[1]).isEqualTo(0xFC2757D1F534DDC0L);
    // A large input (exponent > 1077) shifts the window by exponent - 1077 bits: 2^60 starts at bit 6.
    long big = Double.doubleToRawLongBits(0x1p60);
    double shifted = Double.longBitsToDouble(F64Ops.trigPreop(big, 0, MODE));
    java.math.BigInteger first128 = new java.math.BigInteger("A2F9836E4E441529FC2757D1F534DDC0", 16);
    long w = first128.shiftRight(128 - 6 - 53).longValue() & ((1L << 53) - 1);
    assertThat(shifted).isEqualTo(Math.scalb((double) w, -53 - 6));
    // Segment 1 of 1.0 is the next 53 bits.
    long w1 = first128.shiftRight(128 - 53 - 53).longValue() & ((1L << 53) - 1);
    assertThat(s1).isEqualTo(Math.scalb((double) w1, -106));
  }
}
