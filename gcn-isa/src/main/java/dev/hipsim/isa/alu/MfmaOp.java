package dev.hipsim.isa.alu;

import static dev.hipsim.isa.alu.MfmaType.BF16;
import static dev.hipsim.isa.alu.MfmaType.BF8;
import static dev.hipsim.isa.alu.MfmaType.F16;
import static dev.hipsim.isa.alu.MfmaType.F32;
import static dev.hipsim.isa.alu.MfmaType.F64;
import static dev.hipsim.isa.alu.MfmaType.FP8;
import static dev.hipsim.isa.alu.MfmaType.I32;
import static dev.hipsim.isa.alu.MfmaType.I8;
import static dev.hipsim.isa.alu.MfmaType.XF32;

/**
 * Every matrix instruction of gfx90a (CDNA2, 27) and gfx940/gfx942 (CDNA3, 46: 32 dense MFMA and 14 SMFMAC),
 * with the LLVM mnemonic and VOP3P opcode on each target (-1 where absent), the block shape M x N x K with B
 * blocks, the operand types, and which broadcast controls take effect (per AMD's matrix instruction calculator;
 * on gfx940 the f64 instructions use BLGP as neg:[A,B,C] instead). Opcodes were taken from LLVM's assembler.
 */
public enum MfmaOp {
  F32_32X32X1_2B_F32("v_mfma_f32_32x32x1f32", 0x40, "v_mfma_f32_32x32x1_2b_f32", 0x40, 32, 32, 1, 2, F32, F32, F32),
  F32_16X16X1_4B_F32("v_mfma_f32_16x16x1f32", 0x41, "v_mfma_f32_16x16x1_4b_f32", 0x41, 16, 16, 1, 4, F32, F32, F32),
  F32_4X4X1_16B_F32("v_mfma_f32_4x4x1f32", 0x42, "v_mfma_f32_4x4x1_16b_f32", 0x42, 4, 4, 1, 16, F32, F32, F32),
  F32_32X32X2_F32("v_mfma_f32_32x32x2f32", 0x44, "v_mfma_f32_32x32x2_f32", 0x44, 32, 32, 2, 1, F32, F32, F32),
  F32_16X16X4_F32("v_mfma_f32_16x16x4f32", 0x45, "v_mfma_f32_16x16x4_f32", 0x45, 16, 16, 4, 1, F32, F32, F32),
  F32_32X32X4_2B_F16("v_mfma_f32_32x32x4f16", 0x48, "v_mfma_f32_32x32x4_2b_f16", 0x48, 32, 32, 4, 2, F16, F16, F32),
  F32_16X16X4_4B_F16("v_mfma_f32_16x16x4f16", 0x49, "v_mfma_f32_16x16x4_4b_f16", 0x49, 16, 16, 4, 4, F16, F16, F32),
  F32_4X4X4_16B_F16("v_mfma_f32_4x4x4f16", 0x4a, "v_mfma_f32_4x4x4_16b_f16", 0x4a, 4, 4, 4, 16, F16, F16, F32),
  F32_32X32X8_F16("v_mfma_f32_32x32x8f16", 0x4c, "v_mfma_f32_32x32x8_f16", 0x4c, 32, 32, 8, 1, F16, F16, F32),
  F32_16X16X16_F16("v_mfma_f32_16x16x16f16", 0x4d, "v_mfma_f32_16x16x16_f16", 0x4d, 16, 16, 16, 1, F16, F16, F32),
  I32_32X32X4_2B_I8("v_mfma_i32_32x32x4i8", 0x50, "v_mfma_i32_32x32x4_2b_i8", 0x50, 32, 32, 4, 2, I8, I8, I32),
  I32_16X16X4_4B_I8("v_mfma_i32_16x16x4i8", 0x51, "v_mfma_i32_16x16x4_4b_i8", 0x51, 16, 16, 4, 4, I8, I8, I32),
  I32_4X4X4_16B_I8("v_mfma_i32_4x4x4i8", 0x52, "v_mfma_i32_4x4x4_16b_i8", 0x52, 4, 4, 4, 16, I8, I8, I32),
  I32_32X32X8_I8("v_mfma_i32_32x32x8i8", 0x54, null, -1, 32, 32, 8, 1, I8, I8, I32),
  I32_16X16X16_I8("v_mfma_i32_16x16x16i8", 0x55, null, -1, 16, 16, 16, 1, I8, I8, I32),
  I32_32X32X16_I8(null, -1, "v_mfma_i32_32x32x16_i8", 0x56, 32, 32, 16, 1, I8, I8, I32),
  I32_16X16X32_I8(null, -1, "v_mfma_i32_16x16x32_i8", 0x57, 16, 16, 32, 1, I8, I8, I32),
  /** The "_1k" bf16 instructions of gfx90a, renamed (and renumbered) on gfx940. */
  F32_32X32X4_2B_BF16("v_mfma_f32_32x32x4bf16_1k", 0x63, "v_mfma_f32_32x32x4_2b_bf16", 0x5d, 32, 32, 4, 2, BF16, BF16,
      F32),
  F32_16X16X4_4B_BF16("v_mfma_f32_16x16x4bf16_1k", 0x64, "v_mfma_f32_16x16x4_4b_bf16", 0x5e, 16, 16, 4, 4, BF16, BF16,
      F32),
  F32_4X4X4_16B_BF16("v_mfma_f32_4x4x4bf16_1k", 0x65, "v_mfma_f32_4x4x4_16b_bf16", 0x5f, 4, 4, 4, 16, BF16, BF16, F32),
  F32_32X32X8_BF16("v_mfma_f32_32x32x8bf16_1k", 0x66, "v_mfma_f32_32x32x8_bf16", 0x60, 32, 32, 8, 1, BF16, BF16, F32),
  F32_16X16X16_BF16("v_mfma_f32_16x16x16bf16_1k", 0x67, "v_mfma_f32_16x16x16_bf16", 0x61, 16, 16, 16, 1, BF16, BF16,
      F32),
  /** The original bf16 instructions (two bf16 per register), gfx90a only. */
  F32_32X32X2_2B_BF16("v_mfma_f32_32x32x2bf16", 0x68, null, -1, 32, 32, 2, 2, BF16, BF16, F32),
  F32_16X16X2_4B_BF16("v_mfma_f32_16x16x2bf16", 0x69, null, -1, 16, 16, 2, 4, BF16, BF16, F32),
  F32_4X4X2_16B_BF16("v_mfma_f32_4x4x2bf16", 0x6b, null, -1, 4, 4, 2, 16, BF16, BF16, F32),
  F32_32X32X4_BF16("v_mfma_f32_32x32x4bf16", 0x6c, null, -1, 32, 32, 4, 1, BF16, BF16, F32),
  F32_16X16X8_BF16("v_mfma_f32_16x16x8bf16", 0x6d, null, -1, 16, 16, 8, 1, BF16, BF16, F32),
  F64_16X16X4_F64("v_mfma_f64_16x16x4f64", 0x6e, "v_mfma_f64_16x16x4_f64", 0x6e, 16, 16, 4, 1, F64, F64, F64),
  F64_4X4X4_4B_F64("v_mfma_f64_4x4x4f64", 0x6f, "v_mfma_f64_4x4x4_4b_f64", 0x6f, 4, 4, 4, 4, F64, F64, F64),
  F32_16X16X8_XF32(null, -1, "v_mfma_f32_16x16x8_xf32", 0x3e, 16, 16, 8, 1, XF32, XF32, F32),
  F32_32X32X4_XF32(null, -1, "v_mfma_f32_32x32x4_xf32", 0x3f, 32, 32, 4, 1, XF32, XF32, F32),
  F32_16X16X32_BF8_BF8(null, -1, "v_mfma_f32_16x16x32_bf8_bf8", 0x70, 16, 16, 32, 1, BF8, BF8, F32),
  F32_16X16X32_BF8_FP8(null, -1, "v_mfma_f32_16x16x32_bf8_fp8", 0x71, 16, 16, 32, 1, BF8, FP8, F32),
  F32_16X16X32_FP8_BF8(null, -1, "v_mfma_f32_16x16x32_fp8_bf8", 0x72, 16, 16, 32, 1, FP8, BF8, F32),
  F32_16X16X32_FP8_FP8(null, -1, "v_mfma_f32_16x16x32_fp8_fp8", 0x73, 16, 16, 32, 1, FP8, FP8, F32),
  F32_32X32X16_BF8_BF8(null, -1, "v_mfma_f32_32x32x16_bf8_bf8", 0x74, 32, 32, 16, 1, BF8, BF8, F32),
  F32_32X32X16_BF8_FP8(null, -1, "v_mfma_f32_32x32x16_bf8_fp8", 0x75, 32, 32, 16, 1, BF8, FP8, F32),
  F32_32X32X16_FP8_BF8(null, -1, "v_mfma_f32_32x32x16_fp8_bf8", 0x76, 32, 32, 16, 1, FP8, BF8, F32),
  F32_32X32X16_FP8_FP8(null, -1, "v_mfma_f32_32x32x16_fp8_fp8", 0x77, 32, 32, 16, 1, FP8, FP8, F32),
  // Sparse (4:2 structured A) instructions of gfx940; K is the dense depth.
  SMFMAC_F32_16X16X32_F16(null, -1, "v_smfmac_f32_16x16x32_f16", 0x62, 16, 16, 32, 1, F16, F16, F32),
  SMFMAC_F32_32X32X16_F16(null, -1, "v_smfmac_f32_32x32x16_f16", 0x64, 32, 32, 16, 1, F16, F16, F32),
  SMFMAC_F32_16X16X32_BF16(null, -1, "v_smfmac_f32_16x16x32_bf16", 0x66, 16, 16, 32, 1, BF16, BF16, F32),
  SMFMAC_F32_32X32X16_BF16(null, -1, "v_smfmac_f32_32x32x16_bf16", 0x68, 32, 32, 16, 1, BF16, BF16, F32),
  SMFMAC_I32_16X16X64_I8(null, -1, "v_smfmac_i32_16x16x64_i8", 0x6a, 16, 16, 64, 1, I8, I8, I32),
  SMFMAC_I32_32X32X32_I8(null, -1, "v_smfmac_i32_32x32x32_i8", 0x6c, 32, 32, 32, 1, I8, I8, I32),
  SMFMAC_F32_16X16X64_BF8_BF8(null, -1, "v_smfmac_f32_16x16x64_bf8_bf8", 0x78, 16, 16, 64, 1, BF8, BF8, F32),
  SMFMAC_F32_16X16X64_BF8_FP8(null, -1, "v_smfmac_f32_16x16x64_bf8_fp8", 0x79, 16, 16, 64, 1, BF8, FP8, F32),
  SMFMAC_F32_16X16X64_FP8_BF8(null, -1, "v_smfmac_f32_16x16x64_fp8_bf8", 0x7a, 16, 16, 64, 1, FP8, BF8, F32),
  SMFMAC_F32_16X16X64_FP8_FP8(null, -1, "v_smfmac_f32_16x16x64_fp8_fp8", 0x7b, 16, 16, 64, 1, FP8, FP8, F32),
  SMFMAC_F32_32X32X32_BF8_BF8(null, -1, "v_smfmac_f32_32x32x32_bf8_bf8", 0x7c, 32, 32, 32, 1, BF8, BF8, F32),
  SMFMAC_F32_32X32X32_BF8_FP8(null, -1, "v_smfmac_f32_32x32x32_bf8_fp8", 0x7d, 32, 32, 32, 1, BF8, FP8, F32),
  SMFMAC_F32_32X32X32_FP8_BF8(null, -1, "v_smfmac_f32_32x32x32_fp8_bf8", 0x7e, 32, 32, 32, 1, FP8, BF8, F32),
  SMFMAC_F32_32X32X32_FP8_FP8(null, -1, "v_smfmac_f32_32x32x32_fp8_fp8", 0x7f, 32, 32, 32, 1, FP8, FP8, F32);

