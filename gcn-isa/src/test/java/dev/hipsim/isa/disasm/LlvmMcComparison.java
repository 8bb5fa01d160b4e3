package dev.hipsim.isa.disasm;

import dev.hipsim.isa.decode.Decoder;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Target;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Decodes a batch of words with our decoder and with llvm-mc and lists where they disagree: validity, length, or
 * text (inline comments removed, spacing normalised).
 */
final class LlvmMcComparison {
  int compared;
  int crashes;
  final List<String> mismatches = new ArrayList<>();

  static LlvmMcComparison run(Target target, List<int[]> words) throws Exception {
    Decoder decoder = new Decoder(target);
    List<int[]> probes = new ArrayList<>(words.size());
    List<Instruction> ours = new ArrayList<>(words.size());
    for (int[] w : words) {
      byte[] bytes = new byte[w.length * 4];
      for (int k = 0; k < w.length; k++) {
        for (int b = 0; b < 4; b++) bytes[4 * k + b] = (byte) (w[k] >>> (8 * b));
      }
      Instruction inst = decoder.decode(bytes, 0, bytes.length, 0);
      ours.add(inst);
      // a valid instruction is probed with exactly its bytes, so llvm-mc must use all of them and no more
      probes.add(inst.isValid() ? Arrays.copyOf(w, inst.size() / 4) : w);
    }
    List<LlvmMc.Result> theirs = LlvmMc.disassemble(target.llvmCpu(), probes);
    LlvmMcComparison c = new LlvmMcComparison();
    for (int i = 0; i < probes.size(); i++) {
      LlvmMc.Result r = theirs.get(i);
      if (r.crashed()) {
        c.crashes++;
        continue;
      }
      c.compared++;
      Instruction inst = ours.get(i);
      String mine = inst.isValid() ? LlvmMc.normalize(InstructionPrinter.print(inst)) : null;
      String llvm = r.invalid() ? null : LlvmMc.normalize(r.text());
      boolean same = mine == null ? llvm == null : llvm != null && mine.equals(llvm) && r.bytes() == inst.size();
      if (!same) {
        StringBuilder w = new StringBuilder();
        for (int x : probes.get(i)) w.append(String.format("%08x ", x));
        c.mismatches.add(String.format("%s [%s] llvm: %s (%d) | ours: %s (%d)", target.processor(), w.toString().trim(),
            llvm, r.bytes(), mine, inst.size()));
      }
    }
    return c;
  }
}
