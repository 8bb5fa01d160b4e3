package dev.hipsim.isa.fp;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * An independent reference model of IEEE-style binary arithmetic written straight from the definitions: values are
 * exact {@link BigDecimal}s, results are chosen between the two representable neighbours by comparing distances,
 * and only then encoded. It knows nothing of the implementation's integer tricks (guard/sticky bits, jamming).
 *
 * <p>The CDNA conventions it models (from the ISA guide): NaN results are the first NaN operand, quieted when IEEE
 * mode is on; invalid operations return the negative default NaN; flushing detects tininess after rounding.
 */
public final class RefFloat {
  private RefFloat() {}

  public static final int RNE = 0;
  public static final int RUP = 1;
  public static final int RDN = 2;
  public static final int RTZ = 3;

  static int man(int f) {
    return new int[] {10, 7, 23, 52}[f];
  }

  static int expBits(int f) {
    return new int[] {5, 8, 8, 11}[f];
  }

  static int bias(int f) {
    return (1 << (expBits(f) - 1)) - 1;
  }

  static long sign(int f) {
    return 1L << (man(f) + expBits(f));
  }

  static long allExp(int f) {
    return ((1L << expBits(f)) - 1) << man(f);
  }

  public static boolean isNaN(int f, long b) {
    return (b & allExp(f)) == allExp(f) && (b & ((1L << man(f)) - 1)) != 0;
  }

  public static boolean isInf(int f, long b) {
    return (b & allExp(f)) == allExp(f) && (b & ((1L << man(f)) - 1)) == 0;
  }

  public static boolean isNeg(int f, long b) {
    return (b & sign(f)) != 0;
  }

  public static boolean isSubnormal(int f, long b) {
    return (b & allExp(f)) == 0 && (b & ((1L << man(f)) - 1)) != 0;
  }

  public static long defaultNaN(int f) {
    return sign(f) | allExp(f) | (1L << (man(f) - 1));
  }

  static BigDecimal pow2(int e) {
    return e >= 0 ? new BigDecimal(BigInteger.ONE.shiftLeft(e)) : BigDecimal.ONE.divide(new BigDecimal(
        BigInteger.ONE.shiftLeft(-e)));
  }

  /** Exact value of a finite encoding. */
  public static BigDecimal value(int f, long b) {
    long m = b & ((1L << man(f)) - 1);
    int e = (int) ((b & allExp(f)) >>> man(f));
    BigDecimal mag;
    if (e == 0) {
      mag = new BigDecimal(BigInteger.valueOf(m)).multiply(pow2(1 - bias(f) - man(f)));
    } else {
      mag = new BigDecimal(BigInteger.valueOf(m + (1L << man(f)))).multiply(pow2(e - bias(f) - man(f)));
    }
    return isNeg(f, b) ? mag.negate() : mag;
  }

  /** Rounds a nonzero exact value to format f, honouring direction, output flush and f16 saturation. */
  public static long round(int f, BigDecimal x, int rm, boolean flushOut, boolean saturate) {
    boolean neg = x.signum() < 0;
    BigDecimal ax = x.abs();
    int p = man(f) + 1;
    int emin = 1 - bias(f);
    int emax = bias(f);
    BigDecimal minNormal = pow2(emin);
    if (flushOut && ax.compareTo(minNormal) < 0) {
      // Tiny if rounding to p bits with unbounded exponent stays below the smallest normal.
      BigDecimal unbounded = roundMagnitude(ax, floorLog2(ax) - p + 1, rm, neg);
      if (unbounded.compareTo(minNormal) < 0) return neg ? sign(f) : 0;
    }
    int e = Math.max(floorLog2(ax), emin);
    BigDecimal r = roundMagnitude(ax, e - p + 1, rm, neg);
    BigDecimal limit = pow2(emax + 1);
    if (r.compareTo(limit) >= 0) {
      boolean toInf = !saturate && (rm == RNE || (rm == RUP && !neg) || (rm == RDN && neg));
      long maxBits = allExp(f) - (1L << man(f)) | ((1L << man(f)) - 1);
      return (neg ? sign(f) : 0) | (toInf ? allExp(f) : maxBits);
    }
    return (neg ? sign(f) : 0) | encodeMagnitude(f, r);
  }

