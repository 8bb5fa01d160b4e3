package dev.hipsim.isa.fp;

import java.math.BigInteger;

/**
 * An independent reference model of IEEE-style binary arithmetic written straight from the definitions: values
 * are exact {@link Dyadic} rationals, a result is chosen between the two representable neighbours by comparing the
 * remainder with half a unit, and only then encoded. It knows nothing of the implementation's guard and sticky
 * bits or jamming.
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

  public static int man(int f) {
    return f == 0 ? 10 : f == 1 ? 7 : f == 2 ? 23 : 52;
  }

  public static int expBits(int f) {
    return f == 0 ? 5 : f == 3 ? 11 : 8;
  }

  public static int bias(int f) {
    return (1 << (expBits(f) - 1)) - 1;
  }

  public static long sign(int f) {
    return 1L << (man(f) + expBits(f));
  }

  public static long allExp(int f) {
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

  /** Exact value of a finite encoding. */
  public static Dyadic value(int f, long b) {
    long m = b & ((1L << man(f)) - 1);
    int e = (int) ((b & allExp(f)) >>> man(f));
    Dyadic mag = e == 0 ? Dyadic.of(m, 1 - bias(f) - man(f)) : Dyadic.of(m + (1L << man(f)), e - bias(f) - man(f));
    return isNeg(f, b) ? mag.negate() : mag;
  }

  /** Rounds a nonzero exact value to format f, honouring direction, output flush and f16 saturation. */
  public static long round(int f, Dyadic x, int rm, boolean flushOut, boolean saturate) {
    boolean neg = x.signum() < 0;
    BigInteger mag = x.m.abs();
    int p = man(f) + 1;
    int emin = 1 - bias(f);
    int emax = bias(f);
    int lead = x.floorLog2();
    if (flushOut && lead < emin) {
      // Tiny if rounding to p bits with unbounded exponent stays below the smallest normal.
      BigInteger unbounded = roundMultiple(mag, x.e, lead - p + 1, rm, neg);
      if (unbounded.bitLength() - 1 + lead - p + 1 < emin) return neg ? sign(f) : 0;
    }
    int q = Math.max(lead, emin) - p + 1;
    BigInteger units = roundMultiple(mag, x.e, q, rm, neg); // result = units * 2^q
    if (units.signum() == 0) return neg ? sign(f) : 0;
    int top = units.bitLength() - 1 + q;
    if (top > emax) {
      boolean toInf = !saturate && (rm == RNE || (rm == RUP && !neg) || (rm == RDN && neg));
      long maxBits = allExp(f) - (1L << man(f)) | ((1L << man(f)) - 1);
      return (neg ? sign(f) : 0) | (toInf ? allExp(f) : maxBits);
    }
    long enc;
    if (top < emin) {
      enc = units.shiftLeft(q - (emin - p + 1)).longValueExact();
    } else {
      long sig = units.shiftLeft(q - (top - p + 1)).longValueExact();
      enc = ((long) (top + bias(f)) << man(f)) | (sig - (1L << man(f)));
    }
    return (neg ? sign(f) : 0) | enc;
  }

  /** The multiple of 2^q (as a count of 2^q units) chosen for mag * 2^e by comparing with the neighbours. */
  static BigInteger roundMultiple(BigInteger mag, int e, int q, int rm, boolean neg) {
    if (e >= q) return mag.shiftLeft(e - q);
    BigInteger unit = BigInteger.ONE.shiftLeft(q - e);
    BigInteger[] qr = mag.divideAndRemainder(unit);
    BigInteger lo = qr[0];
    if (qr[1].signum() == 0) return lo;
    BigInteger hi = lo.add(BigInteger.ONE);
    switch (rm) {
      case RTZ:
        return lo;
      case RUP:
        return neg ? lo : hi;
      case RDN:
        return neg ? hi : lo;
      default:
        int c = qr[1].shiftLeft(1).compareTo(unit);
        return c < 0 ? lo : c > 0 ? hi : lo.testBit(0) ? hi : lo;
    }
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

  public static boolean saturate(int mode, int f) {
    return f == 0 && (mode & (1 << 23)) != 0;
  }

  public static long in(int f, long b, int mode) {
    return flushIn(mode, f) && isSubnormal(f, b) ? b & sign(f) : b;
  }

  public static long nanOut(int f, long nan, int mode) {
    return ieee(mode) ? nan | (1L << (man(f) - 1)) : nan;
  }

  static long zeroOf(int f, boolean neg) {
    return neg ? sign(f) : 0;
  }

  static boolean value0(int f, long b) {
    return (b & ~sign(f) & (sign(f) * 2 - 1)) == 0;
  }

  /** Result of an exact value under the mode; an exact zero takes {@code zeroNegative}. */
  public static long result(int f, Dyadic exact, boolean zeroNegative, int mode) {
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
    Dyadic s = value(f, a).add(value(f, b));
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
    Dyadic prod = value(f, a).multiply(value(f, b));
    Dyadic s = prod.add(value(f, c));
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
}
