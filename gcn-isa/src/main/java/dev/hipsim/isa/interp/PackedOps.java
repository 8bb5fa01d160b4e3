package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Operation;

/**
 * VOP3P: packed 16-bit and 32-bit math, mixed-precision FMA and dot products ({@link PackedMath}), the matrix
 * instructions ({@link MatrixOps}) and the AGPR moves, which are plain VALU moves between the two halves of the
 * unified register file.
 */
final class PackedOps {
  private PackedOps() {}

  static Op compile(Instruction inst) {
    Operation op = inst.operation();
    if (op.category() == Operation.Category.MATRIX) return MatrixOps.compile(inst);
    switch (op) {
      case V_ACCVGPR_READ_B32: case V_ACCVGPR_WRITE_B32: return VectorAluOps.compile(inst);
      case V_PK_MOV_B32: return new PackedMath.Move(inst);
      case V_PK_FMA_F32: case V_PK_MUL_F32: case V_PK_ADD_F32: return new PackedMath.Float2(inst);
      case V_FMA_MIX_F32: case V_FMA_MIXLO_F16: case V_FMA_MIXHI_F16: return new PackedMath.Mix(inst);
      case V_DOT2_F32_F16: case V_DOT2_I32_I16: case V_DOT2_U32_U16: case V_DOT4_I32_I8: case V_DOT4_U32_U8:
      case V_DOT8_I32_I4: case V_DOT8_U32_U4:
        return new PackedMath.Dot(inst);
      default:
        return inst.info().opcode() <= dev.hipsim.isa.alu.PackedOps.PK_MAX_F16 && op.name().startsWith("V_PK_")
            ? new PackedMath.Half2(inst) : null;
    }
  }
}