  static int floorLog2(BigDecimal ax) {
    // Largest e with 2^e <= ax.
    int e = (int) Math.floor(Math.log(ax.doubleValue()) / Math.log(2));
    if (ax.doubleValue() == 0 || Double.isInfinite(ax.doubleValue())) {
      e = ax.unscaledValue().bitLength() - (int) Math.ceil(ax.scale() * Math.log(10) / Math.log(2));
    }
    while (pow2(e).compareTo(ax) > 0) e--;
    while (pow2(e + 1).compareTo(ax) <= 0) e++;
    return e;
  }

  /** Rounds a positive magnitude to a multiple of 2^q in the given direction (sign matters for directed modes). */
  static BigDecimal roundMagnitude(BigDecimal ax, int q, int rm, boolean neg) {
    BigDecimal ulp = pow2(q);
    BigDecimal[] qr = ax.divideAndRemainder(ulp);
    BigDecimal lo = qr[0].multiply(ulp);
    if (qr[1].signum() == 0) return lo;
    BigDecimal hi = lo.add(ulp);
    switch (rm) {
      case RTZ:
        return lo;
      case RUP:
        return neg ? lo : hi;
      case RDN:
        return neg ? hi : lo;
      default:
        int c = ax.subtract(lo).compareTo(hi.subtract(ax));
        if (c < 0) return lo;
        if (c > 0) return hi;
        return qr[0].toBigInteger().testBit(0) ? hi : lo;
    }
  }

  static long encodeMagnitude(int f, BigDecimal r) {
    if (r.signum() == 0) return 0;
    int p = man(f) + 1;
    int emin = 1 - bias(f);
    int e = floorLog2(r);
    if (e < emin) {
      return r.divide(pow2(emin - p + 1)).toBigIntegerExact().longValueExact();
    }
    long m = r.divide(pow2(e - p + 1)).toBigIntegerExact().longValueExact();
    return ((long) (e + bias(f)) << man(f)) | (m - (1L << man(f)));
  }

  // ---- mode helpers (MODE register layout)

  public static int rm(int mode, int f) {
    return (f == 0 || f == 3) ? (mode >> 2) & 3 : mode & 3;
  }

  public static boolean flushIn(int mode, int f) {
    int d = (f == 0 || f == 3) ? (mode >> 6) & 3 : (mode >> 4) & 3;
    return (d & 1) == 0;
  }

  public static boolean flushOut(int mode, int f) {
    int d = (f == 0 || f == 3) ? (mode >> 6) & 3 : (mode >> 4) & 3;
    return (d & 2) == 0;
  }

  public static boolean ieee(int mode) {
    return (mode & (1 << 9)) != 0;
  }

  static boolean saturate(int mode, int f) {
    return f == 0 && (mode & (1 << 23)) != 0;
  }

  static long in(int f, long b, int mode) {
    return flushIn(mode, f) && isSubnormal(f, b) ? b & sign(f) : b;
  }

  static long nanOut(int f, long nan, int mode) {
    return ieee(mode) ? nan | (1L << (man(f) - 1)) : nan;
  }

  static long zeroOf(int f, boolean neg) {
    return neg ? sign(f) : 0;
  }

  /** Result of an exact value under the mode; an exact zero takes {@code zeroSign}. */
  static long result(int f, BigDecimal exact, boolean zeroNegative, int mode) {
    if (exact.signum() == 0) return zeroOf(f, zeroNegative);
    return round(f, exact, rm(mode, f), flushOut(mode, f), saturate(mode, f));
  }

