package dev.hipsim.isa.disasm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.SectionHeader;
import dev.hipsim.isa.decode.Decoder;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.testing.Corpus;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Every instruction of every code object of the corpus, decoded and printed by us, against the text LLVM 22's
 * llvm-objdump recorded for it (same address, same length, same text up to spacing).
 */
class CorpusParityTest {

  @Test
  void everyInstructionOfTheCorpusMatchesLlvmObjdump() throws Exception {
    Map<String, int[]> perTarget = new TreeMap<>();
    List<String> mismatches = new ArrayList<>();
    int total = 0;
    for (Corpus.CodeObject co : Corpus.codeObjects()) {
      Target target = Target.fromTargetId(co.targetId()).orElseThrow();
      byte[] image = Corpus.read(co.hsaco());
      List<ObjdumpListing.Line> listing = ObjdumpListing.read(co.file("objdump.txt"));
      ElfFile elf = ElfFile.parse(image);
      SectionHeader text = elf.section(".text").orElseThrow();
      ByteBuffer data = elf.data(text);
      byte[] code = new byte[data.remaining()];
      data.get(code);
      Decoder decoder = new Decoder(target);
      int[] counts = perTarget.computeIfAbsent(target.processor(), k -> new int[2]);
      for (ObjdumpListing.Line line : listing) {
        int offset = (int) (line.address() - text.address());
        Instruction inst = decoder.decode(code, offset, code.length, line.address());
        String ours = ObjdumpListing.normalize(InstructionPrinter.print(inst));
        boolean same = ours.equals(line.text()) && inst.size() == 4 * line.words().length;
        counts[0]++;
        total++;
        if (!same) {
          counts[1]++;
          if (mismatches.size() < 200) {
            mismatches.add(String.format("%s @%x [%s] llvm: %s | ours: %s (%d bytes)", co, line.address(),
                hex(line.words()), line.text(), ours, inst.size()));
          }
        }
      }
    }
    StringBuilder report = new StringBuilder("corpus parity:");
    perTarget.forEach((t, c) -> report.append(String.format(" %s %d/%d (%.3f%%)", t, c[0] - c[1], c[0],
        100.0 * (c[0] - c[1]) / c[0])));
    System.out.println(report);
    mismatches.forEach(System.out::println);
    assertThat(total).isGreaterThan(200_000);
    assertThat(mismatches).isEmpty();
  }

  private static String hex(int[] words) {
    StringBuilder sb = new StringBuilder();
    for (int w : words) sb.append(sb.length() > 0 ? " " : "").append(String.format("%08X", w));
    return sb.toString();
  }
}
