package dev.hipsim.isa.fp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.ElfSymbol;
import dev.hipsim.testing.Corpus;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.Map;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class FpModeTest {
  @Property(tries = 500)
  void fieldsRoundTrip(@ForAll @IntRange(max = 3) int rs, @ForAll @IntRange(max = 3) int rd,
      @ForAll @IntRange(max = 3) int ds, @ForAll @IntRange(max = 3) int dd, @ForAll boolean dx10,
      @ForAll boolean ieee) {
    int mode = FpMode.of(rs, rd, ds, dd, dx10, ieee);
    assertThat(FpMode.roundSingle(mode)).isEqualTo(rs);
    assertThat(FpMode.roundDouble(mode)).isEqualTo(rd);
    assertThat(FpMode.denormSingle(mode)).isEqualTo(ds);
    assertThat(FpMode.denormDouble(mode)).isEqualTo(dd);
    assertThat(FpMode.dx10Clamp(mode)).isEqualTo(dx10);
    assertThat(FpMode.ieee(mode)).isEqualTo(ieee);
    assertThat(FpMode.round(mode, FpFormat.F16)).isEqualTo(rd);
    assertThat(FpMode.round(mode, FpFormat.F32)).isEqualTo(rs);
    assertThat(FpMode.flushesInput(mode, FpFormat.F64)).isEqualTo((dd & 1) == 0);
    assertThat(FpMode.flushesOutput(mode, FpFormat.F32)).isEqualTo((ds & 2) == 0);
    // The descriptor carries the same eight bits at rsrc1[19:12], DX10_CLAMP at 21, IEEE_MODE at 23.
    int rsrc1 = (rs | rd << 2 | ds << 4 | dd << 6) << 12 | (dx10 ? 1 << 21 : 0) | (ieee ? 1 << 23 : 0) | 0x3f;
    assertThat(FpMode.fromComputePgmRsrc1(rsrc1)).isEqualTo(mode);
    assertThat(FpMode.withRound(FpMode.withDenorm(mode, FpFormat.F16, 1), FpFormat.F32, 2))
        .isEqualTo(FpMode.of(2, rd, ds, 1, dx10, ieee));
  }

  @Example
  void fp16OverflowBit() {
    assertThat(FpMode.fromComputePgmRsrc1(1 << 26)).isEqualTo(FpMode.FP16_OVFL_BIT);
    assertThat(FpMode.fp16Overflow(FpMode.FP16_OVFL_BIT)).isTrue();
  }

  /**
   * Every kernel descriptor in the corpus (hipcc defaults) decodes to nearest-even rounding with denormals kept,
   * DX10_CLAMP and IEEE on: {@link FpMode#DEFAULT}.
   */
  @Example
  void corpusKernelsUseTheDefaultMode() throws Exception {
    Map<Integer, Integer> modes = new HashMap<>();
    int kernels = 0;
    for (Corpus.CodeObject co : Corpus.codeObjects()) {
      try (ElfFile elf = ElfFile.open(co.hsaco())) {
        ByteBuffer image = ByteBuffer.wrap(Corpus.read(co.hsaco())).order(ByteOrder.LITTLE_ENDIAN);
        for (ElfSymbol s : elf.symbols()) {
          if (!s.name().endsWith(".kd") || s.size() != 64) continue;
          int rsrc1 = image.getInt((int) elf.fileOffsetOf(s.value()) + 48);
          modes.merge(FpMode.fromComputePgmRsrc1(rsrc1), 1, Integer::sum);
          kernels++;
        }
      }
    }
    assertThat(kernels).isGreaterThan(20);
    assertThat(modes).containsOnlyKeys(FpMode.DEFAULT);
  }
}
