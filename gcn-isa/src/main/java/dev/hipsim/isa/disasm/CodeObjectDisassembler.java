package dev.hipsim.isa.disasm;

import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.ElfFormatException;
import dev.hipsim.elf.ElfSymbol;
import dev.hipsim.elf.SectionHeader;
import dev.hipsim.isa.decode.DecodedProgram;
import dev.hipsim.isa.decode.Decoder;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Target;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The functions of an AMDGPU code object's {@code .text}, decoded, and their listing in llvm-objdump's layout: a
 * label line per function, then one line per instruction with its text, address and encoding.
 */
public final class CodeObjectDisassembler {
  private CodeObjectDisassembler() {}

  /**
   * A function of {@code .text} (an STT_FUNC symbol) and its code up to the next function or the end of the section.
   *
   * @param kernel whether a kernel descriptor {@code NAME.kd} exists for it
   */
  public record Function(String name, long address, boolean kernel, DecodedProgram code) {}

  /** The target a code object is for, from its ELF header. */
  public static Target targetOf(ElfFile elf) throws ElfFormatException, UnsupportedTargetException {
    String processor = elf.amdgpuTarget().processor();
    return Target.fromTargetId(processor).orElseThrow(() -> new UnsupportedTargetException(
        "code object for " + processor + ": hipsim decodes gfx90a, gfx940 and gfx942"));
  }

  /** Every function of {@code .text}, in address order, decoded for {@code target}. */
  public static List<Function> functions(ElfFile elf, Target target) throws ElfFormatException {
    SectionHeader text = elf.section(".text").orElse(null);
    if (text == null) return List.of();
    ByteBuffer data = elf.data(text);
    byte[] code = new byte[data.remaining()];
    data.get(code);
    Set<String> descriptors = new HashSet<>();
    List<ElfSymbol> funcs = new ArrayList<>();
    for (ElfSymbol s : elf.symbols()) {
      if (s.name().endsWith(".kd")) descriptors.add(s.name().substring(0, s.name().length() - 3));
      if (s.type() == ElfSymbol.STT_FUNC && s.sectionIndex() == text.index() && s.value() >= text.address()
          && s.value() < text.address() + code.length) {
        funcs.add(s);
      }
    }
    funcs.sort(Comparator.comparingLong(ElfSymbol::value).thenComparing(ElfSymbol::name));
    Decoder decoder = new Decoder(target);
    List<Function> out = new ArrayList<>();
    for (int i = 0; i < funcs.size(); i++) {
      ElfSymbol s = funcs.get(i);
      long end = text.address() + code.length;
      for (int j = i + 1; j < funcs.size(); j++) {
        if (funcs.get(j).value() > s.value()) {
          end = funcs.get(j).value();
          break;
        }
      }
      int from = (int) (s.value() - text.address());
      int length = (int) (end - s.value());
      out.add(new Function(s.name(), s.value(), descriptors.contains(s.name()),
          decoder.decodeAll(code, from, length, s.value())));
    }
    return out;
  }

  /** Writes a function as llvm-objdump -d does (the instruction text is LLVM's; the comment column is ours). */
  public static void write(Function f, Appendable out) throws IOException {
    out.append(String.format("%016x <%s>:%n", f.address(), f.name()));
    StringBuilder line = new StringBuilder(120);
    for (Instruction inst : f.code().instructions()) {
      line.setLength(0);
      line.append('\t');
      InstructionPrinter.print(inst, line);
      while (line.length() < 60) line.append(' ');
      line.append("// ").append(String.format("%012X", inst.address())).append(": ");
      line.append(InstructionPrinter.encodingText(inst));
      out.append(line).append(System.lineSeparator());
    }
    out.append(System.lineSeparator());
  }

  /** A code object for a processor hipsim does not decode. */
  public static final class UnsupportedTargetException extends Exception {
    private static final long serialVersionUID = 1L;

    public UnsupportedTargetException(String message) {
      super(message);
    }
  }
}
