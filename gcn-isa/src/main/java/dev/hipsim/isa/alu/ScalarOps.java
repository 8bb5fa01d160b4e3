package dev.hipsim.isa.alu;

/**
 * SALU operations. Functions whose SCC is not simply "result != 0" return the 32-bit result and SCC packed in a
 * {@code long}: read them with {@link #value(long)} and {@link #scc(long)}. For the bitwise, shift, bit-field and
 * count instructions (S_AND/OR/XOR/ANDN2/ORN2/NAND/NOR/XNOR, S_LSHL/LSHR/ASHR, S_BFE, S_NOT, S_WQM, S_QUADMASK,
 * S_BCNT0/1, S_ABS, S_ABSDIFF) SCC is {@code result != 0}, which the interpreter computes itself. Moves, S_BFM,
 * S_BREV, S_FF0/FF1, S_FLBIT, S_BITSET, S_MUL and S_SEXT leave SCC alone.
 */
public final class ScalarOps {
  private ScalarOps() {}

  static long u(int a) {
    return a & 0xffffffffL;
  }

  public static int value(long packed) {
    return (int) packed;
  }

  public static boolean scc(long packed) {
    return (packed >>> 32 & 1) != 0;
  }

  static long pack(long value, boolean scc) {
    return (value & 0xffffffffL) | (scc ? 1L << 32 : 0);
  }

  /** S_ADD_U32: SCC = carry out. */
  public static long addU32(int a, int b) {
    return addcU32(a, b, false);
  }

  /** S_ADDC_U32: a + b + SCC, SCC = carry out. */
  public static long addcU32(int a, int b, boolean sccIn) {
    long r = u(a) + u(b) + (sccIn ? 1 : 0);
    return pack(r, r > 0xffffffffL);
  }

  /** S_SUB_U32: SCC = borrow (b > a unsigned). */
  public static long subU32(int a, int b) {
    return subbU32(a, b, false);
  }

  /** S_SUBB_U32: a - b - SCC, SCC = borrow. */
  public static long subbU32(int a, int b, boolean sccIn) {
    return pack(a - b - (sccIn ? 1 : 0), u(b) + (sccIn ? 1 : 0) > u(a));
  }

  /** S_ADD_I32 (and S_ADDK_I32 with the sign-extended immediate): SCC = signed overflow. */
  public static long addI32(int a, int b) {
    int r = a + b;
    return pack(r, ((a ^ r) & (b ^ r)) < 0);
  }

  /** S_SUB_I32: SCC = signed overflow. */
  public static long subI32(int a, int b) {
    int r = a - b;
    return pack(r, ((a ^ b) & (a ^ r)) < 0);
  }

  /** S_MIN_I32: SCC = 1 when S0 was chosen (S0 < S1). */
  public static long minI32(int a, int b) {
    return a < b ? pack(a, true) : pack(b, false);
  }

  /** S_MAX_I32: SCC = 1 when S0 was chosen (S0 >= S1, per the guide's pseudocode). */
  public static long maxI32(int a, int b) {
    return a >= b ? pack(a, true) : pack(b, false);
  }

  public static long minU32(int a, int b) {
    return Integer.compareUnsigned(a, b) < 0 ? pack(a, true) : pack(b, false);
  }

  public static long maxU32(int a, int b) {
    return Integer.compareUnsigned(a, b) >= 0 ? pack(a, true) : pack(b, false);
  }

  /** S_LSHL1_ADD_U32 .. S_LSHL4_ADD_U32: (a << n) + b, SCC = carry out of the 32-bit result. */
  public static long lshlAddU32(int a, int n, int b) {
    long r = (u(a) << n) + u(b);
    return pack(r, r > 0xffffffffL);
  }

  /** S_ABSDIFF_I32: |a - b| on the wrapped 32-bit difference (SCC = result != 0). */
  public static int absdiffI32(int a, int b) {
    int d = a - b;
    return d < 0 ? -d : d;
  }

  /** S_ABS_I32 (abs(INT_MIN) stays INT_MIN). */
  public static int absI32(int a) {
    return a < 0 ? -a : a;
  }

  public static int mulI32(int a, int b) {
    return a * b;
  }

  public static int mulHiU32(int a, int b) {
    return IntOps.mulHiU32(a, b);
  }

  public static int mulHiI32(int a, int b) {
    return IntOps.mulHiI32(a, b);
  }

  /** S_BFE_U32: S1[4:0] offset, S1[22:16] width (widths of 32 and above keep every remaining bit). */
  public static int bfeU32(int a, int control) {
    int offset = control & 31;
    int width = (control >>> 16) & 0x7f;
    int field = a >>> offset;
    return width >= 32 ? field : field & ((1 << width) - 1);
  }

  /** S_BFE_I32: the field sign-extended from its width (0 for width 0). */
  public static int bfeI32(int a, int control) {
    int width = (control >>> 16) & 0x7f;
    if (width == 0) return 0;
    int field = a >> (control & 31);
    return width >= 32 ? field : field << (32 - width) >> (32 - width);
  }

  /** S_BFE_U64: S1[5:0] offset, S1[22:16] width. */
  public static long bfeU64(long a, int control) {
    int offset = control & 63;
    int width = (control >>> 16) & 0x7f;
    long field = a >>> offset;
    return width >= 64 ? field : field & ((1L << width) - 1);
  }

  public static long bfeI64(long a, int control) {
    int width = (control >>> 16) & 0x7f;
    if (width == 0) return 0;
    long field = a >> (control & 63);
    return width >= 64 ? field : field << (64 - width) >> (64 - width);
  }

  /** S_BFM_B32: ((1 << S0[4:0]) - 1) << S1[4:0]. */
  public static int bfmB32(int width, int offset) {
    return ((1 << (width & 31)) - 1) << (offset & 31);
  }

