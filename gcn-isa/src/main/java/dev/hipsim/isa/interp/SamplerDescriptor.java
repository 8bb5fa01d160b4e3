package dev.hipsim.isa.interp;

/**
 * The fields of a GFX9 sampler, S# (four dwords), that image_sample uses at LOD 0 (ROCr's and Mesa's GFX9
 * sampler layouts): w0 [2:0]/[5:3]/[8:6] CLAMP_X/Y/Z, [15] FORCE_UNNORMALIZED; w2 [21:20] XY_MAG_FILTER,
 * [23:22] XY_MIN_FILTER, [25:24] Z_FILTER; w3 [31:30] BORDER_COLOR_TYPE. LOD 0 is magnification, so the
 * magnification filter applies.
 */
record SamplerDescriptor(int clampX, int clampY, int clampZ, boolean forceUnnormalized, int xyFilter, int zFilter,
    int borderType) {

  static final int WRAP = 0;
  static final int MIRROR = 1;
  static final int CLAMP_LAST_TEXEL = 2;
  static final int MIRROR_ONCE_LAST_TEXEL = 3;
  static final int CLAMP_HALF_BORDER = 4;
  static final int MIRROR_ONCE_HALF_BORDER = 5;
  static final int CLAMP_BORDER = 6;
  static final int MIRROR_ONCE_BORDER = 7;

  static final int BORDER_TRANSPARENT_BLACK = 0;
  static final int BORDER_OPAQUE_BLACK = 1;
  static final int BORDER_OPAQUE_WHITE = 2;
  static final int BORDER_REGISTER = 3;

  static SamplerDescriptor decode(int[] s, int at) {
    int w0 = s[at];
    int w2 = s[at + 2];
    return new SamplerDescriptor(w0 & 7, (w0 >>> 3) & 7, (w0 >>> 6) & 7, ((w0 >>> 15) & 1) != 0, (w2 >>> 20) & 3,
        (w2 >>> 24) & 3, s[at + 3] >>> 30);
  }

  /** Bilinear: XY filter BILINEAR or ANISO_BILINEAR (anisotropy needs derivatives, which compute code lacks). */
  boolean bilinear() {
    return (xyFilter & 1) != 0;
  }

  boolean linearZ() {
    return zFilter == 2;
  }
}
