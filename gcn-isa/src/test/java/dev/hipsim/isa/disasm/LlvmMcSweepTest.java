package dev.hipsim.isa.disasm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.decode.Decoder;
import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.Instruction;
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
        Comparison c = Comparison.run(target, format, rnd, n, true);
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

  /** Decodes a batch with both decoders and lists the disagreements. */
  static final class Comparison {
    int compared;
    int crashes;
    final List<String> mismatches = new ArrayList<>();

    static Comparison run(Target target, Format format, Random rnd, int count, boolean mostlyValid)
        throws Exception {
      Decoder decoder = new Decoder(target);
      List<int[]> probes = new ArrayList<>(count);
      List<Instruction> ours = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        int[] words = RandomEncodings.draw(rnd, target, format, mostlyValid && rnd.nextInt(10) != 0);
        byte[] bytes = new byte[words.length * 4];
        for (int k = 0; k < words.length; k++) {
          for (int b = 0; b < 4; b++) bytes[4 * k + b] = (byte) (words[k] >>> (8 * b));
        }
        Instruction inst = decoder.decode(bytes, 0, bytes.length, 0);
        ours.add(inst);
        probes.add(inst.isValid() ? Arrays.copyOf(words, inst.size() / 4) : words);
      }
      List<LlvmMc.Result> theirs = LlvmMc.disassemble(target.llvmCpu(), probes);
      Comparison c = new Comparison();
      for (int i = 0; i < count; i++) {
        LlvmMc.Result r = theirs.get(i);
        if (r.crashed()) {
          c.crashes++;
          continue;
        }
        c.compared++;
        Instruction inst = ours.get(i);
        String mine = inst.isValid() ? LlvmMc.normalize(InstructionPrinter.print(inst)) : null;
        String llvm = r.invalid() ? null : LlvmMc.normalize(r.text());
        boolean same = mine == null ? llvm == null
            : llvm != null && mine.equals(llvm) && r.bytes() == inst.size();
        if (!same) {
          StringBuilder w = new StringBuilder();
          for (int k = 0; k < probes.get(i).length; k++) w.append(String.format("%08x ", probes.get(i)[k]));
          c.mismatches.add(String.format("%s %s [%s] llvm: %s (%d) | ours: %s (%d)", target.processor(), format, w,
              llvm, r.bytes(), mine, inst.size()));
        }
      }
      return c;
    }
  }
}