  /** S_BFM_B64: ((1 << S0[5:0]) - 1) << S1[5:0]. */
  public static long bfmB64(int width, int offset) {
    return ((1L << (width & 63)) - 1) << (offset & 63);
  }

  public static int lshlB32(int a, int shift) {
    return a << (shift & 31);
  }

  public static int lshrB32(int a, int shift) {
    return a >>> (shift & 31);
  }

  public static int ashrI32(int a, int shift) {
    return a >> (shift & 31);
  }

  public static long lshlB64(long a, int shift) {
    return a << (shift & 63);
  }

  public static long lshrB64(long a, int shift) {
    return a >>> (shift & 63);
  }

  public static long ashrI64(long a, int shift) {
    return a >> (shift & 63);
  }

  public static int bcnt0B32(int a) {
    return 32 - Integer.bitCount(a);
  }

  public static int bcnt1B32(int a) {
    return Integer.bitCount(a);
  }

  public static int bcnt0B64(long a) {
    return 64 - Long.bitCount(a);
  }

  public static int bcnt1B64(long a) {
    return Long.bitCount(a);
  }

  /** S_FF0_I32_B32: position of the first 0 from the LSB, -1 if none. */
  public static int ff0B32(int a) {
    return a == -1 ? -1 : Integer.numberOfTrailingZeros(~a);
  }

  public static int ff1B32(int a) {
    return a == 0 ? -1 : Integer.numberOfTrailingZeros(a);
  }

  public static int ff0B64(long a) {
    return a == -1 ? -1 : Long.numberOfTrailingZeros(~a);
  }

  public static int ff1B64(long a) {
    return a == 0 ? -1 : Long.numberOfTrailingZeros(a);
  }

  /** S_FLBIT_I32_B32: zeros before the first 1 from the MSB, -1 if none. */
  public static int flbitB32(int a) {
    return a == 0 ? -1 : Integer.numberOfLeadingZeros(a);
  }

  public static int flbitB64(long a) {
    return a == 0 ? -1 : Long.numberOfLeadingZeros(a);
  }

  /** S_FLBIT_I32: leading bits equal to the sign bit (counting it), -1 for 0 and -1. Same as V_FFBH_I32. */
  public static int flbitI32(int a) {
    return IntOps.ffbhI32(a);
  }

  public static int flbitI64(long a) {
    if (a == 0 || a == -1) return -1;
    return Long.numberOfLeadingZeros(a < 0 ? ~a : a);
  }

  public static int brevB32(int a) {
    return Integer.reverse(a);
  }

  public static long brevB64(long a) {
    return Long.reverse(a);
  }

  /** S_BITSET0_B32: D with bit S0[4:0] cleared. */
  public static int bitset0B32(int d, int bit) {
    return d & ~(1 << (bit & 31));
  }

  public static int bitset1B32(int d, int bit) {
    return d | 1 << (bit & 31);
  }

  public static long bitset0B64(long d, int bit) {
    return d & ~(1L << (bit & 63));
  }

  public static long bitset1B64(long d, int bit) {
    return d | 1L << (bit & 63);
  }

  /** S_BITCMP0_B32 / S_BITCMP1_B32: SCC = bit S1[4:0] of S0 is 0 / is 1. */
  public static boolean bitcmp1B32(int a, int bit) {
    return (a >>> (bit & 31) & 1) != 0;
  }

  public static boolean bitcmp1B64(long a, int bit) {
    return (a >>> (bit & 63) & 1) != 0;
  }

  /** S_WQM_B32: every group of 4 bits with any bit set becomes all ones. */
  public static int wqmB32(int a) {
    return (int) wqmB64(a & 0xffffffffL);
  }

  public static long wqmB64(long a) {
    long any = a | a >>> 1 | a >>> 2 | a >>> 3;
    any &= 0x1111111111111111L;
    return any * 0xf;
  }

  /** S_QUADMASK_B32: bit i of the result = OR of bits 4i..4i+3 (8 result bits). */
  public static int quadmaskB32(int a) {
    return (int) quadmaskB64(a & 0xffffffffL);
  }

  /** S_QUADMASK_B64: 16 result bits. */
  public static long quadmaskB64(long a) {
    long r = 0;
    for (int i = 0; i < 16; i++) {
      if ((a >>> (4 * i) & 0xf) != 0) r |= 1L << i;
    }
    return r;
  }

  public static int sextI32I8(int a) {
    return (byte) a;
  }

  public static int sextI32I16(int a) {
    return (short) a;
  }

  /** S_PACK_LL_B32_B16: {S1[15:0], S0[15:0]}. */
  public static int packLL(int a, int b) {
    return b << 16 | (a & 0xffff);
  }

  /** S_PACK_LH_B32_B16: {S1[31:16], S0[15:0]}. */
  public static int packLH(int a, int b) {
    return (b & 0xffff0000) | (a & 0xffff);
  }

  /** S_PACK_HH_B32_B16: {S1[31:16], S0[31:16]}. */
  public static int packHH(int a, int b) {
    return (b & 0xffff0000) | a >>> 16;
  }

  /** S_CMP_* on 32-bit signed values (predicates as {@link IntOps#ICMP_EQ} etc.). */
  public static boolean cmpI32(int predicate, int a, int b) {
    return IntOps.cmpI32(predicate, a, b);
  }

  public static boolean cmpU32(int predicate, int a, int b) {
    return IntOps.cmpU32(predicate, a, b);
  }

  /** S_CMP_EQ_U64 / S_CMP_NE_U64. */
  public static boolean cmpU64(int predicate, long a, long b) {
    return IntOps.cmpU64(predicate, a, b);
  }
}
