package dev.hipsim.isa.decode;

/**
 * Decoding of operand fields as LLVM's AMDGPU disassembler does it: register ranges, named registers, inline
 * constants and the literal. A method returns null where LLVM rejects the encoding (the whole word is then not an
 * instruction).
 */
final class Operands {
  private Operands() {}

  /** The last SGPR LLVM names (its SGPR file is s0-s105; encodings above 101 are special registers). */
  static final int LAST_SGPR = 105;
  static final int SGPR_ENCODING_MAX = 101;
  static final int TTMP_MIN = 108;
  static final int TTMP_MAX = 123;
  static final int LITERAL = 255;

  /** Supplies the literal dword the first time an operand needs it. */
  interface LiteralSource {
    /** The literal, or null when there are not 4 more bytes. */
    Integer literal();
  }

  /**
   * A 9-bit ALU source (0-511) or an 8-bit scalar operand (0-255) at a width.
   *
   * @param vgprsAreAgprs the VGPR range (256-511) names AGPRs
   */
  static Operand source(int enc, int dwords, ValueType type, LiteralSource lit, boolean vgprsAreAgprs) {
    if (enc >= 256) {
      return vgprsAreAgprs ? agpr(enc - 256, dwords) : new Operand(OperandKind.VGPR, enc - 256, dwords, 0, type, 0);
    }
    return nonVgpr(enc, dwords, type, lit);
  }

  /** Encodings 0-255: scalar registers, named registers, constants, the literal. */
  static Operand nonVgpr(int enc, int dwords, ValueType type, LiteralSource lit) {
    if (enc <= SGPR_ENCODING_MAX) return scalarTuple(OperandKind.SGPR, enc, dwords, LAST_SGPR, type);
    if (enc >= TTMP_MIN && enc <= TTMP_MAX) {
      return scalarTuple(OperandKind.TTMP, enc - TTMP_MIN, dwords, TTMP_MAX - TTMP_MIN, type);
    }
    if (enc >= 128 && enc <= 208) {
      return new Operand(OperandKind.INLINE_CONSTANT, enc, dwords, inlineInteger(enc), type, 0);
    }
    if (enc >= 240 && enc <= 248) {
      return new Operand(OperandKind.INLINE_CONSTANT, enc, dwords, inlineFloat(enc, type), type, 0);
    }
    if (enc == LITERAL) {
      Integer value = lit == null ? null : lit.literal();
      if (value == null) return null;
      long v = type == ValueType.F64 ? (value & 0xffffffffL) << 32 : value & 0xffffffffL;
      return new Operand(OperandKind.LITERAL, LITERAL, dwords, v, type, 0);
    }
    if (Special.name(enc, dwords) == null) return null;
    return new Operand(OperandKind.SPECIAL, enc, dwords, 0, type, 0);
  }

  /** A scalar destination (7-bit field): SGPRs, trap temporaries and named registers. */
  static Operand scalarDestination(int enc, int dwords) {
    return nonVgpr(enc, dwords, null, null);
  }

  /**
   * An SGPR or TTMP tuple as LLVM names it: 64-bit tuples are even-aligned and wider ones 4-aligned (an unaligned
   * number is rounded down), and the tuple must fit the register file.
   */
  private static Operand scalarTuple(OperandKind kind, int index, int dwords, int last, ValueType type) {
    // LLVM has no scalar tuples wider than 16 registers: a wider operand names the first 16
    if (dwords > 16) dwords = 16;
    int shift = dwords <= 1 ? 0 : dwords == 2 ? 1 : 2;
    int start = (index >> shift) << shift;
    if (start + dwords - 1 > last) return null;
    return new Operand(kind, start, dwords, 0, type, 0);
  }

  /** Encodings 128-208: 0..64 and -1..-16. */
  static long inlineInteger(int enc) {
    return enc <= 192 ? enc - 128 : 192 - enc;
  }

  /** Encodings 240-248 in the operand's float format. */
  static long inlineFloat(int enc, ValueType type) {
    int i = enc - 240;
    if (type == ValueType.F16 || type == ValueType.I16 || type == ValueType.V2F16) return F16[i];
    if (type == ValueType.F64 || type == ValueType.I64) return F64[i];
    return F32[i] & 0xffffffffL;
  }

  private static final long[] F16 = {0x3800, 0xB800, 0x3C00, 0xBC00, 0x4000, 0xC000, 0x4400, 0xC400, 0x3118};
  private static final int[] F32 = {
      Float.floatToRawIntBits(0.5f), Float.floatToRawIntBits(-0.5f), Float.floatToRawIntBits(1.0f),
      Float.floatToRawIntBits(-1.0f), Float.floatToRawIntBits(2.0f), Float.floatToRawIntBits(-2.0f),
      Float.floatToRawIntBits(4.0f), Float.floatToRawIntBits(-4.0f), 0x3e22f983};
  private static final long[] F64 = {
      Double.doubleToRawLongBits(0.5), Double.doubleToRawLongBits(-0.5), Double.doubleToRawLongBits(1.0),
      Double.doubleToRawLongBits(-1.0), Double.doubleToRawLongBits(2.0), Double.doubleToRawLongBits(-2.0),
      Double.doubleToRawLongBits(4.0), Double.doubleToRawLongBits(-4.0), 0x3fc45f306dc9c882L};

  /**
   * An SDWA source: bit 8 clear names VGPRs 0-255; set, the low byte is a scalar operand without the literal.
   */
  static Operand sdwaSource(int enc9, ValueType type) {
    if ((enc9 & 0x100) == 0) return new Operand(OperandKind.VGPR, enc9 & 0xff, 1, 0, type, 0);
    int s = enc9 & 0xff;
    if (s == LITERAL) return null;
    return nonVgpr(s, 1, type, null);
  }

  static Operand vgpr(int index, int dwords) {
    return new Operand(OperandKind.VGPR, index, dwords, 0, null, 0);
  }

  /** An AGPR tuple; null when it runs past a255 (LLVM rejects it, while it lets VGPR tuples run past v255). */
  static Operand agpr(int index, int dwords) {
    if (index + dwords - 1 > 255) return null;
    return new Operand(OperandKind.AGPR, index, dwords, 0, null, 0);
  }

  /** vcc as the implicit operand of 32-bit VOP2/VOPC forms. */
  static Operand vcc() {
    return new Operand(OperandKind.SPECIAL, Special.VCC, 2, 0, null, 0);
  }
}
