package dev.hipsim.isa.disasm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.LifecycleContext;
import net.jqwik.api.lifecycle.SkipExecutionHook;

/**
 * Our text against LLVM 22's {@code llvm-mc --disassemble} on random encodings of every format (skipped, saying so,
 * when llvm-mc is not installed). Each try is one llvm-mc run over a batch: 40 words of each format and 100 words
 * with random top bits.
 */
@AddLifecycleHook(LlvmMcProperties.NeedsLlvmMc.class)
class LlvmMcProperties {

  /** Skips the properties (a skipped test with the reason, not an error) when llvm-mc is not installed. */
  static final class NeedsLlvmMc implements SkipExecutionHook {
    @Override
    public SkipResult shouldBeSkipped(LifecycleContext context) {
      return LlvmMc.available() ? SkipResult.doNotSkip()
          : SkipResult.skip("llvm-mc 22 not installed at " + LlvmMc.MC + ": comparison skipped");
    }
  }

  @Property(tries = 10)
  void gfx90aAgreesWithLlvmMc(@ForAll long seed) throws Exception {
    compare(Target.GFX90A, seed);
  }

  @Property(tries = 10)
  void gfx942AgreesWithLlvmMc(@ForAll long seed) throws Exception {
    compare(Target.GFX942, seed);
  }

  private static void compare(Target target, long seed) throws Exception {
    Random rnd = new Random(seed);
    List<int[]> words = new ArrayList<>();
    for (Format f : Format.values()) words.addAll(RandomEncodings.batch(rnd, target, f, 40));
    for (int i = 0; i < 100; i++) words.add(RandomEncodings.anyWords(rnd));
    LlvmMcComparison c = LlvmMcComparison.run(target, words);
    assertThat(c.compared).isGreaterThan(words.size() * 9 / 10);
    assertThat(c.mismatches).isEmpty();
  }
}
