package dev.hipsim.hsa.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.testing.Corpus;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

class CodeObjectTest {
  private static final long BASE = 0x7f00_0000_0000L;

  @TestFactory
  Stream<DynamicTest> everyCorpusCodeObjectIsPrepared() {
    return Corpus.codeObjects().stream().map(c -> DynamicTest.dynamicTest(c.toString(), () -> {
      CodeObject co = CodeObject.parse(ByteBuffer.wrap(Corpus.read(c.hsaco())));
      assertThat(co.target().targetId()).isEqualTo(c.targetId());
      assertThat(co.kernels()).isNotEmpty();
      assertThat(co.span()).isPositive();
      byte[] image = co.placedImage(BASE, name -> null);
      assertThat(image).hasSize((int) co.span());
      for (CodeObject.KernelSymbol k : co.kernels().values()) {
        assertThat(k.descriptorOffset()).isBetween(0L, co.span() - 64);
      }
    }));
  }

  @Test
  void relocatesTheDeviceFunctionPointerTable() throws Exception {
    Corpus.CodeObject c = Corpus.codeObjects().stream()
        .filter(x -> x.variant().equals("gfx90a-v4") && x.program().equals("device_globals")).findFirst().orElseThrow();
    CodeObject co = CodeObject.parse(ByteBuffer.wrap(Corpus.read(c.hsaco())));
    assertThat(co.relocations()).isNotEmpty().allSatisfy(r -> assertThat(r.typeName()).isEqualTo("R_AMDGPU_RELATIVE64"));
    assertThat(co.variables()).containsKeys("ops", "counter", "table", "scale", "coeffs");
    ByteBuffer image = ByteBuffer.wrap(co.placedImage(BASE, name -> null)).order(ByteOrder.LITTLE_ENDIAN);
    CodeObject.VariableSymbol ops = co.variables().get("ops");
    long twice = image.getLong((int) ops.offset());
    long square = image.getLong((int) ops.offset() + 8);
    CodeObject.Segment text = co.segments().stream().filter(s -> (s.flags() & 1) != 0).findFirst().orElseThrow();
    for (long target : new long[] {twice, square}) {
      assertThat(target - BASE).isBetween(text.loadOffset(), text.loadOffset() + text.memorySize());
    }
    assertThat(twice).isNotEqualTo(square);
  }

  @Test
  void rejectsHostBinariesAndCorruptImages() {
    assertThatThrownBy(() -> CodeObject.parse(ByteBuffer.wrap(Corpus.read(Corpus.binary("gfx90a-v4", "vector_add")))))
        .isInstanceOf(CodeObjectException.class).hasMessageContaining("not an AMDGPU code object");
    byte[] co = Corpus.read(Corpus.codeObjects().get(0).hsaco());
    byte[] cut = java.util.Arrays.copyOf(co, 300);
    assertThatThrownBy(() -> CodeObject.parse(ByteBuffer.wrap(cut))).isInstanceOf(CodeObjectException.class)
        .hasMessageContaining("corrupt code object").hasMessageContaining("file offset");
  }
}
