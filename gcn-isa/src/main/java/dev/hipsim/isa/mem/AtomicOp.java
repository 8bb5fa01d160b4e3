package dev.hipsim.isa.mem;

/**
 * Read-modify-write operations of the global/flat atomic instructions. Each returns the value memory held before.
 * Float operations interpret the bits as IEEE values (F32 for 32-bit, F64 for 64-bit accesses).
 */
public enum AtomicOp {
  /** new = value. */
  SWAP,
  /** new = (old == compare) ? value : old. */
  CMPSWAP,
  ADD,
  SUB,
  /** Signed minimum. */
  SMIN,
  UMIN,
  SMAX,
  UMAX,
  AND,
  OR,
  XOR,
  /** new = (old >= value) ? 0 : old + 1 (unsigned). */
  INC,
  /** new = (old == 0 || old > value) ? value : old - 1 (unsigned). */
  DEC,
  /** IEEE add of the value as F32 (32-bit) or F64 (64-bit). */
  FADD,
  FMIN,
  FMAX,
  /** Two packed F16 adds in one dword (32-bit only). */
  PK_FADD_F16,
  /** Two packed BF16 adds in one dword (32-bit only). */
  PK_FADD_BF16
}
