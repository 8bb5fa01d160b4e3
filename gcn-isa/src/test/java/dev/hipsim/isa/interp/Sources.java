package dev.hipsim.isa.interp;

import java.util.Random;

/**
 * Source operands for single-instruction tests, in the 9-bit encoding, and the value a lane reads from them —
 * computed from the register state saved before the instruction, independently of the interpreter's operand code.
 */
final class Sources {
  private Sources() {}

  static final int LITERAL = 255;

  /** How a constant operand is read. */
  enum Type { I32, F32, F16, I16, F64, I64 }

  private static final int[] F32_CONST = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000,
      0x40800000, 0xc0800000, 0x3e22f983};
  private static final int[] F16_CONST = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118};
  private static final long[] F64_CONST = {0x3fe0000000000000L, 0xbfe0000000000000L, 0x3ff0000000000000L,
      0xbff0000000000000L, 0x4000000000000000L, 0xc000000000000000L, 0x4010000000000000L, 0xc010000000000000L,
      0x3fc45f306dc9c882L};

  /**
   * A random source: a VGPR (v0-v15), an SGPR (even s0-s30, so that it also names a pair), an integer or float
   * inline constant, or the literal when {@code literalOk}. {@code scalarOk} false allows only VGPRs and inline
   * constants (the GFX9 constant bus takes one scalar value per instruction).
   */
  static int random(Random r, boolean scalarOk, boolean literalOk) {
    int k = r.nextInt(10);
    if (k < 5) return 256 + r.nextInt(16);
    if (k < 7 && scalarOk) return 2 * r.nextInt(16);
    if (k < 8) return 128 + r.nextInt(81);
    if (k < 9 || !literalOk) return 240 + r.nextInt(9);
    return LITERAL;
  }

  static boolean scalar(int enc) {
    return enc < 128 || enc == LITERAL;
  }

  /** The 32-bit value lane {@code lane} reads (16-bit types: in the low half, zero-extended). */
  static int value(Machine m, int enc, int literal, int lane, Type type) {
    if (enc >= 256) {
      int v = m.before(enc - 256, lane);
      return type == Type.F16 || type == Type.I16 ? v & 0xffff : v;
    }
    if (enc < 128) {
      int v = m.savedS[enc];
      return type == Type.F16 || type == Type.I16 ? v & 0xffff : v;
    }
    if (enc == LITERAL) return type == Type.F16 || type == Type.I16 ? literal & 0xffff : literal;
    if (enc <= 208) {
      int v = enc <= 192 ? enc - 128 : 192 - enc;
      return type == Type.F16 || type == Type.I16 ? v & 0xffff : v;
    }
    int i = enc - 240;
    return type == Type.F16 || type == Type.I16 ? F16_CONST[i] : type == Type.F64 ? (int) (F64_CONST[i] >>> 32)
        : F32_CONST[i];
  }

  /** The 64-bit value of a 64-bit source. */
  static long value64(Machine m, int enc, int literal, int lane, Type type) {
    if (enc >= 256) return m.before64(enc - 256, lane);
    if (enc < 128) return (m.savedS[enc] & 0xffff_ffffL) | (long) m.savedS[enc + 1] << 32;
    if (enc == LITERAL) return type == Type.F64 ? (long) literal << 32 : literal & 0xffff_ffffL;
    if (enc <= 208) return enc <= 192 ? enc - 128 : 192 - enc;
    int i = enc - 240;
    return type == Type.F64 || type == Type.I64 ? F64_CONST[i] : F32_CONST[i] & 0xffff_ffffL;
  }
}
