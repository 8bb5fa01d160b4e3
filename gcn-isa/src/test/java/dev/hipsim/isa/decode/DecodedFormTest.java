package dev.hipsim.isa.decode;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The decoded form an interpreter reads, on hand-checked encodings (the text is checked elsewhere). */
class DecodedFormTest {

  private static Instruction decode(Target t, int... words) {
    byte[] b = new byte[words.length * 4];
    for (int i = 0; i < words.length; i++) {
      for (int k = 0; k < 4; k++) b[4 * i + k] = (byte) (words[i] >>> (8 * k));
    }
    return new Decoder(t).decode(b, 0, b.length, 0x1000);
  }

  @Test
  void vop2WithLiteralAndImplicitCarry() {
    // v_addc_co_u32_e32 v3, vcc, v1, v3, vcc
    Instruction i = decode(Target.GFX90A, 0x38060701);
    assertThat(i.operation()).isEqualTo(Operation.V_ADDC_CO_U32);
    assertThat(i.encoding()).isEqualTo(Encoding.VOP2);
    assertThat(i.sdst()).isEqualTo(new Operand(OperandKind.SPECIAL, Special.VCC, 2, 0, null, 0));
    assertThat(i.src2().index()).isEqualTo(Special.VCC);
    assertThat(i.src0()).extracting(Operand::kind, Operand::index).containsExactly(OperandKind.VGPR, 1);
    // v_and_b32_e32 v3, 0x7fffffff, v2: a literal, 8 bytes
    Instruction lit = decode(Target.GFX90A, 0x260604FF, 0x7FFFFFFF);
    assertThat(lit.size()).isEqualTo(8);
    assertThat(lit.src0()).extracting(Operand::kind, Operand::value).containsExactly(OperandKind.LITERAL, 0x7fffffffL);
  }

  @Test
  void vop3CarriesModifiersOnOperandsAndControlsOnTheInstruction() {
    // v_fma_f32 v0, -v0, |v1|, -|v2| and v_fma_f32 v0, v0, v1, v2 clamp mul:2
    Instruction i = decode(Target.GFX90A, 0xd1cb0600, 0xa40a0300);
    assertThat(i.operation()).isEqualTo(Operation.V_FMA_F32);
    assertThat(i.src0().mods()).isEqualTo(Operand.NEG);
    assertThat(i.src1().mods()).isEqualTo(Operand.ABS);
    assertThat(i.src2().mods()).isEqualTo(Operand.NEG | Operand.ABS);
    Instruction c = decode(Target.GFX90A, 0xd1cb8000, 0x0c0a0300);
    assertThat(c.clamp()).isTrue();
    assertThat(c.omod()).isEqualTo(1);
  }

  @Test
  void inlineConstantsAreReadAsTheOperandType() {
    // v_add_f64 v[0:1], 0.5, v[2:3]: the f64 bits of 0.5; v_add_f16_e32 v0, 0.5, v1: the f16 bits
    assertThat(decode(Target.GFX90A, 0xd2800000, 0x000204f0).src0().value())
        .isEqualTo(Double.doubleToRawLongBits(0.5));
    assertThat(decode(Target.GFX90A, 0x3e0002f0).src0().value()).isEqualTo(0x3800);
    // v_cvt_f32_f64_e32 v0, lit: the literal is the high half of the double
    assertThat(decode(Target.GFX90A, 0x7e001eff, 0x3fe00000).src0().value())
        .isEqualTo(Double.doubleToRawLongBits(0.5));
    // s_mov_b32 s0, -16 (inline)
    assertThat(decode(Target.GFX90A, 0xbe8000d0).src0().value()).isEqualTo(-16);
  }

  @Test
  void mfmaOperandsFollowTheAccumulatorBits() {
    // v_mfma_f32_16x16x16f16 a[0:3], a[0:1], a[2:3], a[2:5] cbsz:3 abid:2 blgp:7
    Instruction i = decode(Target.GFX90A, 0xd3cd9300, 0xfc0a0500 | 0x00000000);
    assertThat(i.operation()).isEqualTo(Operation.V_MFMA_F32_16X16X16_F16);
    assertThat(i.vdst()).extracting(Operand::kind, Operand::index, Operand::dwords)
        .containsExactly(OperandKind.AGPR, 0, 4);
    assertThat(i.src0().kind()).isEqualTo(OperandKind.AGPR);
    assertThat(i.src2().kind()).isEqualTo(OperandKind.AGPR);
    assertThat(i.mfma()).isEqualTo(new Mfma(3, 2, 7));
  }

