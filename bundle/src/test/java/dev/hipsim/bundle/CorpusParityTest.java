package dev.hipsim.bundle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.bundle.host.FatBinWrapper;
import dev.hipsim.bundle.host.HostOffloadInfo;
import dev.hipsim.bundle.testing.BundleCorpus;
import dev.hipsim.bundle.testing.BundleCorpus.RecordedBundle;
import dev.hipsim.elf.ByteSource;
import dev.hipsim.elf.SectionHeader;
import dev.hipsim.testing.Corpus;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every host binary of the corpus: the bundles found where split_fatbin.py found them, the entries
 * clang-offload-bundler --list printed, every code object byte-identical to what the bundler unbundled (by hash),
 * and one wrapper per bundle.
 */
class CorpusParityTest {
  private static final Map<String, String> MANIFEST = new HashMap<>();
  private static final AtomicInteger BINARIES = new AtomicInteger();
  private static final AtomicInteger BUNDLES = new AtomicInteger();
  private static final AtomicInteger CODE_OBJECTS = new AtomicInteger();

  static {
    for (Corpus.CodeObject c : Corpus.codeObjects()) {
      MANIFEST.put(key(c.variant(), c.program(), c.bundle(), c.entryId()), c.sha256());
    }
  }

  private static String key(String variant, String program, int bundle, String id) {
    return variant + "/" + program + "#" + bundle + "/" + id;
  }

  static Stream<Path> binaries() {
    return BundleCorpus.filesWithBundles().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("binaries")
  void sameBundlesEntriesAndBytesAsClangOffloadBundler(Path binary) throws Exception {
    String variant = binary.getParent().getFileName().toString();
    String program = binary.getFileName().toString();
    List<RecordedBundle> recorded = BundleCorpus.bundles(binary);
    int codeObjects = 0;
    try (FatBinaryFile file = FatBinaryFile.open(binary, ReadOptions.DEFAULT)) {
      boolean bare = file.kind() == FatBinaryFile.Kind.BUNDLES;
      assertThat(file.kind()).isIn(FatBinaryFile.Kind.HOST_ELF, FatBinaryFile.Kind.BUNDLES);
      Optional<HostOffloadInfo> host = file.host();
      long base = bare ? 0 : host.orElseThrow().fatbinSection().map(SectionHeader::offset).orElse(0L);
      if (!bare && host.orElseThrow().fatbinSection().isEmpty()) {
        assertThat(recorded).as("a binary without .hip_fatbin has no recorded bundles").isEmpty();
        assertThat(host.get().wrappers()).isEmpty();
      }
      assertThat(file.bundles()).hasSameSizeAs(recorded);
      for (int i = 0; i < recorded.size(); i++) {
        RecordedBundle r = recorded.get(i);
        BundleLocation l = file.bundles().get(i);
        assertThat(l.offset() - base).as("offset of bundle %d", i).isEqualTo(r.offset());
        String format = r.format().startsWith("ccob") ? r.format() + "/zstd" : r.format();
        assertThat(l.formatLabel()).as("format of bundle %d", i).isEqualTo(format);
        if (l.format() == BundleFormat.COMPRESSED) {
          assertThat(l.length()).as("length of bundle %d", i).isEqualTo(r.length());
        } else {
          // split_fatbin.py runs each bundle to the next one's start; only zero padding may follow our extent.
          assertThat(l.length()).isLessThanOrEqualTo(r.length());
          assertZeros(file.source(), l.offset() + l.length(), base + r.offset() + r.length());
        }

        OffloadBundle bundle = file.openBundle(l);
        assertThat(bundle.warnings()).isEmpty();
        assertThat(bundle.hashMatches().orElse(true)).as("hash of bundle %d", i).isTrue();
        List<String> ours = new ArrayList<>();
        for (BundleEntry e : bundle.entries()) ours.add(e.id());
        assertThat(ours).as("entries of bundle %d", i)
            .containsExactlyInAnyOrderElementsOf(BundleCorpus.listed(binary, i));
        for (BundleEntry e : bundle.deviceEntries()) {
          String expected = MANIFEST.get(key(variant, program, i, e.id()));
          assertThat(expected).as("manifest line for %s", e.id()).isNotNull();
          ByteBuffer contents = bundle.contents(e);
          assertThat(BundleCorpus.sha256(contents)).as("sha256 of %s in bundle %d", e.id(), i).isEqualTo(expected);
          if (bundle.format() == BundleFormat.PLAIN) {
            assertThat(contents.isDirect()).as("plain entries are views of the mapped file").isTrue();
          }
          codeObjects++;
        }
      }
      if (!bare) {
        Set<Integer> pointedTo = new HashSet<>();
        for (FatBinWrapper w : host.get().wrappers()) {
          assertThat(w.version()).isEqualTo(1);
          pointedTo.add(w.bundleIndex().orElseThrow());
        }
        assertThat(host.get().wrappers()).hasSameSizeAs(recorded);
        assertThat(pointedTo).hasSize(recorded.size());
      }
    }
    long expectedCodeObjects = Corpus.codeObjects().stream()
        .filter(c -> c.variant().equals(variant) && c.program().equals(program)).count();
    assertThat((long) codeObjects).isEqualTo(expectedCodeObjects);
    BINARIES.incrementAndGet();
    BUNDLES.addAndGet(recorded.size());
    CODE_OBJECTS.addAndGet(codeObjects);
  }

  @Test
  void everyManifestCodeObjectIsCovered() {
    long binariesWithCode = Corpus.codeObjects().stream().map(c -> c.variant() + "/" + c.program()).distinct().count();
    long covered = BundleCorpus.filesWithBundles().stream()
        .filter(p -> Corpus.codeObjects().stream().anyMatch(c -> c.hostBinary().equals(p))).count();
    assertThat(covered).isEqualTo(binariesWithCode);
    assertThat(Corpus.codeObjects()).hasSizeGreaterThan(100);
  }

  @AfterAll
  static void summary() {
    System.out.printf("bundle corpus parity: %d binaries, %d bundles, %d code objects byte-identical%n",
        BINARIES.get(), BUNDLES.get(), CODE_OBJECTS.get());
  }

  private static void assertZeros(ByteSource source, long from, long to) throws Exception {
    for (long at = from; at < to; at++) assertThat(source.u8(at)).as("padding byte at 0x%x", at).isZero();
  }
}
