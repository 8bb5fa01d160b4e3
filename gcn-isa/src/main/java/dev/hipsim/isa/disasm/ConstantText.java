package dev.hipsim.isa.disasm;

import dev.hipsim.isa.decode.Operand;
import dev.hipsim.isa.decode.OperandKind;
import dev.hipsim.isa.decode.ValueType;

/**
 * How LLVM writes constants: inline constants by value (integers in decimal, the float constants by name), literals
 * in hexadecimal, and literals whose value an inline constant could have encoded as {@code lit(0x…)} so that
 * re-assembly keeps the literal.
 */
final class ConstantText {
  private ConstantText() {}

  static void append(StringBuilder sb, Operand op) {
    long v = op.value();
    ValueType type = op.type() == null ? ValueType.REG : op.type();
    if (op.kind() == OperandKind.INLINE_CONSTANT) {
      appendInline(sb, v, type);
    } else {
      appendLiteral(sb, v, type);
    }
  }

  /** The mandatory literal of v_madmk/v_madak/v_fmamk/v_fmaak: always hexadecimal. */
  static void appendK(StringBuilder sb, long v) {
    hex(sb, v & 0xffffffffL);
  }

  private static void appendInline(StringBuilder sb, long v, ValueType type) {
    switch (type) {
      case F64, I64 -> {
        if (v >= -16 && v <= 64) sb.append(v);
        else if (!float64(sb, v)) hex(sb, v);
      }
      case F16, V2F16 -> {
        if (v >= -16 && v <= 64) sb.append(v);
        else if (!float16(sb, (int) v & 0xffff)) hex(sb, v & 0xffff);
      }
      case I16 -> {
        if (v >= -16 && v <= 64) sb.append(v);
        else if (!float32(sb, (int) v)) hex(sb, v & 0xffff);
      }
      default -> {
        int i = (int) v;
        if (i >= -16 && i <= 64) sb.append(i);
        else if (!float32(sb, i)) hex(sb, v & 0xffffffffL);
      }
    }
  }

  private static void appendLiteral(StringBuilder sb, long v, ValueType type) {
    int i = (int) v;
    switch (type) {
      case F64 -> {
        if (v >= -16 && v <= 64) sb.append(v);
        else if (!float64(sb, v)) hex(sb, v >>> 32);
      }
      case I64 -> {
        if (v >= -16 && v <= 64) lit(sb, v);
        else hex(sb, v);
      }
      case F16 -> {
        short lo = (short) i;
        if ((lo >= -16 && lo <= 64) || isFloat16Constant(lo & 0xffff)) lit(sb, v);
        else hex(sb, v & 0xffff);
      }
      case I16 -> {
        if ((i >= -16 && i <= 64) || isFloat32Constant(i)) lit(sb, v);
        else hex(sb, v & 0xffff);
      }
      case V2F16 -> {
        if ((i >= -16 && i <= 64) || ((v & ~0xffffL) == 0 && isFloat16Constant(i))) lit(sb, v);
        else hex(sb, v);
      }
      case REG -> {
        if (i >= -16 && i <= 64) sb.append(i);
        else if (!float32(sb, i)) hex(sb, v & 0xffffffffL);
      }
      default -> {
        if ((i >= -16 && i <= 64) || isFloat32Constant(i)) lit(sb, v);
        else hex(sb, v & 0xffffffffL);
      }
    }
  }

  private static void lit(StringBuilder sb, long v) {
    sb.append("lit(");
    hex(sb, v);
    sb.append(')');
  }

  static void hex(StringBuilder sb, long v) {
    sb.append("0x").append(Long.toHexString(v));
  }

  private static boolean isFloat32Constant(int bits) {
    return float32Name(bits) != null;
  }

  private static boolean isFloat16Constant(int bits) {
    return float16Name(bits) != null;
  }

  private static boolean float32(StringBuilder sb, int bits) {
    String n = float32Name(bits);
    if (n != null) sb.append(n);
    return n != null;
  }

  private static boolean float16(StringBuilder sb, int bits) {
    String n = float16Name(bits);
    if (n != null) sb.append(n);
    return n != null;
  }

  private static boolean float64(StringBuilder sb, long bits) {
    String n = float64Name(bits);
    if (n != null) sb.append(n);
    return n != null;
  }

  static String float32Name(int bits) {
    return switch (bits) {
      case 0 -> "0.0";
      case 0x3f800000 -> "1.0";
      case 0xbf800000 -> "-1.0";
      case 0x3f000000 -> "0.5";
      case 0xbf000000 -> "-0.5";
      case 0x40000000 -> "2.0";
      case 0xc0000000 -> "-2.0";
      case 0x40800000 -> "4.0";
      case 0xc0800000 -> "-4.0";
      case 0x3e22f983 -> "0.15915494";
      default -> null;
    };
  }

  static String float16Name(int bits) {
    return switch (bits) {
      case 0x3c00 -> "1.0";
      case 0xbc00 -> "-1.0";
      case 0x3800 -> "0.5";
      case 0xb800 -> "-0.5";
      case 0x4000 -> "2.0";
      case 0xc000 -> "-2.0";
      case 0x4400 -> "4.0";
      case 0xc400 -> "-4.0";
      case 0x3118 -> "0.15915494";
      default -> null;
    };
  }

  static String float64Name(long bits) {
    if (bits == 0) return "0.0";
    if (bits == 0x3fc45f306dc9c882L) return "0.15915494309189532";
    double d = Double.longBitsToDouble(bits);
    if (d == 1.0 || d == -1.0 || d == 0.5 || d == -0.5 || d == 2.0 || d == -2.0 || d == 4.0 || d == -4.0) {
      return Double.toString(d);
    }
    return null;
  }
}
