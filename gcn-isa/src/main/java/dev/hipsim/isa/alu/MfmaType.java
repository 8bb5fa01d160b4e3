package dev.hipsim.isa.alu;

/** Element types of MFMA operands. FP8/BF8 are the gfx940 FNUZ formats ({@link dev.hipsim.isa.fp.Fp8}). */
public enum MfmaType {
  F32(32),
  /** f32 in registers, multiplied at reduced ("xf32") precision on gfx940. */
  XF32(32),
  F16(16),
  BF16(16),
  I8(8),
  F64(64),
  FP8(8),
  BF8(8),
  I32(32);

  /** Width of one element in the registers. */
  public final int bits;

  MfmaType(int bits) {
    this.bits = bits;
  }
}
