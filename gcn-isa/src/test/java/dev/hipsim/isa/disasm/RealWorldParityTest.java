package dev.hipsim.isa.disasm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.bundle.BundleEntry;
import dev.hipsim.bundle.BundleLocation;
import dev.hipsim.bundle.FatBinaryFile;
import dev.hipsim.bundle.OffloadBundle;
import dev.hipsim.bundle.ReadOptions;
import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.SectionHeader;
import dev.hipsim.isa.decode.Decoder;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Target;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Parity at scale: every gfx90a code object of Debian's librocrand1 and librocsparse0, extracted with the bundle
 * module, disassembled by LLVM 22's llvm-objdump at test time and by us, instruction by instruction. Mismatches are
 * listed (the first 100 and a count per mnemonic).
 */
@Tag("real-world")
class RealWorldParityTest {
  private static final Path OBJDUMP = Paths.get("/usr/lib/llvm-22/bin/llvm-objdump");

  @ParameterizedTest
  @ValueSource(strings = {"librocrand.so.1", "librocsparse.so.0"})
  void everyGfx90aInstructionMatchesLlvmObjdump(String name, @TempDir Path dir) throws Exception {
    Path library = Paths.get("/usr/lib/x86_64-linux-gnu").resolve(name);
    Assumptions.assumeTrue(Files.isRegularFile(library), "skipped: " + library + " is not installed");
    Assumptions.assumeTrue(Files.isExecutable(OBJDUMP), "skipped: " + OBJDUMP + " is not installed");
    long instructions = 0;
    long mismatched = 0;
    int codeObjects = 0;
    List<String> listed = new ArrayList<>();
    Map<String, Integer> byMnemonic = new TreeMap<>();
    Set<String> seen = new HashSet<>();
    Decoder decoder = new Decoder(Target.GFX90A);
    try (FatBinaryFile f = FatBinaryFile.open(library, ReadOptions.DEFAULT)) {
      for (BundleLocation l : f.bundles()) {
        OffloadBundle b = f.openBundle(l);
        for (BundleEntry e : b.deviceEntries()) {
          if (!e.targetLabel().startsWith("gfx90a")) continue;
          ByteBuffer contents = b.contents(e);
          byte[] image = new byte[contents.remaining()];
          contents.get(image);
          if (!seen.add(sha256(image))) continue;
          codeObjects++;
          Path co = dir.resolve("co.hsaco");
          Files.write(co, image);
          List<ObjdumpListing.Line> listing = objdump(co, dir);
          ElfFile elf = ElfFile.parse(image);
          SectionHeader text = elf.section(".text").orElseThrow();
          ByteBuffer data = elf.data(text);
          byte[] code = new byte[data.remaining()];
          data.get(code);
          for (ObjdumpListing.Line line : listing) {
            instructions++;
            Instruction inst = decoder.decode(code, (int) (line.address() - text.address()), code.length,
                line.address());
            String ours = ObjdumpListing.normalize(InstructionPrinter.print(inst));
            if (!ours.equals(line.text()) || inst.size() != 4 * line.words().length) {
              mismatched++;
              byMnemonic.merge(line.text().split(" ")[0], 1, Integer::sum);
              if (listed.size() < 100) {
                listed.add(String.format("%s bundle %d %s @%x: llvm: %s | ours: %s", name, b.index(),
                    e.targetLabel(), line.address(), line.text(), ours));
              }
            }
          }
        }
      }
    }
    System.out.printf("real-world parity %s: %d gfx90a code objects, %d instructions, %d mismatches (%.4f%% agree)%n",
        name, codeObjects, instructions, mismatched, 100.0 * (instructions - mismatched) / Math.max(1, instructions));
    if (!byMnemonic.isEmpty()) System.out.println("mismatches by mnemonic: " + byMnemonic);
    listed.forEach(System.out::println);
    assertThat(codeObjects).isPositive();
    assertThat(mismatched).isZero();
  }

  private static List<ObjdumpListing.Line> objdump(Path co, Path dir) throws Exception {
    Path out = dir.resolve("co.objdump.txt");
    Process p = new ProcessBuilder(OBJDUMP.toString(), "-d", "--mcpu=gfx90a", co.toString())
        .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    if (!p.waitFor(30, TimeUnit.MINUTES) || p.exitValue() != 0) {
      throw new IllegalStateException("llvm-objdump failed on " + co);
    }
    return ObjdumpListing.read(out);
  }

  private static String sha256(byte[] b) throws Exception {
    return java.util.HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
  }
}
