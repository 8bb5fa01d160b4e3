package dev.hipsim.isa.interp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.disasm.InstructionPrinter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PreloadTest {
  /**
   * The sample instructions are the ones their comments say on every target, and all of them compile to executable
   * operations: otherwise the preload would silently ready less than it claims.
   */
  @ParameterizedTest
  @EnumSource(Target.class)
  void decodesAndCompilesEverySampleInstruction(Target target) {
    assertThat(Preload.samples(target)).map(InstructionPrinter::print).map(s -> s.split(" ")[0]).containsExactly(
        "s_load_dwordx2", "s_add_u32", "s_mul_i32", "s_and_b64", "s_cmp_lt_i32", "s_cselect_b32", "v_add_f32_e32",
        "v_mul_f32_e32", "v_fma_f32", "v_fmac_f32_e32", "v_add_f64", "v_lshlrev_b64", "v_add_co_u32_e32",
        "v_addc_co_u32_e32", "v_mad_u64_u32", "global_load_dword", "global_store_dword", "ds_write_b32",
        "ds_read_b32", "s_waitcnt", "s_barrier", "s_endpgm");
    assertThat(Preload.run(target)).isEqualTo(22);
  }
}