  @Test
  void dppAndSdwaControls() {
    // v_mov_b64_dpp v[0:1], v[2:3] row_newbcast:1 row_mask:0xf bank_mask:0xf (gfx940)
    Instruction d = decode(Target.GFX942, 0x7e0070fa, 0xff015102);
    assertThat(d.operation()).isEqualTo(Operation.V_MOV_B64);
    assertThat(d.encoding()).isEqualTo(Encoding.DPP);
    assertThat(d.dpp()).isEqualTo(new Dpp(0x151, 0xf, 0xf, false));
    // v_add_u32_sdwa v10, sext(v20), sext(v15) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD
    Instruction s = decode(Target.GFX90A, 0x68141ef9, 0x0e0e0614);
    assertThat(s.encoding()).isEqualTo(Encoding.SDWA);
    assertThat(s.src0().has(Operand.SEXT)).isTrue();
    assertThat(s.sdwa()).isEqualTo(new Sdwa(6, 0, 6, 6));
  }

  @Test
  void memoryFieldsAndCachePolicy() {
    // global_load_dword v2, v[2:3], off: saddr off makes the address 64-bit
    Instruction g = decode(Target.GFX90A, 0xdc508000, 0x027f0002);
    assertThat(g.operation()).isEqualTo(Operation.GLOBAL_LOAD_DWORD);
    assertThat(g.operand(Slot.ADDR).dwords()).isEqualTo(2);
    assertThat(g.operand(Slot.SADDR)).isNull();
    // buffer_load_dword ... sc0 nt sc1 on gfx940 are glc slc scc
    Instruction b = decode(Target.GFX942, 0xe052c000 | 1 << 12, 0x05020a14);
    assertThat(b.memory().cachePolicy()).isEqualTo(MemoryFields.GLC | MemoryFields.SLC | MemoryFields.SCC);
    assertThat(b.memory().offen()).isTrue();
    // ds_read2_b32 v[0:1], v2 offset0:1 offset1:2
    Instruction ds = decode(Target.GFX90A, 0xd86e0201, 0x00000002);
    assertThat(ds.memory().offset()).isEqualTo(1);
    assertThat(ds.memory().offset1()).isEqualTo(2);
  }

  @Test
  void branchesAndPrograms() {
    // s_cbranch_execz 828 at 0x1a40 jumps to 0x1a44 + 828*4
    Instruction br = new Decoder(Target.GFX90A).decode(new byte[] {0x3c, 0x03, (byte) 0x88, (byte) 0xbf}, 0, 4,
        0x1a40);
    assertThat(br.operation()).isEqualTo(Operation.S_CBRANCH_EXECZ);
    assertThat(br.branchTarget()).isEqualTo(0x1a44 + 828 * 4);
    // s_branch -3 (65533)
    Instruction back = decode(Target.GFX90A, 0xbf82fffd);
    assertThat(back.branchTarget()).isEqualTo(0x1000 + 4 - 12);
    byte[] code = {0x00, 0x00, (byte) 0x80, (byte) 0xbf, (byte) 0xff, 0x02, 0x00, 0x7e, 0x01, 0x00, 0x00, 0x00,
        0x00, 0x00, (byte) 0x81, (byte) 0xbf};
    DecodedProgram p = new Decoder(Target.GFX90A).decodeAll(code, 0, code.length, 0x100);
    assertThat(p.size()).isEqualTo(3);
    assertThat(p.indexOf(0x104)).isEqualTo(1);
    assertThat(p.indexOf(0x108)).isEqualTo(-1);
    assertThat(p.at(0x10c).operation()).isEqualTo(Operation.S_ENDPGM);
  }

  @Test
  void invalidWordsAreFourByteInvalidInstructions() {
    Instruction i = decode(Target.GFX90A, 0x7e2e0000, 0xffffffff);
    assertThat(i.isValid()).isFalse();
    assertThat(i.operation()).isEqualTo(Operation.INVALID);
    assertThat(i.size()).isEqualTo(4);
    // v_mac_f32 (VOP2 22) exists on gfx90a and is gone on gfx940
    assertThat(decode(Target.GFX942, 0x2c000000).isValid()).isFalse();
    assertThat(decode(Target.GFX90A, 0x2c000000).operation()).isEqualTo(Operation.V_MAC_F32);
  }
}