  public static long add(int f, long a, long b, int mode) {
    a = in(f, a, mode);
    b = in(f, b, mode);
    if (isNaN(f, a)) return nanOut(f, a, mode);
    if (isNaN(f, b)) return nanOut(f, b, mode);
    if (isInf(f, a) && isInf(f, b)) return isNeg(f, a) == isNeg(f, b) ? a : defaultNaN(f);
    if (isInf(f, a)) return a;
    if (isInf(f, b)) return b;
    BigDecimal s = value(f, a).add(value(f, b));
    boolean bothZeroSameSign = value0(f, a) && value0(f, b) && isNeg(f, a) == isNeg(f, b);
    boolean zeroNeg = bothZeroSameSign ? isNeg(f, a) : rm(mode, f) == RDN;
    return result(f, s, zeroNeg, mode);
  }

  public static long mul(int f, long a, long b, int mode) {
    a = in(f, a, mode);
    b = in(f, b, mode);
    if (isNaN(f, a)) return nanOut(f, a, mode);
    if (isNaN(f, b)) return nanOut(f, b, mode);
    boolean neg = isNeg(f, a) != isNeg(f, b);
    boolean zero = value0(f, a) || value0(f, b);
    if (isInf(f, a) || isInf(f, b)) return zero ? defaultNaN(f) : allExp(f) | (neg ? sign(f) : 0);
    return result(f, value(f, a).multiply(value(f, b)), neg, mode);
  }

  static boolean value0(int f, long b) {
    return (b & ~sign(f) & (sign(f) * 2 - 1)) == 0;
  }

  public static long fma(int f, long a, long b, long c, int mode) {
    a = in(f, a, mode);
    b = in(f, b, mode);
    c = in(f, c, mode);
    if ((isInf(f, a) && value0(f, b)) || (isInf(f, b) && value0(f, a))) return defaultNaN(f);
    if (isNaN(f, a)) return nanOut(f, a, mode);
    if (isNaN(f, b)) return nanOut(f, b, mode);
    if (isNaN(f, c)) return nanOut(f, c, mode);
    boolean negP = isNeg(f, a) != isNeg(f, b);
    if (isInf(f, a) || isInf(f, b)) {
      if (isInf(f, c) && isNeg(f, c) != negP) return defaultNaN(f);
      return allExp(f) | (negP ? sign(f) : 0);
    }
    if (isInf(f, c)) return c;
    BigDecimal prod = value(f, a).multiply(value(f, b));
    BigDecimal s = prod.add(value(f, c));
    boolean zeroNeg;
    if (prod.signum() == 0 && value(f, c).signum() == 0) {
      zeroNeg = negP == isNeg(f, c) ? negP : rm(mode, f) == RDN;
    } else {
      zeroNeg = rm(mode, f) == RDN;
    }
    return result(f, s, zeroNeg, mode);
  }

  public static long convert(int from, long b, int to, int mode) {
    b = in(from, b, mode);
    if (isNaN(from, b)) {
      long payload = b & ((1L << man(from)) - 1);
      int shift = man(to) - man(from);
      payload = shift >= 0 ? payload << shift : payload >>> -shift;
      if (ieee(mode) || payload == 0) payload |= 1L << (man(to) - 1);
      return (isNeg(from, b) ? sign(to) : 0) | allExp(to) | payload;
    }
    if (isInf(from, b)) return (isNeg(from, b) ? sign(to) : 0) | allExp(to);
    return result(to, value(from, b), isNeg(from, b), mode);
  }

  public static BigDecimal exact(double d) {
    return new BigDecimal(d);
  }

  public static BigDecimal scale(BigDecimal x, int e) {
    return x.multiply(pow2(e));
  }

  public static BigDecimal divide(BigDecimal a, BigDecimal b) {
    return a.divide(b, 400, RoundingMode.HALF_EVEN);
  }
}
