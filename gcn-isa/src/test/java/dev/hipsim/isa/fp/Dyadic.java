package dev.hipsim.isa.fp;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/** An exact dyadic rational {@code m * 2^e}: every finite binary float value, sum and product is one. */
public final class Dyadic implements Comparable<Dyadic> {
  public static final Dyadic ZERO = new Dyadic(BigInteger.ZERO, 0);

  final BigInteger m;
  final int e;

  public Dyadic(BigInteger m, int e) {
    this.m = m;
    this.e = e;
  }

  public static Dyadic of(long m, int e) {
    return new Dyadic(BigInteger.valueOf(m), e);
  }

  public static Dyadic of(double d) {
    if (d == 0) return ZERO;
    long bits = Double.doubleToRawLongBits(d);
    int field = (int) ((bits >>> 52) & 0x7ff);
    long man = bits & ((1L << 52) - 1);
    long sig = field == 0 ? man : man | 1L << 52;
    int exp = (field == 0 ? 1 : field) - 1075;
    return of(d < 0 ? -sig : sig, exp);
  }

  public int signum() {
    return m.signum();
  }

  public Dyadic negate() {
    return new Dyadic(m.negate(), e);
  }

  public Dyadic abs() {
    return new Dyadic(m.abs(), e);
  }

  public Dyadic add(Dyadic o) {
    if (e <= o.e) return new Dyadic(m.add(o.m.shiftLeft(o.e - e)), e);
    return new Dyadic(m.shiftLeft(e - o.e).add(o.m), o.e);
  }

  public Dyadic subtract(Dyadic o) {
    return add(o.negate());
  }

  public Dyadic multiply(Dyadic o) {
    return new Dyadic(m.multiply(o.m), e + o.e);
  }

  public Dyadic scale(int k) {
    return new Dyadic(m, e + k);
  }

  @Override
  public int compareTo(Dyadic o) {
    return subtract(o).signum();
  }

  /** floor(log2 |x|) for x != 0. */
  public int floorLog2() {
    return e + m.abs().bitLength() - 1;
  }

  /** The integer nearest in the given direction (DOWN, FLOOR, CEILING, HALF_EVEN). */
  public Dyadic roundToInteger(RoundingMode how) {
    if (e >= 0) return this;
    BigInteger[] qr = m.abs().divideAndRemainder(BigInteger.ONE.shiftLeft(-e));
    BigInteger q = qr[0];
    boolean neg = m.signum() < 0;
    if (qr[1].signum() != 0) {
      int half = qr[1].shiftLeft(1).compareTo(BigInteger.ONE.shiftLeft(-e));
      boolean up;
      switch (how) {
        case FLOOR:
          up = neg;
          break;
        case CEILING:
          up = !neg;
          break;
        case HALF_EVEN:
          up = half > 0 || (half == 0 && q.testBit(0));
          break;
        default:
          up = false;
      }
      if (up) q = q.add(BigInteger.ONE);
    }
    return new Dyadic(neg ? q.negate() : q, 0);
  }

  public BigDecimal toBigDecimal() {
    BigDecimal b = new BigDecimal(m);
    return e >= 0 ? new BigDecimal(m.shiftLeft(e)) : b.multiply(new BigDecimal(BigInteger.valueOf(5).pow(-e), -e));
  }

  public double toDouble() {
    return toBigDecimal().doubleValue();
  }

  @Override
  public String toString() {
    return m + "*2^" + e;
  }
}
