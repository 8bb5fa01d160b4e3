package dev.hipsim.bundle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.bundle.offload.ImageKind;
import dev.hipsim.bundle.offload.ImageProducer;
import dev.hipsim.bundle.offload.OffloadBinary;
import dev.hipsim.bundle.offload.OffloadBinaryReader;
import dev.hipsim.bundle.offload.OffloadBinaryWriter;
import dev.hipsim.bundle.testing.Llvm;
import dev.hipsim.elf.ByteSource;
import dev.hipsim.testing.Corpus;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What we write, LLVM 22 reads (clang-offload-bundler --list/--unbundle, llvm-offload-binary), and what LLVM 22
 * writes, we read. Skipped, saying so, where LLVM 22 is not installed.
 */
class LlvmInteropTest {
  private static final String HOST = "host-x86_64-unknown-linux-gnu-";
  private static final String XNACK_ON = "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+";
  private static final String XNACK_OFF = "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-";
  private static final String GFX942 = "hipv4-amdgcn-amd-amdhsa--gfx942";

  private static Map<String, byte[]> codeObjects() {
    Map<String, byte[]> out = new LinkedHashMap<>();
    out.put(HOST, new byte[0]);
    for (Corpus.CodeObject c : Corpus.codeObjects()) {
      if (c.program().equals("saxpy") && c.variant().equals("gfx90a-v5-xnack")) out.put(c.entryId(), Corpus.read(c.hsaco()));
      if (c.program().equals("saxpy") && c.variant().equals("gfx942-v6-ccob3") && c.entryId().equals(GFX942)) {
        out.put(c.entryId(), Corpus.read(c.hsaco()));
      }
    }
    assertThat(out).containsKeys(XNACK_ON, XNACK_OFF, GFX942);
    return out;
  }

  /** Version 0 is the plain bundle. */
  @ParameterizedTest(name = "version {0} {1}")
  @CsvSource({"0, ZLIB", "1, ZLIB", "1, ZSTD", "2, ZLIB", "2, ZSTD", "3, ZLIB", "3, ZSTD"})
  void clangOffloadBundlerListsAndUnbundlesWhatWeWrite(int version, CompressionMethod method, @TempDir Path dir)
      throws Exception {
    Path bundler = Llvm.require("clang-offload-bundler");
    Map<String, byte[]> cos = codeObjects();
    List<BundleWriter.Input> inputs = new ArrayList<>();
    cos.forEach((id, bytes) -> inputs.add(new BundleWriter.Input(id, bytes)));
    byte[] plain = BundleWriter.plain(inputs, BundleWriter.HIP_ALIGNMENT);
    byte[] bytes = version == 0 ? plain : BundleWriter.compressed(plain, version, method, 6);
    Path file = dir.resolve("ours.bundle");
    Files.write(file, bytes);

    String listed = Llvm.check(Map.of(), bundler.toString(), "--list", "--type=o", "--input=" + file);
    assertThat(Llvm.lines(listed)).containsExactlyInAnyOrderElementsOf(cos.keySet());
    for (Map.Entry<String, byte[]> e : cos.entrySet()) {
      if (e.getKey().equals(HOST)) continue;
      Path out = dir.resolve("out.hsaco");
      Llvm.check(Map.of(), bundler.toString(), "--unbundle", "--type=o", "--input=" + file,
          "--targets=" + e.getKey(), "--output=" + out);
      assertThat(Files.readAllBytes(out)).as("unbundled %s", e.getKey()).isEqualTo(e.getValue());
    }
  }

