package dev.hipsim.isa.interp;

/**
 * The per-lane computation of a VALU operation. Operands arrive as raw bits in a long (32- and 16-bit values in
 * the low bits, zero-extended); the result is returned the same way. For operations that also produce a carry or a
 * VCC flag, bit 32 of a 32-bit result carries it; compares return 0 or 1.
 */
@FunctionalInterface
interface LaneFn {
  long apply(long a, long b, long c, int mode);
}
