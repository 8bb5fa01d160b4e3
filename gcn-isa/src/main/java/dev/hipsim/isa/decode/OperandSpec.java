package dev.hipsim.isa.decode;

/**
 * One operand position of an instruction form, in the order LLVM prints them: which encoding field holds it, what
 * the field can name, its width and how it reads constants. A fixed operand (the implicit {@code vcc} of the 32-bit
 * carry forms) has no field.
 *
 * @param slot the meaning of the operand
 * @param field the encoding field, or null for fixed and literal-constant operands
 * @param kind what the field encodes
 * @param dwords width in 32-bit registers
 * @param type how a constant in this position is read (null for register-only fields)
 * @param fixed the register a fixed operand names, as LLVM prints it (e.g. {@code vcc}); null otherwise
 * @param lo lowest bit of the field in the 64-bit instruction (dword 1 is bits 32-63); -1 without a field
 * @param width field width in bits
 * @param extraBit a bit above the field that extends it (the SDWA "S" register-file bit, the VOPC SDWA "SD" bit),
 *     or -1
 */
public record OperandSpec(Slot slot, String field, FieldKind kind, int dwords, ValueType type, String fixed, int lo,
    int width, int extraBit) {

  /** The field's value in an instruction: the field bits, with the extra bit (if any) as the bit above them. */
  public int extract(long bits) {
    int v = (int) ((bits >>> lo) & ((1L << width) - 1));
    if (extraBit >= 0 && ((bits >>> extraBit) & 1) != 0) v |= 1 << width;
    return v;
  }

  /** What an operand field can encode. */
  public enum FieldKind {
    /** An 8-bit VGPR number. */
    VGPR,
    /** An 8-bit AGPR number. */
    AGPR,
    /** A scalar operand: SGPRs, trap temporaries, named registers and, in source positions, constants. */
    SCALAR,
    /** A 9-bit ALU source: SGPRs, specials, constants, a literal or (256-511) VGPRs. */
    SOURCE,
    /** A 9-bit ALU source whose register range names AGPRs. */
    SOURCE_AGPR,
    /** The mandatory 32-bit literal of v_madmk/v_madak/v_fmamk/v_fmaak. */
    LITERAL,
    /** An operand without a field (the implicit vcc of VOP2/VOPC 32-bit forms). */
    FIXED,
    /** A plain immediate shown as a number (s_atc_probe's probe bits). */
    IMMEDIATE
  }
}
