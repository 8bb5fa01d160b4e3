package dev.hipsim.isa.alu;

/**
 * VALU integer operations, one lane at a time, as the guide's pseudocode defines them. 16-bit operations take and
 * return the low 16 bits. Operations with a carry or borrow out return it packed with the value: see
 * {@link #value(long)} and {@link #carry(long)}. A {@code clamp} argument is the VOP3 CLAMP bit, which saturates in
 * the instruction's integer domain where the guide says "supports saturation".
 */
public final class IntOps {
  private IntOps() {}

  static long u(int a) {
    return a & 0xffffffffL;
  }

  /** Value half of a packed {value, carry} result. */
  public static int value(long packed) {
    return (int) packed;
  }

  /** Carry/borrow half of a packed {value, carry} result. */
  public static boolean carry(long packed) {
    return (packed >>> 32 & 1) != 0;
  }

  static long pack(long value, boolean carry) {
    return (value & 0xffffffffL) | (carry ? 1L << 32 : 0);
  }

  // ---- 32-bit add/sub

  /** V_ADD_U32 (gfx9 "no carry" form); CLAMP saturates at 0xffffffff. */
  public static int addU32(int a, int b, boolean clamp) {
    long r = u(a) + u(b);
    return clamp && r > 0xffffffffL ? -1 : (int) r;
  }

  /** V_SUB_U32; CLAMP saturates at 0. */
  public static int subU32(int a, int b, boolean clamp) {
    return clamp && Integer.compareUnsigned(b, a) > 0 ? 0 : a - b;
  }

