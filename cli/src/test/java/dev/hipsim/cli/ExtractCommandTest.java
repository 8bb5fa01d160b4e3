package dev.hipsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.testing.Corpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ExtractCommandTest {
  static Stream<Path> binaries() {
    return InspectCommandTest.corpusFiles().stream();
  }

  /** Every corpus code object comes out byte-identical to the bundler's (by recorded hash), named by bundle and target. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("binaries")
  void extractsEveryCodeObjectAsTheBundlerDoes(Path binary, @TempDir Path dir) throws Exception {
    String variant = binary.getParent().getFileName().toString();
    String program = binary.getFileName().toString();
    Cli r = Cli.run("extract", binary.toString(), "-o", dir.toString());
    List<Corpus.CodeObject> expected = Corpus.codeObjects().stream()
        .filter(c -> c.variant().equals(variant) && c.program().equals(program)).toList();
    if (expected.isEmpty()) {
      // module_api carries no device code of its own (it loads module_kernels.co at run time).
      assertThat(r.status()).isEqualTo(1);
      assertThat(r.err()).isEqualTo("hipsim: " + binary + ": no code object to extract" + System.lineSeparator());
      return;
    }
    assertThat(r.status()).as(r.err()).isZero();
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.count()).isEqualTo(expected.size());
    }
    for (Corpus.CodeObject c : expected) {
      Path out = dir.resolve(program + "-" + c.bundle() + "-" + c.targetId().replace(':', '_') + ".hsaco");
      assertThat(sha256(Files.readAllBytes(out))).as(out.toString()).isEqualTo(c.sha256());
    }
  }

  @Test
  void targetPicksTheEntryTheDeviceWouldLoad(@TempDir Path dir) throws Exception {
    Path binary = Corpus.binary("gfx90a-v5-xnack", "saxpy");
    Cli r = Cli.run("extract", binary.toString(), "--target", "gfx90a:sramecc+:xnack-", "-o", dir.toString());
    assertThat(r.status()).as(r.err()).isZero();
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("saxpy-0-gfx90a_xnack-.hsaco");
    }
    Cli none = Cli.run("extract", binary.toString(), "--target", "gfx90a", "-o", dir.toString());
    assertThat(none.status()).isEqualTo(1);
    assertThat(none.err()).hasLineCount(1).contains("bundle 0 at file offset 0x3000: no entry is compatible with gfx90a:")
        .contains("hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+ (entry requires xnack+ but the device target ID leaves xnack"
            + " unspecified)")
        .contains("host-x86_64-unknown-linux (host entry");
    assertThat(Cli.run("extract", binary.toString(), "--target", "gfx90a:xnack").status()).isEqualTo(2);
  }

  @Test
  void offloadBinaryImagesAndBareCodeObjects(@TempDir Path dir) throws Exception {
    Path rdc = Corpus.root().resolve("extras/vector_add-rdc.o");
    Cli r = Cli.run("extract", rdc.toString(), "-o", dir.toString());
    assertThat(r.status()).as(r.err()).isZero();
    List<String> tsv = Files.readAllLines(Corpus.root().resolve("extras/vector_add-rdc.o.images.tsv"));
    for (String line : tsv) {
      String[] f = line.split("\t");
      Path out = dir.resolve("vector_add-rdc.o-image" + f[0] + "-" + f[1].replace(':', '_') + ".bc");
      assertThat(sha256(Files.readAllBytes(out))).isEqualTo(f[4]);
    }
    Corpus.CodeObject co = Corpus.codeObjects().get(0);
    Cli bare = Cli.run("extract", co.hsaco().toString(), "-o", dir.toString());
    assertThat(bare.status()).isZero();
    Path out = dir.resolve(co.hsaco().getFileName() + "-0-" + co.targetId().replace(':', '_') + ".hsaco");
    assertThat(Files.readAllBytes(out)).isEqualTo(Files.readAllBytes(co.hsaco()));
  }

  @Test
  void badInputIsStatus1(@TempDir Path dir) throws Exception {
    Path empty = dir.resolve("empty");
    Files.write(empty, new byte[0]);
    Cli r = Cli.run("extract", empty.toString(), "-o", dir.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).startsWith("hipsim: " + empty + ": at file offset 0x0:").hasLineCount(1);
  }

  /** A --target that is not a device's target ID is a usage error (status 2) naming the option, for both commands. */
  @Test
  void badTargetIsAUsageError(@TempDir Path dir) throws Exception {
    String binary = Corpus.root().resolve("gfx90a-v4/vector_add").toString();
    List<Cli> runs = List.of(Cli.run("extract", "--target", "gfx90a:xnack", binary, "-o", dir.toString()),
        Cli.run("disasm", "--target", "gfx90a:xnack", binary));
    for (Cli r : runs) {
      assertThat(r.status()).as(r.err()).isEqualTo(2);
      assertThat(r.err()).startsWith("--target: ");
    }
  }

  static String sha256(byte[] b) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
  }
}