  /** Target selector for the per-target fields. */
  public static final int GFX90A = 0;
  public static final int GFX940 = 1;

  public final String nameGfx90a;
  public final int opcodeGfx90a;
  public final String nameGfx940;
  public final int opcodeGfx940;
  public final int m;
  public final int n;
  public final int k;
  public final int blocks;
  public final MfmaType typeA;
  public final MfmaType typeB;
  public final MfmaType typeCd;

  MfmaOp(String nameGfx90a, int opcodeGfx90a, String nameGfx940, int opcodeGfx940, int m, int n, int k, int blocks,
      MfmaType typeA, MfmaType typeB, MfmaType typeCd) {
    this.nameGfx90a = nameGfx90a;
    this.opcodeGfx90a = opcodeGfx90a;
    this.nameGfx940 = nameGfx940;
    this.opcodeGfx940 = opcodeGfx940;
    this.m = m;
    this.n = n;
    this.k = k;
    this.blocks = blocks;
    this.typeA = typeA;
    this.typeB = typeB;
    this.typeCd = typeCd;
  }

  public boolean sparse() {
    return name().startsWith("SMFMAC");
  }

  public boolean existsOn(int target) {
    return (target == GFX90A ? opcodeGfx90a : opcodeGfx940) >= 0;
  }

