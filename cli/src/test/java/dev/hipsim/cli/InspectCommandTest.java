package dev.hipsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.testing.Corpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class InspectCommandTest {
  /** The documented key order of every JSON object (cli/README.md). */
  static final List<String> ROOT = List.of("hipsimInspectVersion", "file", "kind", "elf", "wrappers", "bundles",
      "offloadBinaries", "codeObject", "warnings");
  static final List<String> ELF = List.of("type", "machine", "fatbinSection");
  static final List<String> WRAPPER = List.of("index", "fileOffset", "magic", "version", "binaryAddress",
      "pointerSource", "binaryFileOffset", "bundle");
  static final List<String> BUNDLE = List.of("index", "fileOffset", "length", "format", "compression",
      "uncompressedSize", "warnings", "entries");
  static final List<String> COMPRESSION = List.of("version", "method", "uncompressedSize", "hash", "hashMatches");
  static final List<String> ENTRY = List.of("index", "id", "canonicalId", "offloadKind", "triple", "targetId",
      "offset", "size", "fileOffset", "codeObject");
  static final List<String> CODE_OBJECT = List.of("targetId", "processor", "xnack", "sramecc", "codeObjectVersion",
      "metadata");
  static final List<String> METADATA = List.of("version", "target", "kernelCount", "kernels", "printf");
  static final List<String> KERNEL = List.of("name", "symbol", "language", "languageVersion", "kernargSegmentSize",
      "kernargSegmentAlign", "groupSegmentFixedSize", "privateSegmentFixedSize", "wavefrontSize", "sgprCount",
      "vgprCount", "agprCount", "maxFlatWorkgroupSize", "sgprSpillCount", "vgprSpillCount", "usesDynamicStack",
      "uniformWorkGroupSize", "workgroupProcessorMode", "requiredWorkgroupSize", "workgroupSizeHint", "vecTypeHint",
      "deviceEnqueueSymbol", "kind", "clusterDims", "arguments");
  static final List<String> ARGUMENT = List.of("name", "typeName", "offset", "size", "valueKind", "hidden",
      "addressSpace", "access", "actualAccess", "pointeeAlign", "isConst", "isRestrict", "isVolatile", "isPipe");
  static final List<String> OFFLOAD_BINARY = List.of("index", "fileOffset", "length", "version", "compressed",
      "images");
  static final List<String> IMAGE = List.of("index", "kind", "producer", "flags", "triple", "arch", "offset", "size",
      "strings", "codeObject");

  /** Host binaries and bare bundles (module_kernels.co): every file with a recorded bundles.tsv. */
  static Stream<Path> binaries() {
    return corpusFiles().stream();
  }

  static List<Path> corpusFiles() {
    List<Path> out = new ArrayList<>();
    for (String v : Corpus.variants()) {
      try (Stream<Path> s = Files.list(Corpus.root().resolve(v))) {
        s.filter(Files::isRegularFile).filter(p -> Files.isRegularFile(Corpus.recorded(p, "bundles.tsv"))).sorted()
            .forEach(out::add);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    return out;
  }

  @Test
  void textReportNamesWrappersBundlesEntriesAndKernels() {
    Cli r = Cli.run("inspect", Corpus.binary("gfx90a-v5-xnack", "vector_add").toString());
    assertThat(r.status()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out())
        .contains("host ELF (x86-64 pie-executable), .hip_fatbin of 17801 bytes at file offset 0x3000")
        .contains("wrapper 0 at file offset 0x80b0: HIPF version 1, binary 0x3000 (relative-relocation) at file offset"
            + " 0x3000 -> bundle 0")
        .contains("bundle 0 at file offset 0x3000: plain, 17800 bytes, 3 entries")
        .contains("entry 2 hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-: 5512 bytes at bundle offset 0x3000")
        .contains("code object: gfx90a:xnack-, code object v5, metadata 1.2 (amdgcn-amd-amdhsa--gfx90a:xnack-), 1 kernel")
        .contains("kernel _Z4vaddPKfS0_Pfi (_Z4vaddPKfS0_Pfi.kd)")
        .contains("arg 4: offset 32 size 4 hidden_block_count_x");
  }

  @Test
  void textReportShowsPrintfFormatsAndOffloadBinaries() {
    Cli printf = Cli.run("inspect", Corpus.root().resolve("extras/printf_buffered.hsaco").toString());
    assertThat(printf.status()).isZero();
    assertThat(printf.out()).contains("printf 0 hash 29b771ae2c1216dd: \"lane %d of %d: %f\\n\" (argument sizes [])");
    Cli rdc = Cli.run("inspect", Corpus.root().resolve("extras/vector_add-rdc.o").toString());
    assertThat(rdc.out()).contains("host ELF (x86-64 relocatable-object)")
        .contains("image 0: kind llvm ir, producer hip, triple amdgcn-amd-amdhsa, arch gfx942:xnack+, 32196 bytes");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("binaries")
  @SuppressWarnings("unchecked")
  void jsonHasTheDocumentedShapeForEveryCorpusBinary(Path binary) {
    Cli r = Cli.run("inspect", "--json", binary.toString());
    assertThat(r.status()).as(r.err()).isZero();
    Map<String, Object> root = (Map<String, Object>) Json.parse(r.out());
    checkShape(root);
    assertThat(root.get("kind")).isIn("host-elf", "bundle");
    List<Object> bundles = (List<Object>) root.get("bundles");
    for (Object b : bundles) {
      Map<String, Object> bundle = (Map<String, Object>) b;
      int index = ((Long) bundle.get("index")).intValue();
      List<String> ids = new ArrayList<>();
      for (Object e : (List<Object>) bundle.get("entries")) ids.add((String) ((Map<String, Object>) e).get("id"));
      List<String> listed = new ArrayList<>();
      for (String line : lines(binary.resolveSibling(binary.getFileName() + ".co").resolve(index + ".list.txt"))) {
        if (!line.isBlank()) listed.add(line);
      }
      assertThat(ids).containsExactlyInAnyOrderElementsOf(listed);
    }
  }

  /** A fixed report, byte for byte: any change to the JSON shape or spelling shows up here. */
  @Test
  void jsonIsStable() throws Exception {
    Path binary = Corpus.binary("gfx942-v6-ccob3", "vector_add");
    Cli r = Cli.run("inspect", "--json", binary.toString());
    String golden = new String(InspectCommandTest.class.getResourceAsStream("/inspect-gfx942-v6-ccob3-vector_add.json")
        .readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(r.out().replace(binary.toString(), "FILE")).isEqualTo(golden);
  }

  @Test
  @SuppressWarnings("unchecked")
  void bareBundlesCodeObjectsAndOffloadBinaries(@TempDir Path dir) throws Exception {
    // A .hip_fatbin section on its own: three compressed bundles one after the other.
    Path fatbin = dir.resolve("multi.fatbin");
    Files.write(fatbin, section(Corpus.binary("gfx942-v6-ccob3", "multi_tu"), ".hip_fatbin"));
    Map<String, Object> bundles = json("inspect", "--json", fatbin.toString());
    assertThat(bundles.get("kind")).isEqualTo("bundle");
    assertThat((List<Object>) bundles.get("bundles")).hasSize(3);

    Corpus.CodeObject co = Corpus.codeObjects().get(0);
    Map<String, Object> bare = json("inspect", "--json", co.hsaco().toString());
    assertThat(bare.get("kind")).isEqualTo("code-object");
    assertThat(((Map<String, Object>) bare.get("codeObject")).get("targetId")).isEqualTo(co.targetId());

    Path rdc = Corpus.root().resolve("extras/vector_add-rdc.o");
    Map<String, Object> object = json("inspect", "--json", rdc.toString());
    List<Object> binaries = (List<Object>) object.get("offloadBinaries");
    assertThat(binaries).hasSize(2);
    Path raw = dir.resolve("offloading.bin");
    Files.write(raw, section(rdc, ".llvm.offloading"));
    Map<String, Object> rawJson = json("inspect", "--json", raw.toString());
    assertThat(rawJson.get("kind")).isEqualTo("offload-binary");
    Map<String, Object> image = (Map<String, Object>) ((List<Object>) ((Map<String, Object>) ((List<Object>)
        rawJson.get("offloadBinaries")).get(1)).get("images")).get(0);
    assertThat(image.get("arch")).isEqualTo("gfx942:xnack+");
    assertThat(image.get("kind")).isEqualTo("bc");
  }

  @Test
  void badInputIsOneLineWithFileAndOffsetAndStatus1(@TempDir Path dir) throws Exception {
    Cli missing = Cli.run("inspect", dir.resolve("nope").toString());
    assertThat(missing.status()).isEqualTo(1);
    assertThat(missing.err()).isEqualTo("hipsim: " + dir.resolve("nope") + ": no such file" + System.lineSeparator());

    Path text = dir.resolve("text");
    Files.writeString(text, "hello, world\n");
    Cli notBinary = Cli.run("inspect", text.toString());
    assertThat(notBinary.status()).isEqualTo(1);
    assertThat(notBinary.err()).startsWith("hipsim: " + text + ": at file offset 0x0: not an ELF file")
        .hasLineCount(1);

    byte[] bytes = Corpus.read(Corpus.binary("gfx942-v6-ccob3", "vector_add"));
    long fatbin = sectionOffset(Corpus.binary("gfx942-v6-ccob3", "vector_add"), ".hip_fatbin");
    bytes[(int) fatbin + 4] = 9; // CCOB version 9
    Path corrupt = dir.resolve("corrupt");
    Files.write(corrupt, bytes);
    Cli bad = Cli.run("inspect", corrupt.toString());
    assertThat(bad.status()).isEqualTo(1);
    assertThat(bad.err()).isEqualTo(String.format("hipsim: %s: at file offset 0x%x: unknown compressed bundle version 9"
        + " (known: 1, 2, 3)%n", corrupt, fatbin + 4));

    Cli bomb = Cli.run("inspect", "--max-decompressed=1K", Corpus.binary("gfx942-v6-ccob3", "vector_add").toString());
    assertThat(bomb.status()).isEqualTo(1);
    assertThat(bomb.err()).contains("exceeds the limit of 1024 bytes").hasLineCount(1);
  }

  @Test
  void badUsageIsStatus2() {
    assertThat(Cli.run("inspect").status()).isEqualTo(2);
    assertThat(Cli.run("inspect", "--bogus", "x").status()).isEqualTo(2);
    assertThat(Cli.run("inspect", "--max-decompressed=lots", "x").status()).isEqualTo(2);
    assertThat(Cli.run("frobnicate").status()).isEqualTo(2);
  }

  @SuppressWarnings("unchecked")
  static void checkShape(Map<String, Object> root) {
    assertThat(root.keySet()).containsExactlyElementsOf(ROOT);
    if (root.get("elf") != null) assertThat(((Map<String, Object>) root.get("elf")).keySet()).containsExactlyElementsOf(ELF);
    for (Object w : (List<Object>) root.get("wrappers")) {
      assertThat(((Map<String, Object>) w).keySet()).containsExactlyElementsOf(WRAPPER);
    }
    for (Object b : (List<Object>) root.get("bundles")) {
      Map<String, Object> bundle = (Map<String, Object>) b;
      assertThat(bundle.keySet()).containsExactlyElementsOf(BUNDLE);
      if (bundle.get("compression") != null) {
        assertThat(((Map<String, Object>) bundle.get("compression")).keySet()).containsExactlyElementsOf(COMPRESSION);
      }
      for (Object e : (List<Object>) bundle.get("entries")) {
        Map<String, Object> entry = (Map<String, Object>) e;
        assertThat(entry.keySet()).containsExactlyElementsOf(ENTRY);
        if (entry.get("codeObject") != null) checkCodeObject((Map<String, Object>) entry.get("codeObject"));
      }
    }
    for (Object b : (List<Object>) root.get("offloadBinaries")) {
      Map<String, Object> binary = (Map<String, Object>) b;
      assertThat(binary.keySet()).containsExactlyElementsOf(OFFLOAD_BINARY);
      for (Object i : (List<Object>) binary.get("images")) {
        assertThat(((Map<String, Object>) i).keySet()).containsExactlyElementsOf(IMAGE);
      }
    }
    if (root.get("codeObject") != null) checkCodeObject((Map<String, Object>) root.get("codeObject"));
  }

  @SuppressWarnings("unchecked")
  private static void checkCodeObject(Map<String, Object> co) {
    assertThat(co.keySet()).containsExactlyElementsOf(CODE_OBJECT);
    Map<String, Object> md = (Map<String, Object>) co.get("metadata");
    assertThat(md.keySet()).containsExactlyElementsOf(METADATA);
    List<Object> kernels = (List<Object>) md.get("kernels");
    assertThat((long) kernels.size()).isEqualTo(md.get("kernelCount"));
    for (Object k : kernels) {
      Map<String, Object> kernel = (Map<String, Object>) k;
      assertThat(kernel.keySet()).containsExactlyElementsOf(KERNEL);
      for (Object a : (List<Object>) kernel.get("arguments")) {
        assertThat(((Map<String, Object>) a).keySet()).containsExactlyElementsOf(ARGUMENT);
      }
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> json(String... args) {
    Cli r = Cli.run(args);
    assertThat(r.status()).as(r.err()).isZero();
    Map<String, Object> root = (Map<String, Object>) Json.parse(r.out());
    checkShape(root);
    return root;
  }

  static byte[] section(Path file, String name) throws Exception {
    try (dev.hipsim.elf.ElfFile elf = dev.hipsim.elf.ElfFile.open(file)) {
      java.nio.ByteBuffer v = elf.data(elf.section(name).orElseThrow());
      byte[] b = new byte[v.remaining()];
      v.get(b);
      return b;
    }
  }

  static long sectionOffset(Path file, String name) throws Exception {
    try (dev.hipsim.elf.ElfFile elf = dev.hipsim.elf.ElfFile.open(file)) {
      return elf.section(name).orElseThrow().offset();
    }
  }

  static List<String> lines(Path p) {
    try {
      return Files.readAllLines(p);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
