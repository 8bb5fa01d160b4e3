package dev.hipsim.isa.decode;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OpcodeTablesTest {
  private final OpcodeTables tables = OpcodeTables.get();

  @Test
  void everyOperationIsKnownToSomeTarget() {
    Set<Operation> known = EnumSet.noneOf(Operation.class);
    for (Target t : Target.values()) known.addAll(tables.operations(t));
    Set<Operation> all = EnumSet.allOf(Operation.class);
    all.remove(Operation.INVALID);
    assertThat(known).isEqualTo(all);
  }

  @Test
  void gfx940AndGfx942ShareOneInstructionSet() {
    assertThat(tables.operations(Target.GFX940)).isEqualTo(tables.operations(Target.GFX942));
  }

  @Test
  void targetDependentOpcodesResolveToDifferentOperations() {
    List<Operation> cdna2 = tables.operations(Target.GFX90A);
    List<Operation> cdna3 = tables.operations(Target.GFX942);
    assertThat(cdna2).contains(Operation.V_MADMK_F32, Operation.V_MADAK_F32, Operation.V_MAC_F32)
        .doesNotContain(Operation.V_FMAMK_F32, Operation.V_MOV_B64, Operation.V_CVT_F32_FP8);
    assertThat(cdna3).contains(Operation.V_FMAMK_F32, Operation.V_FMAAK_F32, Operation.V_MOV_B64,
        Operation.V_CVT_F32_FP8, Operation.V_SMFMAC_F32_16X16X32_F16).doesNotContain(Operation.V_MADMK_F32);
    assertThat(tables.lookup(Target.GFX90A, Format.VOP2, 23).operation()).isEqualTo(Operation.V_MADMK_F32);
    assertThat(tables.lookup(Target.GFX940, Format.VOP2, 23).operation()).isEqualTo(Operation.V_FMAMK_F32);
    // one operation, spelled differently on the two generations
    assertThat(tables.lookup(Target.GFX90A, Format.VOP3P, 76).mnemonic()).isEqualTo("v_mfma_f32_32x32x8f16");
    assertThat(tables.lookup(Target.GFX942, Format.VOP3P, 76).mnemonic()).isEqualTo("v_mfma_f32_32x32x8_f16");
    assertThat(tables.lookup(Target.GFX90A, Format.VOP3P, 76).operation())
        .isSameAs(tables.lookup(Target.GFX942, Format.VOP3P, 76).operation());
  }

  @Test
  void theTablesCoverTheWholeInstructionSet() {
    // counts as of LLVM 22 (rows per format summed over both generations' operations)
    System.out.printf("operations: gfx90a %d, gfx940/942 %d, rows gfx90a %d, gfx940 %d%n",
        tables.operations(Target.GFX90A).size(), tables.operations(Target.GFX942).size(),
        tables.rows(Target.GFX90A).size(), tables.rows(Target.GFX942).size());
    assertThat(tables.operations(Target.GFX90A).size()).isGreaterThan(1000);
    assertThat(tables.operations(Target.GFX942).size()).isGreaterThan(1000);
  }
}
