package dev.hipsim.isa.decode;

/** What an operand of a decoded instruction refers to. */
public enum OperandKind {
  /** Scalar registers s[index : index+dwords-1]. */
  SGPR,
  /** Vector registers v[index : index+dwords-1]. */
  VGPR,
  /** Accumulation registers a[index : index+dwords-1] (gfx90a+: the upper half of the unified register file). */
  AGPR,
  /** Trap temporaries ttmp[index : index+dwords-1]. */
  TTMP,
  /** A named register or read-only source such as vcc, exec, m0 or src_shared_base; index is its encoding. */
  SPECIAL,
  /** An inline constant; {@link Operand#value()} holds its bits as the operand's type reads them. */
  INLINE_CONSTANT,
  /** A 32-bit literal following the instruction; {@link Operand#value()} holds it as the operand's type reads it. */
  LITERAL
}
