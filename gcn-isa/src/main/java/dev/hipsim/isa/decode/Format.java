package dev.hipsim.isa.decode;

/**
 * The opcode tables: one per encoding, with the VOP1/VOP2/VOPC variants carrying a DPP or SDWA dword in tables of
 * their own (LLVM decodes those as separate instructions, and not every operation has them).
 */
public enum Format {
  SOP1(Encoding.SOP1), SOP2(Encoding.SOP2), SOPK(Encoding.SOPK), SOPC(Encoding.SOPC), SOPP(Encoding.SOPP),
  SMEM(Encoding.SMEM),
  VOP1(Encoding.VOP1), VOP2(Encoding.VOP2), VOPC(Encoding.VOPC), VOP3(Encoding.VOP3), VOP3P(Encoding.VOP3P),
  VOP1_DPP(Encoding.DPP), VOP2_DPP(Encoding.DPP), VOP1_SDWA(Encoding.SDWA), VOP2_SDWA(Encoding.SDWA),
  VOPC_SDWA(Encoding.SDWA),
  DS(Encoding.DS), MUBUF(Encoding.MUBUF), MTBUF(Encoding.MTBUF), FLAT(Encoding.FLAT), GLOBAL(Encoding.GLOBAL),
  SCRATCH(Encoding.SCRATCH);

  private final Encoding encoding;

  Format(Encoding encoding) {
    this.encoding = encoding;
  }

  public Encoding encoding() {
    return encoding;
  }

  /** Size of the opcode space (the table index range). */
  public int opcodeCount() {
    return switch (this) {
      case SOP2 -> 128;
      case SOPK -> 32;
      case SOPC, SOPP, VOP3P, MUBUF, FLAT, GLOBAL, SCRATCH -> 128;
      case VOP2, VOP2_DPP, VOP2_SDWA -> 64;
      case VOP3 -> 1024;
      case MTBUF -> 16;
      default -> 256;
    };
  }

  /**
   * The variant an encoding belongs to: a few selector bits change which other bits an instruction accepts (the
   * opcode tables keep a must-be-zero mask per variant). Bit i of the key is selector i: MUBUF lds, offen, idxen,
   * glc; MTBUF offen, idxen; SMEM imm, soe; DS gds; FLAT/GLOBAL/SCRATCH bit 13 (lds/sve), glc, saddr = off, sc1.
   */
  int variantKey(long bits) {
    return switch (this) {
      case MUBUF -> bit(bits, 16) | bit(bits, 12) << 1 | bit(bits, 13) << 2 | bit(bits, 14) << 3;
      case MTBUF -> bit(bits, 12) | bit(bits, 13) << 1;
      case SMEM -> bit(bits, 17) | bit(bits, 14) << 1;
      case DS -> bit(bits, 16);
      case FLAT, GLOBAL, SCRATCH -> bit(bits, 13) | bit(bits, 16) << 1 | (((bits >>> 48) & 0x7f) == 0x7f ? 4 : 0)
          | bit(bits, 25) << 3;
      default -> 0;
    };
  }

  /** How many variants {@link #variantKey} distinguishes. */
  int variantCount() {
    return switch (this) {
      case MUBUF -> 16;
      case MTBUF, SMEM -> 4;
      case DS -> 2;
      case FLAT, GLOBAL, SCRATCH -> 16;
      default -> 1;
    };
  }

  private static int bit(long bits, int i) {
    return (int) (bits >>> i) & 1;
  }

  String resource() {
    return name().toLowerCase(java.util.Locale.ROOT) + ".tbl";
  }
}