  /** V_ADD_I32 (VOP3 only); CLAMP saturates in the signed domain. */
  public static int addI32(int a, int b, boolean clamp) {
    long r = (long) a + b;
    return clamp ? (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, r)) : (int) r;
  }

  public static int subI32(int a, int b, boolean clamp) {
    long r = (long) a - b;
    return clamp ? (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, r)) : (int) r;
  }

  /** V_ADD_CO_U32: carry-out = unsigned overflow. */
  public static long addCo(int a, int b, boolean clamp) {
    return addc(a, b, false, clamp);
  }

  /** V_ADDC_CO_U32: a + b + carry-in. */
  public static long addc(int a, int b, boolean carryIn, boolean clamp) {
    long r = u(a) + u(b) + (carryIn ? 1 : 0);
    boolean c = r > 0xffffffffL;
    return pack(clamp && c ? 0xffffffffL : r, c);
  }

  /** V_SUB_CO_U32: borrow = b > a (unsigned). V_SUBREV_CO_U32 is {@code subCo(b, a)}. */
  public static long subCo(int a, int b, boolean clamp) {
    return subb(a, b, false, clamp);
  }

  /** V_SUBB_CO_U32: a - b - borrow-in; borrow-out when b + borrow-in > a. */
  public static long subb(int a, int b, boolean borrowIn, boolean clamp) {
    boolean borrow = u(b) + (borrowIn ? 1 : 0) > u(a);
    return pack(clamp && borrow ? 0 : a - b - (borrowIn ? 1 : 0), borrow);
  }

  // ---- 16-bit

  public static int addU16(int a, int b, boolean clamp) {
    int r = (a & 0xffff) + (b & 0xffff);
    return clamp && r > 0xffff ? 0xffff : r & 0xffff;
  }

  public static int subU16(int a, int b, boolean clamp) {
    int r = (a & 0xffff) - (b & 0xffff);
    return clamp && r < 0 ? 0 : r & 0xffff;
  }

  public static int addI16(int a, int b, boolean clamp) {
    int r = (short) a + (short) b;
    return (clamp ? Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, r)) : r) & 0xffff;
  }

  public static int subI16(int a, int b, boolean clamp) {
    int r = (short) a - (short) b;
    return (clamp ? Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, r)) : r) & 0xffff;
  }

  public static int mulLoU16(int a, int b, boolean clamp) {
    int r = (a & 0xffff) * (b & 0xffff);
    return clamp && r > 0xffff ? 0xffff : r & 0xffff;
  }

  /** V_MAD_U16 and V_MAD_LEGACY_U16 (the forms differ only in how op_sel places the result). */
  public static int madU16(int a, int b, int c, boolean clamp) {
    long r = (long) (a & 0xffff) * (b & 0xffff) + (c & 0xffff);
    return (int) (clamp && r > 0xffff ? 0xffff : r & 0xffff);
  }

  /** V_MAD_I16 and V_MAD_LEGACY_I16. */
  public static int madI16(int a, int b, int c, boolean clamp) {
    int r = (short) a * (short) b + (short) c;
    return (clamp ? Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, r)) : r) & 0xffff;
  }

  public static int lshlrevB16(int shift, int v) {
    return (v & 0xffff) << (shift & 15) & 0xffff;
  }

  public static int lshrrevB16(int shift, int v) {
    return (v & 0xffff) >>> (shift & 15);
  }

  public static int ashrrevI16(int shift, int v) {
    return ((short) v >> (shift & 15)) & 0xffff;
  }

  public static int minU16(int a, int b) {
    return Math.min(a & 0xffff, b & 0xffff);
  }

  public static int maxU16(int a, int b) {
    return Math.max(a & 0xffff, b & 0xffff);
  }

  public static int minI16(int a, int b) {
    return Math.min((short) a, (short) b) & 0xffff;
  }

  public static int maxI16(int a, int b) {
    return Math.max((short) a, (short) b) & 0xffff;
  }

  public static int min3U16(int a, int b, int c) {
    return minU16(minU16(a, b), c);
  }

  public static int max3U16(int a, int b, int c) {
    return maxU16(maxU16(a, b), c);
  }

  public static int min3I16(int a, int b, int c) {
    return minI16(minI16(a, b), c);
  }

  public static int max3I16(int a, int b, int c) {
    return maxI16(maxI16(a, b), c);
  }

  public static int med3U16(int a, int b, int c) {
    return med3U32(a & 0xffff, b & 0xffff, c & 0xffff);
  }

  public static int med3I16(int a, int b, int c) {
    return med3I32((short) a, (short) b, (short) c) & 0xffff;
  }

  /** V_MAD_U32_U16: 16x16 unsigned product plus a 32-bit addend. */
  public static int madU32U16(int a, int b, int c) {
    return (a & 0xffff) * (b & 0xffff) + c;
  }

  /** V_MAD_I32_I16. */
  public static int madI32I16(int a, int b, int c) {
    return (short) a * (short) b + c;
  }

  // ---- multiplies

  public static int mulLoU32(int a, int b) {
    return a * b;
  }

  public static int mulHiU32(int a, int b) {
    return (int) ((u(a) * u(b)) >>> 32);
  }

  public static int mulHiI32(int a, int b) {
    return (int) (((long) a * b) >> 32);
  }

  static int i24(int a) {
    return a << 8 >> 8;
  }

  static int u24(int a) {
    return a & 0xffffff;
  }

  public static int mulI32I24(int a, int b) {
    return i24(a) * i24(b);
  }

  public static int mulHiI32I24(int a, int b) {
    return (int) (((long) i24(a) * i24(b)) >> 32);
  }

  public static int mulU32U24(int a, int b) {
    return u24(a) * u24(b);
  }

  public static int mulHiU32U24(int a, int b) {
    return (int) (((long) u24(a) * u24(b)) >>> 32);
  }

  public static int madI32I24(int a, int b, int c) {
    return i24(a) * i24(b) + c;
  }

  public static int madU32U24(int a, int b, int c) {
    return u24(a) * u24(b) + c;
  }

  /** V_MAD_U64_U32 result: the low 64 bits of u32 * u32 + u64. */
  public static long madU64U32(int a, int b, long c) {
    return u(a) * u(b) + c;
  }

  /** V_MAD_U64_U32 carry-out (bit 64 of the 65-bit sum). */
  public static boolean madU64U32Carry(int a, int b, long c) {
    return Long.compareUnsigned(u(a) * u(b) + c, c) < 0;
  }

  /** V_MAD_I64_I32 result: the low 64 bits of i32 * i32 + i64. */
  public static long madI64I32(int a, int b, long c) {
    return (long) a * b + c;
  }

  /**
   * V_MAD_I64_I32 carry-out: bit 64 of the 65-bit two's-complement sum, i.e. the sign of the exact result.
   */
  public static boolean madI64I32Carry(int a, int b, long c) {
    long p = (long) a * b;
    long r = p + c;
    boolean overflow = ((p ^ r) & (c ^ r)) < 0;
    return overflow ? r >= 0 : r < 0;
  }

  // ---- shifts and bit fields

  public static int lshlrevB32(int shift, int v) {
    return v << (shift & 31);
  }

  public static int lshrrevB32(int shift, int v) {
    return v >>> (shift & 31);
  }

  public static int ashrrevI32(int shift, int v) {
    return v >> (shift & 31);
  }

  public static long lshlrevB64(int shift, long v) {
    return v << (shift & 63);
  }

  public static long lshrrevB64(int shift, long v) {
    return v >>> (shift & 63);
  }

  public static long ashrrevI64(int shift, long v) {
    return v >> (shift & 63);
  }

  /** V_LSHL_ADD_U64 (gfx940+): shifts above 4 are unsupported and, per the guide, act as 0. */
  public static long lshlAddU64(long a, int shift, long c) {
    int s = shift & 7;
    return (s > 4 ? a : a << s) + c;
  }

  public static int lshlAddU32(int a, int shift, int c) {
    return (a << (shift & 31)) + c;
  }

  public static int addLshlU32(int a, int b, int shift) {
    return (a + b) << (shift & 31);
  }

  public static int add3U32(int a, int b, int c) {
    return a + b + c;
  }

  public static int lshlOrB32(int a, int shift, int c) {
    return (a << (shift & 31)) | c;
  }

  public static int andOrB32(int a, int b, int c) {
    return (a & b) | c;
  }

  public static int or3B32(int a, int b, int c) {
    return a | b | c;
  }

  public static int xadU32(int a, int b, int c) {
    return (a ^ b) + c;
  }

  public static int xnorB32(int a, int b) {
    return ~(a ^ b);
  }

  /** V_BFE_U32: (S0 >> S1[4:0]) & ((1 << S2[4:0]) - 1); a width field of 0 gives 0. */
  public static int bfeU32(int a, int offset, int width) {
    return (a >>> (offset & 31)) & ((1 << (width & 31)) - 1);
  }

  /** V_BFE_I32: the extracted field sign-extended from its width (0 for width 0). */
  public static int bfeI32(int a, int offset, int width) {
    int w = width & 31;
    if (w == 0) return 0;
    int field = (a >> (offset & 31)) & ((1 << w) - 1);
    return field << (32 - w) >> (32 - w);
  }

  /** V_BFI_B32: (S0 & S1) | (~S0 & S2). */
  public static int bfiB32(int mask, int a, int b) {
    return (mask & a) | (~mask & b);
  }

  /** V_BFM_B32: ((1 << S0[4:0]) - 1) << S1[4:0]. */
  public static int bfmB32(int width, int offset) {
    return ((1 << (width & 31)) - 1) << (offset & 31);
  }

  /** V_BCNT_U32_B32: popcount(S0) + S1. */
  public static int bcntU32(int a, int b) {
    return Integer.bitCount(a) + b;
  }

  /** V_MBCNT_LO_U32_B32: count of S0's set bits below this lane (lanes 0-31), plus S1. */
  public static int mbcntLo(int a, int b, int lane) {
    int mask = lane >= 32 ? -1 : (int) ((1L << lane) - 1);
    return Integer.bitCount(a & mask) + b;
  }

  /** V_MBCNT_HI_U32_B32: count of S0's set bits for lanes 32..lane-1, plus S1. */
  public static int mbcntHi(int a, int b, int lane) {
    int mask = lane <= 32 ? 0 : (int) ((1L << (lane - 32)) - 1);
    return Integer.bitCount(a & mask) + b;
  }

  /** V_FFBH_U32: leading zeros before the first 1 from the MSB, -1 if none. */
  public static int ffbhU32(int a) {
    return a == 0 ? -1 : Integer.numberOfLeadingZeros(a);
  }

  /** V_FFBL_B32: trailing zeros, -1 if none. */
  public static int ffblB32(int a) {
    return a == 0 ? -1 : Integer.numberOfTrailingZeros(a);
  }

  /** V_FFBH_I32: bits after the sign bit equal to it, counting the sign bit (-1 for 0 and -1). */
  public static int ffbhI32(int a) {
    if (a == 0 || a == -1) return -1;
    return Integer.numberOfLeadingZeros(a < 0 ? ~a : a);
  }

  public static int bfrevB32(int a) {
    return Integer.reverse(a);
  }

  /** V_ALIGNBIT_B32: ({S0, S1} >> S2[4:0])[31:0]. */
  public static int alignbit(int hi, int lo, int shift) {
    return (int) ((u(hi) << 32 | u(lo)) >>> (shift & 31));
  }

  /** V_ALIGNBYTE_B32: ({S0, S1} >> 8 * S2[1:0])[31:0]. */
  public static int alignbyte(int hi, int lo, int shift) {
    return (int) ((u(hi) << 32 | u(lo)) >>> ((shift & 3) * 8));
  }

  /**
   * V_PERM_B32: each result byte picks from the 8 bytes of {S0, S1} (S0 most significant) by its selector byte
   * in S2: 0-7 a byte, 8-11 the sign of byte 1/3/5/7 replicated, 12 zero, 13 and above 0xff.
   */
  public static int permB32(int hi, int lo, int selector) {
    long data = u(hi) << 32 | u(lo);
    int r = 0;
    for (int i = 0; i < 4; i++) {
      int sel = (selector >>> (8 * i)) & 0xff;
      int b;
      if (sel >= 13) {
        b = 0xff;
      } else if (sel == 12) {
        b = 0;
      } else if (sel >= 8) {
        int src = 2 * (sel - 8) + 1;
        b = (data >>> (8 * src + 7) & 1) != 0 ? 0xff : 0;
      } else {
        b = (int) (data >>> (8 * sel)) & 0xff;
      }
      r |= b << (8 * i);
    }
    return r;
  }

  /** V_LERP_U8: per byte (a + b + round) >> 1, the rounding bit being bit 0 of the matching byte of S2. */
  public static int lerpU8(int a, int b, int c) {
    int r = 0;
    for (int i = 0; i < 4; i++) {
      int s = 8 * i;
      int v = ((a >>> s & 0xff) + (b >>> s & 0xff) + (c >>> s & 1)) >>> 1;
      r |= v << s;
    }
    return r;
  }

  // ---- sums of absolute differences

  public static int sadU8(int a, int b, int c) {
    int r = c;
    for (int s = 0; s < 32; s += 8) r += Math.abs((a >>> s & 0xff) - (b >>> s & 0xff));
    return r;
  }

  public static int sadHiU8(int a, int b, int c) {
    return (sadU8(a, b, 0) << 16) + c;
  }

  public static int sadU16(int a, int b, int c) {
    return c + Math.abs((a & 0xffff) - (b & 0xffff)) + Math.abs((a >>> 16) - (b >>> 16));
  }

  public static int sadU32(int a, int b, int c) {
    return (Integer.compareUnsigned(a, b) > 0 ? a - b : b - a) + c;
  }

  /** V_MSAD_U8: as V_SAD_U8 but bytes whose reference (S1) byte is 0 are skipped. */
  public static int msadU8(int a, int b, int c) {
    int r = c;
    for (int s = 0; s < 32; s += 8) {
      int ref = b >>> s & 0xff;
      if (ref != 0) r += Math.abs((a >>> s & 0xff) - ref);
    }
    return r;
  }

  /** V_QSAD_PK_U16_U8: four V_SAD_U8 over byte windows of the 64-bit S0, 16-bit accumulators from S2. */
  public static long qsadPkU16U8(long a, int b, long c) {
    long r = 0;
    for (int i = 0; i < 4; i++) {
      int window = (int) (a >>> (8 * i));
      int acc = (int) (c >>> (16 * i)) & 0xffff;
      r |= (long) (sadU8(window, b, acc) & 0xffff) << (16 * i);
    }
    return r;
  }

  /** V_MQSAD_PK_U16_U8: as {@link #qsadPkU16U8} with V_MSAD_U8. */
  public static long mqsadPkU16U8(long a, int b, long c) {
    long r = 0;
    for (int i = 0; i < 4; i++) {
      int window = (int) (a >>> (8 * i));
      int acc = (int) (c >>> (16 * i)) & 0xffff;
      r |= (long) (msadU8(window, b, acc) & 0xffff) << (16 * i);
    }
    return r;
  }

  /**
   * V_MQSAD_U32_U8: four V_MSAD_U8 with 32-bit accumulators; {@code acc} and {@code out} hold the 128-bit S2 and D
   * as four dwords (they may be the same array).
   */
  public static void mqsadU32U8(long a, int b, int[] acc, int[] out) {
    int r0 = msadU8((int) a, b, acc[0]);
    int r1 = msadU8((int) (a >>> 8), b, acc[1]);
    int r2 = msadU8((int) (a >>> 16), b, acc[2]);
    int r3 = msadU8((int) (a >>> 24), b, acc[3]);
    out[0] = r0;
    out[1] = r1;
    out[2] = r2;
    out[3] = r3;
  }

  /**
   * V_SCREEN_PARTITION_4SE_B32: the guide's 256-entry table for four shader engines, indexed by S0[7:0] (the
   * table values as AMD's Vega guide and CLRX list them).
   */
  public static int screenPartition4se(int a) {
    return SCREEN_PARTITION_4SE[a & 0xff];
  }

  private static final byte[] SCREEN_PARTITION_4SE = {
      0x1, 0x3, 0x7, 0xf, 0x5, 0xf, 0xf, 0xf, 0x7, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf,
      0xf, 0x2, 0x6, 0xe, 0xf, 0xa, 0xf, 0xf, 0xf, 0xb, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf,
      0xd, 0xf, 0x4, 0xc, 0xf, 0xf, 0x5, 0xf, 0xf, 0xf, 0xd, 0xf, 0xf, 0xf, 0xf, 0xf,
      0x9, 0xb, 0xf, 0x8, 0xf, 0xf, 0xf, 0xa, 0xf, 0xf, 0xf, 0xe, 0xf, 0xf, 0xf, 0xf,
      0xf, 0xf, 0xf, 0xf, 0x4, 0xc, 0xd, 0xf, 0x6, 0xf, 0xf, 0xf, 0xe, 0xf, 0xf, 0xf,
      0xf, 0xf, 0xf, 0xf, 0xf, 0x8, 0x9, 0xb, 0xf, 0x9, 0x9, 0xf, 0xf, 0xd, 0xf, 0xf,
      0xf, 0xf, 0xf, 0xf, 0x7, 0xf, 0x1, 0x3, 0xf, 0xf, 0x9, 0xf, 0xf, 0xf, 0xb, 0xf,
      0xf, 0xf, 0xf, 0xf, 0x6, 0xe, 0xf, 0x2, 0x6, 0xf, 0xf, 0x6, 0xf, 0xf, 0xf, 0x7,
      0xb, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0x2, 0x3, 0xb, 0xf, 0xa, 0xf, 0xf, 0xf,
      0xf, 0x7, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0x1, 0x9, 0xd, 0xf, 0x5, 0xf, 0xf,
      0xf, 0xf, 0xe, 0xf, 0xf, 0xf, 0xf, 0xf, 0xe, 0xf, 0x8, 0xc, 0xf, 0xf, 0xa, 0xf,
      0xf, 0xf, 0xf, 0xd, 0xf, 0xf, 0xf, 0xf, 0x6, 0x7, 0xf, 0x4, 0xf, 0xf, 0xf, 0x5,
      0x9, 0xf, 0xf, 0xf, 0xd, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0x8, 0xc, 0xe, 0xf,
      0xf, 0x6, 0x6, 0xf, 0xf, 0xe, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0x4, 0x6, 0x7,
      0xf, 0xf, 0x6, 0xf, 0xf, 0xf, 0x7, 0xf, 0xf, 0xf, 0xf, 0xf, 0xb, 0xf, 0x2, 0x3,
      0x9, 0xf, 0xf, 0x9, 0xf, 0xf, 0xf, 0xb, 0xf, 0xf, 0xf, 0xf, 0x9, 0xd, 0xf, 0x1};

  // ---- min / max

  public static int minI32(int a, int b) {
    return Math.min(a, b);
  }

  public static int maxI32(int a, int b) {
    return Math.max(a, b);
  }

  public static int minU32(int a, int b) {
    return Integer.compareUnsigned(a, b) < 0 ? a : b;
  }

  public static int maxU32(int a, int b) {
    return Integer.compareUnsigned(a, b) >= 0 ? a : b;
  }

  public static int min3I32(int a, int b, int c) {
    return Math.min(Math.min(a, b), c);
  }

  public static int max3I32(int a, int b, int c) {
    return Math.max(Math.max(a, b), c);
  }

  public static int min3U32(int a, int b, int c) {
    return minU32(minU32(a, b), c);
  }

  public static int max3U32(int a, int b, int c) {
    return maxU32(maxU32(a, b), c);
  }

  public static int med3I32(int a, int b, int c) {
    int m = max3I32(a, b, c);
    if (m == a) return Math.max(b, c);
    if (m == b) return Math.max(a, c);
    return Math.max(a, b);
  }

  public static int med3U32(int a, int b, int c) {
    int m = max3U32(a, b, c);
    if (m == a) return maxU32(b, c);
    if (m == b) return maxU32(a, c);
    return maxU32(a, b);
  }

  /** V_CNDMASK_B32: S1 where the lane's condition bit is set, else S0. */
  public static int cndmask(int a, int b, boolean condition) {
    return condition ? b : a;
  }

  // ---- integer compares (V_CMP_{F,LT,EQ,LE,GT,NE,GE,T}_{I,U}{16,32,64})

  public static final int ICMP_F = 0;
  public static final int ICMP_LT = 1;
  public static final int ICMP_EQ = 2;
  public static final int ICMP_LE = 3;
  public static final int ICMP_GT = 4;
  public static final int ICMP_NE = 5;
  public static final int ICMP_GE = 6;
  public static final int ICMP_T = 7;

  static boolean predicate(int p, int c) {
    switch (p & 7) {
      case ICMP_F:
        return false;
      case ICMP_LT:
        return c < 0;
      case ICMP_EQ:
        return c == 0;
      case ICMP_LE:
        return c <= 0;
      case ICMP_GT:
        return c > 0;
      case ICMP_NE:
        return c != 0;
      case ICMP_GE:
        return c >= 0;
      default:
        return true;
    }
  }

  public static boolean cmpI32(int predicate, int a, int b) {
    return predicate(predicate, Integer.compare(a, b));
  }

  public static boolean cmpU32(int predicate, int a, int b) {
    return predicate(predicate, Integer.compareUnsigned(a, b));
  }

  public static boolean cmpI64(int predicate, long a, long b) {
    return predicate(predicate, Long.compare(a, b));
  }

  public static boolean cmpU64(int predicate, long a, long b) {
    return predicate(predicate, Long.compareUnsigned(a, b));
  }

  public static boolean cmpI16(int predicate, int a, int b) {
    return predicate(predicate, Integer.compare((short) a, (short) b));
  }

  public static boolean cmpU16(int predicate, int a, int b) {
    return predicate(predicate, Integer.compare(a & 0xffff, b & 0xffff));
  }
}
