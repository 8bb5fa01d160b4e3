package dev.hipsim.isa.decode;

/** The instruction encodings of gfx90a/gfx940: what the top bits of the first dword select. */
public enum Encoding {
  SOP1(4), SOP2(4), SOPK(4), SOPC(4), SOPP(4), SMEM(8),
  VOP1(4), VOP2(4), VOPC(4),
  /** The 64-bit VALU encoding, including the promoted (_e64) forms of VOP1/VOP2/VOPC. */
  VOP3(8),
  /** Packed math, dot products and the matrix (MAI) instructions. */
  VOP3P(8),
  /** A VOP1/VOP2/VOPC instruction with a DPP control dword (src0 = 250). */
  DPP(8),
  /** A VOP1/VOP2/VOPC instruction with an SDWA control dword (src0 = 249). */
  SDWA(8),
  DS(8), MUBUF(8), MTBUF(8), FLAT(8), GLOBAL(8), SCRATCH(8),
  /** Image (texture) instructions: gfx90a only, graphics, unused by compute code. */
  MIMG(8),
  /** A word that is no valid instruction for the target (printed as {@code .long}). */
  INVALID(4);

  private final int baseBytes;

  Encoding(int baseBytes) {
    this.baseBytes = baseBytes;
  }

  /** Length without a literal. */
  public int baseBytes() {
    return baseBytes;
  }

  public boolean isVector() {
    return switch (this) {
      case VOP1, VOP2, VOPC, VOP3, VOP3P, DPP, SDWA -> true;
      default -> false;
    };
  }

  public boolean isMemory() {
    return switch (this) {
      case SMEM, DS, MUBUF, MTBUF, FLAT, GLOBAL, SCRATCH, MIMG -> true;
      default -> false;
    };
  }
}
