package dev.hipsim.isa.decode;

/**
 * How a source operand reads a constant: the inline-constant bit patterns it gets and how a 32-bit literal is
 * widened. These are LLVM's operand types folded to the distinctions the hardware and the printer make.
 */
public enum ValueType {
  /** 32-bit integer or float (and packed 16-bit integer pairs): float constants are binary32. */
  B32,
  /** binary16: float constants are binary16, a literal supplies the low 16 bits. */
  F16,
  /** 16-bit integer: float constants are binary16 patterns, printed as integers. */
  I16,
  /** A pair of binary16 values: float constants are binary16 in the low half. */
  V2F16,
  /** binary64: float constants are binary64, a literal supplies the high 32 bits. */
  F64,
  /** 64-bit integer: float constants are binary64, a literal is zero-extended. */
  I64,
  /** A register-only operand: a constant here is invalid (LLVM prints it but flags it). */
  REG;

  /** Whether the operand is 64 bits wide as a constant. */
  public boolean is64() {
    return this == F64 || this == I64;
  }
}
