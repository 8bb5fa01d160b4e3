package dev.hipsim.isa.decode;

/**
 * The named registers and read-only sources of the 8-bit scalar operand encoding (values 102-127 and 230-254), with
 * the names LLVM prints. 64-bit forms name a register pair.
 */
public final class Special {
  private Special() {}

  public static final int FLAT_SCRATCH = 102;
  public static final int XNACK_MASK = 104;
  public static final int VCC = 106;
  public static final int TBA = 108;
  public static final int TMA = 110;
  public static final int M0 = 124;
  public static final int NULL = 125;
  public static final int EXEC = 126;
  public static final int SRC_FLAT_SCRATCH_BASE = 230;
  public static final int SRC_SHARED_BASE = 235;
  public static final int SRC_SHARED_LIMIT = 236;
  public static final int SRC_PRIVATE_BASE = 237;
  public static final int SRC_PRIVATE_LIMIT = 238;
  public static final int SRC_POPS_EXITING_WAVE_ID = 239;
  public static final int SRC_VCCZ = 251;
  public static final int SRC_EXECZ = 252;
  public static final int SRC_SCC = 253;
  public static final int SRC_LDS_DIRECT = 254;

  /** The name of a 32-bit (or 16-bit) special operand, or null when the encoding names none. */
  public static String name32(int encoding) {
    return switch (encoding) {
      case 102 -> "flat_scratch_lo";
      case 103 -> "flat_scratch_hi";
      case 104 -> "xnack_mask_lo";
      case 105 -> "xnack_mask_hi";
      case 106 -> "vcc_lo";
      case 107 -> "vcc_hi";
      case 108 -> "tba_lo";
      case 109 -> "tba_hi";
      case 110 -> "tma_lo";
      case 111 -> "tma_hi";
      case 124 -> "m0";
      case 125 -> "null";
      case 126 -> "exec_lo";
      case 127 -> "exec_hi";
      case 230 -> "src_flat_scratch_base_lo";
      case 231 -> "src_flat_scratch_base_hi";
      case 235 -> "src_shared_base";
      case 236 -> "src_shared_limit";
      case 237 -> "src_private_base";
      case 238 -> "src_private_limit";
      case 239 -> "src_pops_exiting_wave_id";
      case 251 -> "src_vccz";
      case 252 -> "src_execz";
      case 253 -> "src_scc";
      case 254 -> "src_lds_direct";
      default -> null;
    };
  }

  /** The name of a 64-bit special operand, or null when the encoding names none at that width. */
  public static String name64(int encoding) {
    return switch (encoding) {
      case 102 -> "flat_scratch";
      case 104 -> "xnack_mask";
      case 106 -> "vcc";
      case 108 -> "tba";
      case 110 -> "tma";
      case 125 -> "null";
      case 126 -> "exec";
      case 230 -> "src_flat_scratch_base_lo";
      case 235 -> "src_shared_base";
      case 236 -> "src_shared_limit";
      case 237 -> "src_private_base";
      case 238 -> "src_private_limit";
      case 239 -> "src_pops_exiting_wave_id";
      case 251 -> "src_vccz";
      case 252 -> "src_execz";
      case 253 -> "src_scc";
      default -> null;
    };
  }

  /** The name of a special operand wider than 64 bits (only null exists), or null. */
  public static String nameWide(int encoding) {
    return encoding == 125 ? "null" : null;
  }

  /** The name at a width in dwords, or null. */
  public static String name(int encoding, int dwords) {
    return dwords <= 1 ? name32(encoding) : dwords == 2 ? name64(encoding) : nameWide(encoding);
  }
}
