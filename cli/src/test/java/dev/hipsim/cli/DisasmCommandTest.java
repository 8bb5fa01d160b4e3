package dev.hipsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.testing.Corpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class DisasmCommandTest {
  private static final Pattern HEADER = Pattern.compile("^(.*)#bundle(\\d+):(\\S+):\\tfile format elf64-amdgpu");
  private static final Pattern INSTRUCTION =
      Pattern.compile("^\\t(.*?)\\s*//\\s*([0-9A-F]+):((?:\\s+[0-9A-F]{8})+)");

  static Stream<Path> binaries() {
    return InspectCommandTest.corpusFiles().stream()
        .filter(p -> Corpus.codeObjects().stream().anyMatch(c -> c.hostBinary().equals(p)));
  }

  /** Every instruction line of every code object of a host binary, as llvm-objdump printed it at build time. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("binaries")
  void listsEveryCodeObjectAsLlvmObjdump(Path binary) throws Exception {
    Cli r = Cli.run("disasm", binary.toString());
    assertThat(r.status()).as(r.err()).isZero();
    Map<String, List<String>> ours = split(r.out());
    String variant = binary.getParent().getFileName().toString();
    String program = binary.getFileName().toString();
    List<Corpus.CodeObject> expected = Corpus.codeObjects().stream()
        .filter(c -> c.variant().equals(variant) && c.program().equals(program)).toList();
    assertThat(ours).hasSize(expected.size());
    for (Corpus.CodeObject c : expected) {
      List<String> listing = instructions(Files.readAllLines(c.file("objdump.txt")));
      assertThat(ours.get(c.bundle() + ":" + c.targetId())).as(c.toString()).isEqualTo(listing);
    }
  }

  @Test
  void targetAndKernelSelectOneFunction() {
    Path binary = Corpus.binary("gfx942-v6-ccob3", "vector_add");
    Cli r = Cli.run("disasm", binary.toString(), "--target", "gfx942", "--kernel", "_Z4vaddPKfS0_Pfi");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).contains("bundle0:gfx942").doesNotContain("gfx90a")
        .contains("<_Z4vaddPKfS0_Pfi>:").contains("s_endpgm");
    Cli none = Cli.run("disasm", binary.toString(), "--kernel", "nope");
    assertThat(none.status()).isEqualTo(1);
    assertThat(none.err()).contains("no function nope");
  }

  @Test
  void aBareCodeObjectDisassemblesToo() throws Exception {
    Corpus.CodeObject c = Corpus.codeObjects().stream().filter(x -> x.variant().equals("gfx940-v5")).findFirst()
        .orElseThrow();
    Cli r = Cli.run("disasm", c.hsaco().toString());
    assertThat(r.status()).as(r.err()).isZero();
    List<String> ours = instructions(List.of(r.out().split("\\R")));
    assertThat(ours).isEqualTo(instructions(Files.readAllLines(c.file("objdump.txt"))));
  }

  @Test
  void aFileThatIsNoElfIsAnInputError() throws Exception {
    Path f = Files.createTempFile("hipsim", ".bin");
    Files.write(f, new byte[] {1, 2, 3});
    Cli r = Cli.run("disasm", f.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).startsWith("hipsim: " + f);
    Files.delete(f);
  }

  /** Our output split per code object ("bundle:target"), as normalised instruction lines. */
  private static Map<String, List<String>> split(String out) {
    Map<String, List<String>> m = new LinkedHashMap<>();
    List<String> cur = null;
    for (String line : out.split("\\R")) {
      Matcher h = HEADER.matcher(line);
      if (h.find()) {
        cur = new ArrayList<>();
        m.put(h.group(2) + ":" + h.group(3), cur);
      } else if (cur != null && line.startsWith("\t")) {
        cur.add(normalize(line));
      }
    }
    return m;
  }

  private static List<String> instructions(List<String> lines) {
    List<String> out = new ArrayList<>();
    for (String line : lines) {
      if (line.startsWith("\t") && INSTRUCTION.matcher(line).find()) out.add(normalize(line));
    }
    return out;
  }

  /** Text, address and encoding; spacing and the branch-target comment after the encoding are not compared. */
  private static String normalize(String line) {
    Matcher m = INSTRUCTION.matcher(line);
    if (!m.find()) return line;
    return m.group(1).trim().replaceAll("\\s+", " ") + " @" + Long.parseLong(m.group(2), 16) + ":"
        + m.group(3).trim().replaceAll("\\s+", " ");
  }
}