  public String mnemonic(int target) {
    return target == GFX90A ? nameGfx90a : nameGfx940;
  }

  public int opcode(int target) {
    return target == GFX90A ? opcodeGfx90a : opcodeGfx940;
  }

  /** The instruction with this VOP3P opcode on the target, or null. */
  public static MfmaOp forOpcode(int target, int opcode) {
    for (MfmaOp op : values()) {
      if (op.opcode(target) == opcode) return op;
    }
    return null;
  }

  /** CBSZ/ABID broadcast the A blocks (multi-block dense instructions other than f64). */
  public boolean honoursCbszAbid() {
    return !sparse() && blocks > 1 && typeCd != F64;
  }

  /**
   * BLGP permutes the B lanes: every non-f64 CDNA2 instruction; on gfx940 the multi-block ones and the
   * single-block f32 ones only (the calculator lists no BLGP for gfx940's single-block f16/bf16/i8, xf32 and 8-bit
   * float instructions).
   */
  public boolean honoursBlgp(int target) {
    if (sparse() || typeCd == F64) return false;
    if (target == GFX90A) return true;
    return blocks > 1 || typeA == F32;
  }

  /** Registers one lane holds for A (sparse A holds half the K elements). */
  public int registersA() {
    int elements = (sparse() ? k / 2 : k) * m * blocks / 64;
    return Math.max(1, elements * typeA.bits / 32);
  }

  public int registersB() {
    return Math.max(1, k * n * blocks / 64 * typeB.bits / 32);
  }

  /** Registers one lane holds for C and D. */
  public int registersCd() {
    return m * n * blocks / 64 * typeCd.bits / 32;
  }
}
