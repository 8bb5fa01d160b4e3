package dev.hipsim.isa.alu;

import dev.hipsim.isa.fp.Half;

/**
 * The typed buffer formats of GFX9 (MTBUF's dfmt/nfmt fields, and a buffer resource's DATA_FORMAT/NUM_FORMAT for
 * MUBUF *_FORMAT_* instructions): where each component of an element lives and how it converts to and from the
 * 32-bit register value. An element is handled as up to four little-endian dwords ({@code words}).
 *
 * <p>Component layout follows the hardware's naming, which lists fields from the most significant end:
 * 10_11_11 is x:11 y:11 z:10 from bit 0, 2_10_10_10 is x:10 y:10 z:10 w:2. Conversions (the guides name them
 * without detail; these follow the D3D/Vulkan rules the formats come from): UNORM/SNORM loads give
 * {@code v / (2^n - 1)} (SNORM clamped to -1); stores clamp to the range and round to nearest even; SCALED formats
 * convert integers to and from float (rounding to nearest even, saturating); UINT/SINT stores keep the low bits;
 * FLOAT is IEEE binary32/binary16 or the unsigned 11- and 10-bit floats (5-bit exponent).
 */
public final class BufferFormats {
  private BufferFormats() {}

  public static final int DFMT_INVALID = 0;
  public static final int DFMT_8 = 1;
  public static final int DFMT_16 = 2;
  public static final int DFMT_8_8 = 3;
  public static final int DFMT_32 = 4;
  public static final int DFMT_16_16 = 5;
  public static final int DFMT_10_11_11 = 6;
  public static final int DFMT_11_11_10 = 7;
  public static final int DFMT_10_10_10_2 = 8;
  public static final int DFMT_2_10_10_10 = 9;
  public static final int DFMT_8_8_8_8 = 10;
  public static final int DFMT_32_32 = 11;
  public static final int DFMT_16_16_16_16 = 12;
  public static final int DFMT_32_32_32 = 13;
  public static final int DFMT_32_32_32_32 = 14;

  public static final int NFMT_UNORM = 0;
  public static final int NFMT_SNORM = 1;
  public static final int NFMT_USCALED = 2;
  public static final int NFMT_SSCALED = 3;
  public static final int NFMT_UINT = 4;
  public static final int NFMT_SINT = 5;
  public static final int NFMT_SNORM_OGL = 6;
  public static final int NFMT_FLOAT = 7;

  /** {bit offset, bits} of each component, per data format (empty for invalid formats). */
  private static final int[][][] LAYOUT = {
      {},
      {{0, 8}},
      {{0, 16}},
      {{0, 8}, {8, 8}},
      {{0, 32}},
      {{0, 16}, {16, 16}},
      {{0, 11}, {11, 11}, {22, 10}},
      {{0, 10}, {10, 11}, {21, 11}},
      {{0, 2}, {2, 10}, {12, 10}, {22, 10}},
      {{0, 10}, {10, 10}, {20, 10}, {30, 2}},
      {{0, 8}, {8, 8}, {16, 8}, {24, 8}},
      {{0, 32}, {32, 32}},
      {{0, 16}, {16, 16}, {32, 16}, {48, 16}},
      {{0, 32}, {32, 32}, {64, 32}},
      {{0, 32}, {32, 32}, {64, 32}, {96, 32}},
      {}};

  private static final int[] BYTES = {0, 1, 2, 2, 4, 4, 4, 4, 4, 4, 4, 8, 8, 12, 16, 0};

  /** Bytes of one element, 0 for an invalid format. */
  public static int bytes(int dfmt) {
    return BYTES[dfmt & 15];
  }

  public static int components(int dfmt) {
    return LAYOUT[dfmt & 15].length;
  }

  /** Whether register values of this number format are floats (for the 1.0 of a missing w, and for d16). */
  public static boolean floatValued(int nfmt) {
    return nfmt != NFMT_UINT && nfmt != NFMT_SINT;
  }

  /** The register value of a component the format lacks: 0, and 1 (or 1.0) for w. */
  public static int missing(int nfmt, int component) {
    if (component != 3) return 0;
    return floatValued(nfmt) ? 0x3f800000 : 1;
  }

  static int field(int[] words, int offset, int bits) {
    int w = words[offset >>> 5] >>> (offset & 31);
    return bits == 32 ? w : w & ((1 << bits) - 1);
  }

  static void setField(int[] words, int offset, int bits, int value) {
    int shift = offset & 31;
    int mask = (bits == 32 ? -1 : (1 << bits) - 1) << shift;
    int i = offset >>> 5;
    words[i] = (words[i] & ~mask) | ((value << shift) & mask);
  }

