package dev.hipsim.isa.interp;

import dev.hipsim.isa.fp.Half;

/**
 * An independent model of gfx90a image data for {@link ImageProperties}, written from the ISA guide's MIMG
 * description and the GFX9 T#/S# layouts (not from the interpreter): texel bytes in a linear image, the number
 * format conversions of the 8/16/32-bit-per-component formats, DST_SEL, and the sampler's addressing modes.
 */
final class ImageReference {
  private ImageReference() {}

  /** {components, bits per component} of the data formats the properties generate. */
  static int[] shape(int dfmt) {
    switch (dfmt) {
      case 1: return new int[] {1, 8};
      case 2: return new int[] {1, 16};
      case 3: return new int[] {2, 8};
      case 4: return new int[] {1, 32};
      case 5: return new int[] {2, 16};
      case 10: return new int[] {4, 8};
      case 11: return new int[] {2, 32};
      case 12: return new int[] {4, 16};
      case 13: return new int[] {3, 32};
      case 14: return new int[] {4, 32};
      default: throw new IllegalArgumentException("format " + dfmt);
    }
  }

  static int texelBytes(int dfmt) {
    int[] s = shape(dfmt);
    return s[0] * s[1] / 8;
  }

  static boolean floatValued(int nfmt) {
    return nfmt != 4 && nfmt != 5;
  }

  /** The unsigned bits of component c of a texel (little-endian bytes). */
  static long rawComponent(byte[] texel, int dfmt, int c) {
    int bytes = shape(dfmt)[1] / 8;
    long v = 0;
    for (int i = bytes - 1; i >= 0; i--) v = v << 8 | (texel[c * bytes + i] & 0xff);
    return v;
  }

  /** Component c converted to its 32-bit register value (the guide's number formats). */
  static int load(byte[] texel, int dfmt, int nfmt, int c) {
    int[] s = shape(dfmt);
    if (c >= s[0]) return c == 3 ? (floatValued(nfmt) ? Float.floatToRawIntBits(1f) : 1) : 0;
    int bits = s[1];
    long u = rawComponent(texel, dfmt, c);
    long signedValue = u >= 1L << (bits - 1) ? u - (1L << bits) : u;
    switch (nfmt) {
      case 0: return Float.floatToRawIntBits((float) (u / (double) ((1L << bits) - 1)));
      case 1: return Float.floatToRawIntBits((float) Math.max(-1.0, signedValue / (double) ((1L << (bits - 1)) - 1)));
      case 2: return Float.floatToRawIntBits((float) u);
      case 3: return Float.floatToRawIntBits((float) signedValue);
      case 4: return (int) u;
      case 5: return (int) signedValue;
      default: return bits == 32 ? (int) u : Float.floatToRawIntBits(Half.toFloat((int) u));
    }
  }

  /** The component bits a store writes for register value v. */
  static long encode(int v, int bits, int nfmt) {
    float f = Float.intBitsToFloat(v);
    long max = (1L << bits) - 1;
    long smax = (1L << (bits - 1)) - 1;
    switch (nfmt) {
      case 0: return Float.isNaN(f) ? 0 : Math.round(Math.rint(Math.min(1.0, Math.max(0.0, f)) * max));
      case 1: return (Float.isNaN(f) ? 0 : (long) Math.rint(Math.min(1.0, Math.max(-1.0, f)) * smax)) & max;
      case 2: return Float.isNaN(f) ? 0 : (long) Math.min(max, Math.max(0, Math.rint(f)));
      case 3: return (Float.isNaN(f) ? 0 : (long) Math.min(smax, Math.max(-smax - 1, Math.rint(f)))) & max;
      case 4: case 5: return v & max;
      default: return bits == 32 ? v & max : Half.fromFloat(f);
    }
  }

  /** Channel c after DST_SEL (sel 0 → 0, 1 → one, 4..7 → component). */
  static int swizzle(int dstSel, int c, int[] comps, boolean floats) {
    int sel = dstSel >>> (3 * c) & 7;
    if (sel >= 4) return comps[sel - 4];
    return sel == 1 ? (floats ? Float.floatToRawIntBits(1f) : 1) : 0;
  }

  /** A texel index through an addressing mode: the texel, or -1 for the border colour. */
  static long address(long i, int n, int mode) {
    switch (mode) {
      case 0: return ((i % n) + n) % n;
      case 1: {
        long period = ((i % (2L * n)) + 2L * n) % (2L * n);
        return period >= n ? 2L * n - 1 - period : period;
      }
      case 2: return i < 0 ? 0 : i >= n ? n - 1 : i;
      case 3: {
        long m = i >= 0 ? i : -i - 1;
        return m >= n ? n - 1 : m;
      }
      case 5: case 7: {
        long m = i >= 0 ? i : -i - 1;
        return m >= n ? -1 : m;
      }
      default: return i >= 0 && i < n ? i : -1;
    }
  }

  /** The continuous part of the modes: mirror once about 0, and half-border clamping to [0, n]. */
  static float fold(float u, int n, int mode) {
    if (Float.isNaN(u)) return 0;
    if (mode == 3 || mode == 7 || mode == 5) u = Math.abs(u);
    if (mode == 4 || mode == 5) u = Math.min(n, Math.max(0, u));
    return u;
  }

  /** The border colour's components before DST_SEL. */
  static int[] border(int type, boolean floats) {
    int one = floats ? Float.floatToRawIntBits(1f) : 1;
    switch (type) {
      case 0: return new int[] {0, 0, 0, 0};
      case 1: return new int[] {0, 0, 0, one};
      default: return new int[] {one, one, one, one};
    }
  }
}
