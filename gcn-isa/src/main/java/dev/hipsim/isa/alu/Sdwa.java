package dev.hipsim.isa.alu;

/**
 * SDWA (sub-dword addressing): operand selection/extension and destination merging, from the GCN3/Vega guides'
 * SDWA fields. Selector values: BYTE_0..BYTE_3 = 0..3, WORD_0 = 4, WORD_1 = 5, DWORD = 6. DST_UNUSED: 0 pads the
 * unselected destination bits with zeros, 1 sign-extends the result into the bits above it (bits below are
 * zero), 2 preserves the old destination bits.
 */
public final class Sdwa {
  private Sdwa() {}

  public static final int BYTE_0 = 0;
  public static final int BYTE_1 = 1;
  public static final int BYTE_2 = 2;
  public static final int BYTE_3 = 3;
  public static final int WORD_0 = 4;
  public static final int WORD_1 = 5;
  public static final int DWORD = 6;

  public static final int UNUSED_PAD = 0;
  public static final int UNUSED_SEXT = 1;
  public static final int UNUSED_PRESERVE = 2;

  static int shift(int sel) {
    return sel <= BYTE_3 ? 8 * sel : sel == WORD_1 ? 16 : 0;
  }

  static int width(int sel) {
    return sel <= BYTE_3 ? 8 : sel <= WORD_1 ? 16 : 32;
  }

  /**
   * The selected part of a source operand in the low bits, zero-extended, or sign-extended when SEXT is set
   * (for float operands the caller applies ABS/NEG to the selected bits afterwards).
   */
  public static int select(int value, int sel, boolean sext) {
    int w = width(sel);
    if (w == 32) return value;
    int field = value >>> shift(sel);
    return sext ? field << (32 - w) >> (32 - w) : field & ((1 << w) - 1);
  }

  /** The destination after writing {@code result} (its low bits) into the part selected by DST_SEL. */
  public static int merge(int result, int old, int dstSel, int dstUnused) {
    int w = width(dstSel);
    if (w == 32) return result;
    int s = shift(dstSel);
    int fieldMask = ((1 << w) - 1) << s;
    int placed = (result << s) & fieldMask;
    switch (dstUnused) {
      case UNUSED_PRESERVE:
        return (old & ~fieldMask) | placed;
      case UNUSED_SEXT:
        boolean negative = (result >>> (w - 1) & 1) != 0;
        int above = s + w >= 32 ? 0 : -1 << (s + w);
        return negative ? placed | above : placed;
      default:
        return placed;
    }
  }
}
