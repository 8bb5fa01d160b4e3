package dev.hipsim.isa.decode;

/**
 * One resolved operand of a decoded instruction.
 *
 * @param kind what it refers to
 * @param index first register number for register kinds; the 8-bit encoding for specials and inline constants;
 *     255 for literals
 * @param dwords width in 32-bit registers (1 for 16- and 32-bit operands)
 * @param value for constants, the bits the operand reads (an inline float already in the operand's format, an f64
 *     literal already shifted into the high half); 0 for registers
 * @param type how the operand reads constants
 * @param mods input modifiers, a combination of the {@code NEG}… bits below
 */
public record Operand(OperandKind kind, int index, int dwords, long value, ValueType type, int mods) {
  /** Negate (floating point), or neg_lo for packed math. */
  public static final int NEG = 1;
  /** Absolute value (floating point). */
  public static final int ABS = 2;
  /** Sign-extend the selected bits (SDWA integer sources). */
  public static final int SEXT = 4;
  /** Negate the high half (packed math). */
  public static final int NEG_HI = 8;
  /** op_sel: take the high 16 bits (VOP3) or the high half for the low lane (VOP3P). */
  public static final int OP_SEL = 16;
  /** op_sel_hi: which half feeds the high lane (VOP3P). */
  public static final int OP_SEL_HI = 32;

  public boolean isRegister() {
    return kind == OperandKind.SGPR || kind == OperandKind.VGPR || kind == OperandKind.AGPR
        || kind == OperandKind.TTMP || kind == OperandKind.SPECIAL;
  }

  public boolean isConstant() {
    return kind == OperandKind.INLINE_CONSTANT || kind == OperandKind.LITERAL;
  }

  public boolean has(int modifier) {
    return (mods & modifier) != 0;
  }

  /** The same operand with other modifiers. */
  public Operand withMods(int newMods) {
    return newMods == mods ? this : new Operand(kind, index, dwords, value, type, newMods);
  }
}
