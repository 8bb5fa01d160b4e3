package dev.hipsim.isa.alu;

/**
 * DPP (data-parallel primitives): which lane each lane reads its DPP source operand from, and which lanes an
 * instruction with a DPP source writes. Works on the interpreter's vector register file, an {@code int[]} indexed
 * {@code register * 64 + lane}.
 *
 * <p>Rules (GCN3/Vega ISA guides, LLVM's DppCtrl): rows are 16 lanes, banks 4 lanes of a row. A lane is written
 * only if its EXEC bit is set and its row and bank are enabled by ROW_MASK and BANK_MASK. Its source is invalid
 * when the control names a lane outside the row or wave (row_shl/shr, wave_shl/shr, row_bcast) or a lane whose
 * EXEC bit is clear; with BOUND_CTRL set an invalid source reads 0, otherwise the lane is not written. (In LLVM's
 * assembler syntax {@code bound_ctrl:0} sets the bit.)
 */
public final class Dpp {
  private Dpp() {}

  public static final int QUAD_PERM_LAST = 0xff;
  public static final int ROW_SHL_FIRST = 0x101;
  public static final int ROW_SHL_LAST = 0x10f;
  public static final int ROW_SHR_FIRST = 0x111;
  public static final int ROW_SHR_LAST = 0x11f;
  public static final int ROW_ROR_FIRST = 0x121;
  public static final int ROW_ROR_LAST = 0x12f;
  public static final int WAVE_SHL1 = 0x130;
  public static final int WAVE_ROL1 = 0x134;
  public static final int WAVE_SHR1 = 0x138;
  public static final int WAVE_ROR1 = 0x13c;
  public static final int ROW_MIRROR = 0x140;
  public static final int ROW_HALF_MIRROR = 0x141;
  public static final int ROW_BCAST15 = 0x142;
  public static final int ROW_BCAST31 = 0x143;
  /** row_newbcast:n (gfx90a+): every lane of a row reads lane n of that row. */
  public static final int ROW_NEWBCAST_FIRST = 0x150;
  public static final int ROW_NEWBCAST_LAST = 0x15f;

  /**
   * Whether a DPP_CTRL value is defined. {@code gfx90aPlus} enables row_newbcast; {@code doublePrecision} is set
   * for the 64-bit "DP ALU" operations (v_*_f64, v_mov_b64), which accept only row_newbcast.
   */
  public static boolean isLegal(int ctrl, boolean gfx90aPlus, boolean doublePrecision) {
    boolean newbcast = ctrl >= ROW_NEWBCAST_FIRST && ctrl <= ROW_NEWBCAST_LAST;
    if (doublePrecision) return gfx90aPlus && newbcast;
    if (newbcast) return gfx90aPlus;
    return ctrl <= QUAD_PERM_LAST || (ctrl >= ROW_SHL_FIRST && ctrl <= ROW_SHL_LAST)
        || (ctrl >= ROW_SHR_FIRST && ctrl <= ROW_SHR_LAST) || (ctrl >= ROW_ROR_FIRST && ctrl <= ROW_ROR_LAST)
        || ctrl == WAVE_SHL1 || ctrl == WAVE_ROL1 || ctrl == WAVE_SHR1 || ctrl == WAVE_ROR1
        || (ctrl >= ROW_MIRROR && ctrl <= ROW_BCAST31);
  }

  /** The lane that {@code lane} reads under {@code ctrl}, or -1 when the control puts it out of range. */
  public static int sourceLane(int ctrl, int lane) {
    int row = lane & ~15;
    int inRow = lane & 15;
    if (ctrl <= QUAD_PERM_LAST) return (lane & ~3) | (ctrl >>> (2 * (lane & 3)) & 3);
    if (ctrl >= ROW_SHL_FIRST && ctrl <= ROW_SHL_LAST) {
      int s = inRow + (ctrl & 15);
      return s < 16 ? row | s : -1;
    }
    if (ctrl >= ROW_SHR_FIRST && ctrl <= ROW_SHR_LAST) {
      int s = inRow - (ctrl & 15);
      return s >= 0 ? row | s : -1;
    }
    if (ctrl >= ROW_ROR_FIRST && ctrl <= ROW_ROR_LAST) return row | ((inRow - (ctrl & 15)) & 15);
    if (ctrl >= ROW_NEWBCAST_FIRST && ctrl <= ROW_NEWBCAST_LAST) return row | (ctrl & 15);
    switch (ctrl) {
      case WAVE_SHL1:
        return lane < 63 ? lane + 1 : -1;
      case WAVE_ROL1:
        return (lane + 1) & 63;
      case WAVE_SHR1:
        return lane > 0 ? lane - 1 : -1;
      case WAVE_ROR1:
        return (lane - 1) & 63;
      case ROW_MIRROR:
        return row | (15 - inRow);
      case ROW_HALF_MIRROR:
        return (lane & ~7) | (7 - (lane & 7));
      case ROW_BCAST15:
        return lane >= 16 ? row - 1 : -1;
      case ROW_BCAST31:
        return lane >= 32 ? 31 : -1;
      default:
        return -1;
    }
  }

  /** Whether ROW_MASK/BANK_MASK enable writes to {@code lane}. */
  public static boolean rowBankEnabled(int lane, int rowMask, int bankMask) {
    return (rowMask >>> (lane >>> 4) & 1) != 0 && (bankMask >>> ((lane >>> 2) & 3) & 1) != 0;
  }

  /**
   * Gathers the DPP source operand of every lane from register {@code srcReg} into {@code out[0..63]} (0 for
   * lanes whose source is invalid), and returns the mask of lanes the instruction writes. The interpreter then
   * computes the operation for the lanes in the mask, using {@code out[lane]} as src0.
   */
  public static long gather(int[] vgprs, int srcReg, int ctrl, int rowMask, int bankMask, boolean boundCtrl,
      long exec, int[] out) {
    int base = srcReg * 64;
    long written = 0;
    for (int lane = 0; lane < 64; lane++) {
      int src = sourceLane(ctrl, lane);
      boolean valid = src >= 0 && (exec >>> src & 1) != 0;
      out[lane] = valid ? vgprs[base + src] : 0;
      if ((exec >>> lane & 1) != 0 && rowBankEnabled(lane, rowMask, bankMask) && (valid || boundCtrl)) {
        written |= 1L << lane;
      }
    }
    return written;
  }

  /** {@link #gather} for a 64-bit operand held in registers {@code srcReg, srcReg + 1}. */
  public static long gather64(int[] vgprs, int srcReg, int ctrl, int rowMask, int bankMask, boolean boundCtrl,
      long exec, long[] out) {
    int lo = srcReg * 64;
    int hi = lo + 64;
    long written = 0;
    for (int lane = 0; lane < 64; lane++) {
      int src = sourceLane(ctrl, lane);
      boolean valid = src >= 0 && (exec >>> src & 1) != 0;
      out[lane] = valid ? (vgprs[lo + src] & 0xffffffffL) | (long) vgprs[hi + src] << 32 : 0;
      if ((exec >>> lane & 1) != 0 && rowBankEnabled(lane, rowMask, bankMask) && (valid || boundCtrl)) {
        written |= 1L << lane;
      }
    }
    return written;
  }
}