  /** Plain bundles: our writer's output is byte-identical to clang-offload-bundler's; compressed ones read back. */
  @ParameterizedTest(name = "compressed format version {0}")
  @CsvSource({"0", "2", "3"})
  void weReadWhatClangOffloadBundlerWrites(int version, @TempDir Path dir) throws Exception {
    Path bundler = Llvm.require("clang-offload-bundler");
    Map<String, byte[]> cos = codeObjects();
    List<String> targets = new ArrayList<>();
    List<String> command = new ArrayList<>(List.of(bundler.toString(), "--type=o", "-bundle-align=4096"));
    List<BundleWriter.Input> inputs = new ArrayList<>();
    for (Map.Entry<String, byte[]> e : cos.entrySet()) {
      Path in = dir.resolve("in" + targets.size());
      Files.write(in, e.getValue());
      targets.add(e.getKey());
      command.add("--input=" + in);
      inputs.add(new BundleWriter.Input(e.getKey(), e.getValue()));
    }
    Path out = dir.resolve("theirs.bundle");
    command.add("--targets=" + String.join(",", targets));
    command.add("--output=" + out);
    Map<String, String> env = new LinkedHashMap<>();
    env.put("OFFLOAD_BUNDLER_IGNORE_ENV_VAR", "0");
    if (version > 0) {
      command.add("-compress");
      env.put("COMPRESSED_BUNDLE_FORMAT_VERSION", Integer.toString(version));
    }
    Llvm.check(env, command.toArray(String[]::new));
    byte[] theirs = Files.readAllBytes(out);
    if (version == 0) {
      assertThat(theirs).as("plain bundles are byte-identical").isEqualTo(BundleWriter.plain(inputs, 4096));
    }
    OffloadBundle b = BundleReader.read(ByteSource.of(theirs), 0, theirs.length, ReadOptions.DEFAULT);
    if (version > 0) {
      assertThat(b.compression().orElseThrow().version()).isEqualTo(version);
      assertThat(b.hashMatches()).contains(true);
      assertThat(b.location().length()).isEqualTo(theirs.length);
    }
    assertThat(b.entries()).extracting(BundleEntry::id).containsExactlyElementsOf(targets);
    for (BundleEntry e : b.entries()) {
      ByteBuffer c = b.contents(e);
      byte[] got = new byte[c.remaining()];
      c.get(got);
      assertThat(got).isEqualTo(cos.get(e.id()));
    }
  }

  @Test
  void llvmOffloadBinaryExtractsFromWhatWeWrite(@TempDir Path dir) throws Exception {
    Path tool = Llvm.require("llvm-offload-binary");
    byte[] image = codeObjects().get(XNACK_ON);
    Map<String, String> strings = new LinkedHashMap<>();
    strings.put("triple", "amdgcn-amd-amdhsa");
    strings.put("arch", "gfx90a:xnack+");
    byte[] one = OffloadBinaryWriter.write(1, List.of(new OffloadBinaryWriter.ImageInput(ImageKind.OBJECT,
        ImageProducer.HIP, 0, strings, image)));
    Path file = dir.resolve("ours.offload");
    Files.write(file, OffloadBinaryWriter.concatenate(List.of(one, one)));
    Path out = dir.resolve("image.o");
    Llvm.check(Map.of(), tool.toString(), file.toString(), "--image=file=" + out + ",arch=gfx90a:xnack+,triple=amdgcn-amd-amdhsa");
    assertThat(Files.readAllBytes(out)).isEqualTo(image);

    // And the other way: LLVM 22 packs, we read.
    Path in = dir.resolve("in.o");
    Files.write(in, image);
    Path packed = dir.resolve("theirs.offload");
    Llvm.check(Map.of(), tool.toString(), "-o", packed.toString(),
        "--image=file=" + in + ",triple=amdgcn-amd-amdhsa,arch=gfx90a:xnack+,kind=hip");
    byte[] theirs = Files.readAllBytes(packed);
    List<OffloadBinary> read = OffloadBinaryReader.readAll(ByteSource.of(theirs), 0, theirs.length, ReadOptions.DEFAULT);
    assertThat(read).singleElement().satisfies(b -> {
      assertThat(b.images()).singleElement().satisfies(img -> {
        assertThat(img.arch()).isEqualTo("gfx90a:xnack+");
        assertThat(img.producer()).isEqualTo(ImageProducer.HIP);
      });
    });
    ByteBuffer c = read.get(0).image(read.get(0).images().get(0));
    byte[] got = new byte[c.remaining()];
    c.get(got);
    assertThat(got).isEqualTo(image);
  }
}
