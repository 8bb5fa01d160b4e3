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

  String resource() {
    return name().toLowerCase(java.util.Locale.ROOT) + ".tbl";
  }
}
