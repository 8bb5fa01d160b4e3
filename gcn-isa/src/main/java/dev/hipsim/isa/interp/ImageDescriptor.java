package dev.hipsim.isa.interp;

import dev.hipsim.isa.alu.BufferFormats;

/**
 * The fields of a gfx90a (GFX9) image resource, T#, that the image instructions use: eight dwords (gfx90a has no
 * r128 form; instruction bit 15 means a16 there). Layout (AMD's Vega/CDNA ISA guides; ROCr's and Mesa's GFX9
 * descriptor builders agree):
 *
 * <pre>
 * w0 [31:0]  BASE_ADDRESS, address bits 39:8        w1 [7:0] BASE_ADDRESS_HI (address bits 47:40)
 * w1 [25:20] DATA_FORMAT  [29:26] NUM_FORMAT        w2 [13:0] WIDTH-1  [27:14] HEIGHT-1
 * w3 [11:0]  DST_SEL_X/Y/Z/W (3 bits each)  [15:12] BASE_LEVEL  [19:16] LAST_LEVEL  [24:20] SW_MODE  [31:28] TYPE
 * w4 [12:0]  DEPTH: depth-1 of a 3D image, else the last array slice   [28:13] PITCH-1 (texels, linear images)
 * w5 [12:0]  BASE_ARRAY
 * </pre>
 *
 * Only linear images (SW_MODE 0) are modelled; rows are PITCH texels apart and slices (3D depth or array layers)
 * PITCH × HEIGHT texels apart. The linear layout of mip levels after the first is not established here (the guide
 * does not give it; it is addrlib's choice), so only level 0 is reachable: an access to another existing level is
 * refused ({@link #LEVEL_REFUSAL}) rather than guessed.
 */
record ImageDescriptor(long base, int dataFormat, int numberFormat, int width, int height, int depthField,
    int pitch, int dstSel, int baseLevel, int lastLevel, int swMode, int type, int baseArray) {

  static final int TYPE_1D = 8;
  static final int TYPE_2D = 9;
  static final int TYPE_3D = 10;
  static final int TYPE_CUBE = 11;
  static final int TYPE_1D_ARRAY = 12;
  static final int TYPE_2D_ARRAY = 13;

  static final String LEVEL_REFUSAL = "mip level %d of a linear image: hipsim models level 0 only (the linear "
      + "mip layout is not established)";

  static ImageDescriptor decode(int[] s, int at) {
    int w1 = s[at + 1];
    int w2 = s[at + 2];
    int w3 = s[at + 3];
    int w4 = s[at + 4];
    long base = ((s[at] & 0xffff_ffffL) | (long) (w1 & 0xff) << 32) << 8;
    return new ImageDescriptor(base, (w1 >>> 20) & 0x3f, (w1 >>> 26) & 0xf, (w2 & 0x3fff) + 1,
        ((w2 >>> 14) & 0x3fff) + 1, w4 & 0x1fff, ((w4 >>> 13) & 0xffff) + 1, w3 & 0xfff, (w3 >>> 12) & 0xf,
        (w3 >>> 16) & 0xf, (w3 >>> 20) & 0x1f, (w3 >>> 28) & 0xf, s[at + 5] & 0x1fff);
  }

  /** Why hipsim cannot access this image, or null when it can. */
  String unsupported() {
    if (type < TYPE_1D || type > TYPE_2D_ARRAY) {
      return "resource type " + type + " (" + (type >= 14 ? "multisampled" : "not an image") + ") is not modelled";
    }
    if (swMode != 0) return "tiled image (SW_MODE " + swMode + "): hipsim models LINEAR images only";
    if (dataFormat == 0 || dataFormat > BufferFormats.DFMT_32_32_32_32) {
      return "image DATA_FORMAT " + dataFormat + " is not modelled";
    }
    if (numberFormat == BufferFormats.NFMT_SNORM_OGL || numberFormat > BufferFormats.NFMT_FLOAT) {
      return "image NUM_FORMAT " + numberFormat + " is not modelled";
    }
    return null;
  }

  int bytesPerTexel() {
    return BufferFormats.bytes(dataFormat);
  }

  int components() {
    return BufferFormats.components(dataFormat);
  }

  boolean isArray() {
    return type == TYPE_1D_ARRAY || type == TYPE_2D_ARRAY || type == TYPE_CUBE;
  }

  /** Coordinates before the mip level in the address VGPRs: x [, y] [, z or slice]. */
  int coordinates() {
    switch (type) {
      case TYPE_1D: return 1;
      case TYPE_2D: case TYPE_1D_ARRAY: return 2;
      default: return 3;
    }
  }

  /** The index of the array-slice coordinate, or -1 for non-arrays. */
  int sliceCoordinate() {
    return type == TYPE_1D_ARRAY ? 1 : type == TYPE_2D_ARRAY || type == TYPE_CUBE ? 2 : -1;
  }

  int levelWidth(int level) {
    return Math.max(1, width >>> level);
  }

  int levelHeight(int level) {
    return type == TYPE_1D || type == TYPE_1D_ARRAY ? 1 : Math.max(1, height >>> level);
  }

  int levelDepth(int level) {
    return type == TYPE_3D ? Math.max(1, (depthField + 1) >>> level) : 1;
  }

  /** The slices an array coordinate can reach (BASE_ARRAY to the last slice), at least 0. */
  int layers() {
    return isArray() ? Math.max(0, depthField - baseArray + 1) : 1;
  }

  /** The byte address of texel (x, y, z) of level 0, z being a depth index (3D) or a view-relative slice. */
  long texelAddress(long x, long y, long z) {
    long slice = isArray() ? baseArray + z : z;
    long rowsHigh = type == TYPE_1D || type == TYPE_1D_ARRAY ? 1 : height;
    return base + ((slice * rowsHigh + y) * pitch + x) * bytesPerTexel();
  }

  String words(int[] s, int at) {
    StringBuilder sb = new StringBuilder("T# [");
    for (int k = 0; k < 8; k++) sb.append(k == 0 ? "" : " ").append(String.format("%08x", s[at + k]));
    return sb.append(']').toString();
  }
}
