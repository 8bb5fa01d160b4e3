package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Instruction;

/** VOP3P: packed 16-bit and 32-bit math, dot products and the matrix (MFMA) instructions. */
final class PackedOps {
  private PackedOps() {}

  static Op compile(Instruction inst) {
    return null;
  }
}