  /** Component {@code c} (which the format has) of an element, as the 32-bit register value. */
  public static int load(int[] words, int dfmt, int nfmt, int c) {
    int[] f = LAYOUT[dfmt & 15][c];
    int bits = f[1];
    int raw = field(words, f[0], bits);
    double max = bits == 32 ? 4294967295.0 : (1L << bits) - 1;
    int signedRaw = bits == 32 ? raw : raw << (32 - bits) >> (32 - bits);
    switch (nfmt) {
      case NFMT_UNORM: return Float.floatToRawIntBits((float) ((raw & 0xffffffffL) / max));
      case NFMT_SNORM: case NFMT_SNORM_OGL: {
        double smax = bits == 32 ? 2147483647.0 : (1L << (bits - 1)) - 1;
        return Float.floatToRawIntBits((float) Math.max(signedRaw / smax, -1.0));
      }
      case NFMT_USCALED: return Float.floatToRawIntBits((float) (raw & 0xffffffffL));
      case NFMT_SSCALED: return Float.floatToRawIntBits((float) signedRaw);
      case NFMT_UINT: return raw;
      case NFMT_SINT: return signedRaw;
      default: return floatField(raw, bits);
    }
  }

  /** Writes register value {@code v} into component {@code c} of an element. */
  public static void store(int[] words, int dfmt, int nfmt, int c, int v) {
    int[] f = LAYOUT[dfmt & 15][c];
    int bits = f[1];
    setField(words, f[0], bits, encode(v, bits, nfmt));
  }

  static int encode(int v, int bits, int nfmt) {
    double x = Float.intBitsToFloat(v);
    long max = bits == 32 ? 0xffffffffL : (1L << bits) - 1;
    long smax = max >>> 1;
    switch (nfmt) {
      case NFMT_UNORM:
        // Through long: a 32-bit UNORM value above 2^31 must keep its bits, not saturate as an int cast would.
        return x != x ? 0 : (int) (long) Math.rint(Math.max(0.0, Math.min(1.0, x)) * max);
      case NFMT_SNORM: case NFMT_SNORM_OGL:
        return x != x ? 0 : (int) (long) Math.rint(Math.max(-1.0, Math.min(1.0, x)) * smax);
      case NFMT_USCALED:
        return x != x ? 0 : (int) (long) Math.max(0.0, Math.min(max, Math.rint(x)));
      case NFMT_SSCALED:
        return x != x ? 0 : (int) (long) Math.max(-smax - 1, Math.min(smax, Math.rint(x)));
      case NFMT_UINT: case NFMT_SINT:
        return v;
      default:
        return bits == 32 ? v : bits == 16 ? Half.fromFloat((float) x) : bits >= 10 ? smallFloat(v, bits - 5) : 0;
    }
  }

  static int floatField(int raw, int bits) {
    if (bits == 32) return raw;
    if (bits == 16) return Float.floatToRawIntBits(Half.toFloat(raw));
    if (bits == 11 || bits == 10) return Float.floatToRawIntBits(smallFloatValue(raw, bits - 5));
    return 0; // an 8- or 2-bit float field does not exist
  }

  /** Value of an unsigned float with a 5-bit exponent (bias 15) and {@code m} mantissa bits. */
  static float smallFloatValue(int raw, int m) {
    int e = raw >>> m & 31;
    int man = raw & ((1 << m) - 1);
    if (e == 31) return man == 0 ? Float.POSITIVE_INFINITY : Float.NaN;
    if (e == 0) return (float) Math.scalb((double) man, -14 - m);
    return (float) Math.scalb((double) ((1 << m) | man), e - 15 - m);
  }

  /** An f32 as an unsigned float with {@code m} mantissa bits: negatives give 0, rounding to nearest even. */
  static int smallFloat(int f32, int m) {
    float x = Float.intBitsToFloat(f32);
    int exponentAll = 31 << m;
    if (x != x) return exponentAll | (1 << (m - 1));
    if (!(x > 0)) return 0;
    if (x == Float.POSITIVE_INFINITY) return exponentAll;
    int e = Math.getExponent(x);
    int biased = Math.max(e + 15, 1);
    // Scale so that one unit is the last mantissa bit at this exponent, then round to nearest even.
    double scaled = Math.scalb((double) x, m - (biased - 15));
    long q = (long) Math.rint(scaled);
    int bits;
    if (e + 15 <= 0) {
      bits = (int) q; // subnormal; q may round up into the smallest normal, which encodes correctly
    } else {
      if (q >= 2L << m) {
        biased++;
        q >>= 1;
      }
      bits = biased << m | (int) (q & ((1 << m) - 1));
    }
    return bits >= exponentAll ? exponentAll : bits;
  }
}
