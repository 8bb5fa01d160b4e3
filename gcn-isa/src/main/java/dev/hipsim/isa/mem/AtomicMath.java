package dev.hipsim.isa.mem;

import dev.hipsim.isa.fp.Half;

/** The arithmetic of {@link AtomicOp}, shared by every {@link GpuMemory} implementation. */
public final class AtomicMath {
  private AtomicMath() {}

  /** The new 32-bit value of an atomic, given the old one. */
  public static int apply32(AtomicOp op, int old, int value, int compare) {
    switch (op) {
      case SWAP: return value;
      case CMPSWAP: return old == compare ? value : old;
      case ADD: return old + value;
      case SUB: return old - value;
      case SMIN: return Math.min(old, value);
      case UMIN: return Integer.compareUnsigned(old, value) <= 0 ? old : value;
      case SMAX: return Math.max(old, value);
      case UMAX: return Integer.compareUnsigned(old, value) >= 0 ? old : value;
      case AND: return old & value;
      case OR: return old | value;
      case XOR: return old ^ value;
      case INC: return Integer.compareUnsigned(old, value) >= 0 ? 0 : old + 1;
      case DEC: return old == 0 || Integer.compareUnsigned(old, value) > 0 ? value : old - 1;
      case FADD: return Float.floatToRawIntBits(Float.intBitsToFloat(old) + Float.intBitsToFloat(value));
      case FMIN: return Float.floatToRawIntBits(fmin(Float.intBitsToFloat(old), Float.intBitsToFloat(value)));
      case FMAX: return Float.floatToRawIntBits(fmax(Float.intBitsToFloat(old), Float.intBitsToFloat(value)));
      case PK_FADD_F16: return packedHalfAdd(old, value);
      case PK_FADD_BF16: return packedBf16Add(old, value);
      default: throw new AssertionError(op);
    }
  }

  /** The new 64-bit value of an atomic, given the old one. */
  public static long apply64(AtomicOp op, long old, long value, long compare) {
    switch (op) {
      case SWAP: return value;
      case CMPSWAP: return old == compare ? value : old;
      case ADD: return old + value;
      case SUB: return old - value;
      case SMIN: return Math.min(old, value);
      case UMIN: return Long.compareUnsigned(old, value) <= 0 ? old : value;
      case SMAX: return Math.max(old, value);
      case UMAX: return Long.compareUnsigned(old, value) >= 0 ? old : value;
      case AND: return old & value;
      case OR: return old | value;
      case XOR: return old ^ value;
      case INC: return Long.compareUnsigned(old, value) >= 0 ? 0 : old + 1;
      case DEC: return old == 0 || Long.compareUnsigned(old, value) > 0 ? value : old - 1;
      case FADD: return Double.doubleToRawLongBits(Double.longBitsToDouble(old) + Double.longBitsToDouble(value));
      case FMIN: return Double.doubleToRawLongBits(dmin(Double.longBitsToDouble(old), Double.longBitsToDouble(value)));
      case FMAX: return Double.doubleToRawLongBits(dmax(Double.longBitsToDouble(old), Double.longBitsToDouble(value)));
      default: throw new IllegalArgumentException(op + " has no 64-bit form");
    }
  }

  // IEEE minNum/maxNum: a NaN operand yields the other operand.
  private static float fmin(float a, float b) {
    return Float.isNaN(a) ? b : Float.isNaN(b) ? a : Math.min(a, b);
  }

  private static float fmax(float a, float b) {
    return Float.isNaN(a) ? b : Float.isNaN(b) ? a : Math.max(a, b);
  }

  private static double dmin(double a, double b) {
    return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.min(a, b);
  }

  private static double dmax(double a, double b) {
    return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.max(a, b);
  }

  private static int packedHalfAdd(int old, int value) {
    int lo = halfAdd(old & 0xffff, value & 0xffff);
    int hi = halfAdd(old >>> 16, value >>> 16);
    return (hi << 16) | lo;
  }

  private static int halfAdd(int a, int b) {
    return Half.fromFloat(Half.toFloat(a) + Half.toFloat(b));
  }

  private static int packedBf16Add(int old, int value) {
    int lo = bf16Add(old & 0xffff, value & 0xffff);
    int hi = bf16Add(old >>> 16, value >>> 16);
    return (hi << 16) | lo;
  }

  private static int bf16Add(int a, int b) {
    float sum = Float.intBitsToFloat(a << 16) + Float.intBitsToFloat(b << 16);
    int bits = Float.floatToRawIntBits(sum);
    if (Float.isNaN(sum)) return (bits >>> 16) | 0x40;
    int rounding = 0x7fff + ((bits >>> 16) & 1); // round to nearest even
    return (bits + rounding) >>> 16;
  }
}
