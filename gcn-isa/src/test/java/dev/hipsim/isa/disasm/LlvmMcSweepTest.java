package dev.hipsim.isa.disasm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.Target;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A large random sweep against llvm-mc, for driving the tables to parity: {@code -Dhipsim.mc.sweep=N} probes per
 * format and target (off by default; the jqwik property runs a smaller sample in every build).
 */
class LlvmMcSweepTest {

  @Test
  void sweep() throws Exception {
    int n = Integer.getInteger("hipsim.mc.sweep", 0);
    Assumptions.assumeTrue(n > 0, "set -Dhipsim.mc.sweep=N to run the llvm-mc sweep");
    Assumptions.assumeTrue(LlvmMc.available(), "llvm-mc 22 not installed at " + LlvmMc.MC);
    String only = System.getProperty("hipsim.mc.formats", "");
    long seed = Long.getLong("hipsim.mc.seed", 1);
    List<String> report = new ArrayList<>();
    Map<String, Integer> mismatchByFormat = new TreeMap<>();
    int total = 0;
    int bad = 0;
    int crashes = 0;
    for (Target target : new Target[] {Target.GFX90A, Target.GFX942}) {
      for (Format format : Format.values()) {
        if (!only.isEmpty() && !Arrays.asList(only.split(",")).contains(format.name())) continue;
        Random rnd = new Random(seed * 31 + format.ordinal() * 7 + target.ordinal());
        long t0 = System.nanoTime();
        LlvmMcComparison c = LlvmMcComparison.run(target, RandomEncodings.batch(rnd, target, format, n));
        System.out.printf("  %s %-9s %d compared, %d mismatches, %d crashes, %.1f s%n", target.processor(), format,
            c.compared, c.mismatches.size(), c.crashes, (System.nanoTime() - t0) / 1e9);
        total += c.compared;
        bad += c.mismatches.size();
        crashes += c.crashes;
        if (!c.mismatches.isEmpty()) mismatchByFormat.put(target.processor() + " " + format, c.mismatches.size());
        c.mismatches.stream().limit(8).forEach(report::add);
      }
    }
    System.out.printf("llvm-mc sweep: %d compared, %d mismatches, %d llvm-mc crashes skipped%n", total, bad, crashes);
    System.out.println(mismatchByFormat);
    report.forEach(System.out::println);
    assertThat(report).isEmpty();
  }

}
