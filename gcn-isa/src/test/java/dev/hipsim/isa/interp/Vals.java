package dev.hipsim.isa.interp;

import java.util.Random;

/** Random register contents that reach the corners: integer edges, float specials, subnormals, boundaries. */
final class Vals {
  private Vals() {}

  static final int[] INT_EDGES = {0, 1, -1, 2, 31, 32, 33, 63, 64, 0x7fffffff, 0x80000000, 0xffff, 0x8000, 0x7fff,
      0x10000, 0xff, 0x80, 0x7f, 0x1000000, 0xffffff, 0x800000};

  static int i32(Random r) {
    int k = r.nextInt(8);
    if (k == 0) return INT_EDGES[r.nextInt(INT_EDGES.length)];
    if (k == 1) return r.nextInt(64) - 32;
    if (k == 2) return r.nextInt() >> r.nextInt(32);
    return r.nextInt();
  }

  static long i64(Random r) {
    int k = r.nextInt(6);
    if (k == 0) return (long) INT_EDGES[r.nextInt(INT_EDGES.length)];
    if (k == 1) return Long.MIN_VALUE >>> r.nextInt(64);
    if (k == 2) return r.nextLong() >> r.nextInt(64);
    return r.nextLong();
  }

  /** A float of {@code man} mantissa and {@code exp} exponent bits, as raw bits. */
  static long fp(Random r, int man, int exp) {
    long sign = r.nextBoolean() ? 1L << (man + exp) : 0;
    int maxExp = (1 << exp) - 1;
    int bias = maxExp >> 1;
    long m = switch (r.nextInt(4)) {
      case 0 -> new long[] {0, 1, (1L << man) - 1, 1L << (man - 1), 2}[r.nextInt(5)];
      default -> r.nextLong() & ((1L << man) - 1);
    };
    int e = switch (r.nextInt(8)) {
      case 0 -> 0;
      case 1 -> maxExp;
      case 2 -> new int[] {1, 2, maxExp - 1, maxExp - 2, bias, bias - 1, bias + 1}[r.nextInt(7)];
      case 3 -> bias - man + r.nextInt(2 * man + 1);
      default -> r.nextInt(maxExp + 1);
    };
    if (r.nextInt(10) == 0) return sign | ((long) bias << man) | (r.nextInt(4) == 0 ? 0 : m & ~((1L << (man - 3)) - 1));
    return sign | ((long) e << man) | m;
  }

  static int f32(Random r) {
    return (int) fp(r, 23, 8);
  }

  static int f16(Random r) {
    return (int) fp(r, 10, 5);
  }

  static long f64(Random r) {
    return fp(r, 52, 11);
  }

  /** Two f16 values in one register. */
  static int f16x2(Random r) {
    return f16(r) << 16 | f16(r);
  }

  /** A random EXEC mask: full, empty-ish, single lanes, or random. */
  static long exec(Random r) {
    return switch (r.nextInt(5)) {
      case 0 -> -1L;
      case 1 -> 1L << r.nextInt(64);
      case 2 -> r.nextLong() & r.nextLong();
      default -> r.nextLong();
    };
  }

  /** A MODE value: random rounding and denormal fields, IEEE and DX10_CLAMP, FP16_OVFL sometimes. */
  static int mode(Random r) {
    int m = r.nextInt(0x400);
    if (r.nextInt(3) == 0) m |= 1 << 23;
    if (r.nextInt(3) == 0) m = 0xf0 | (m & 0x300); // the default rounding and denormals, more often
    return m;
  }
}
