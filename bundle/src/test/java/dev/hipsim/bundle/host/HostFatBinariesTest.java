package dev.hipsim.bundle.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.bundle.BundleEntry;
import dev.hipsim.bundle.BundleFormatException;
import dev.hipsim.bundle.FatBinaryFile;
import dev.hipsim.bundle.OffloadBundle;
import dev.hipsim.bundle.ReadOptions;
import dev.hipsim.bundle.testing.BundleCorpus;
import dev.hipsim.elf.ByteSource;
import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.SectionHeader;
import dev.hipsim.testing.Corpus;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class HostFatBinariesTest {
  private static HostOffloadInfo discover(Path p) throws Exception {
    try (ElfFile elf = ElfFile.open(p)) {
      return HostFatBinaries.discover(elf, ReadOptions.DEFAULT);
    }
  }

  @Test
  void pieExecutablesResolveTheWrapperThroughARelativeRelocation() throws Exception {
    HostOffloadInfo info = discover(Corpus.binary("gfx90a-v4", "vector_add"));
    assertThat(info.wrappers()).singleElement().satisfies(w -> {
      assertThat(w.kind()).isEqualTo(WrapperKind.HIPF);
      assertThat(w.pointerSource()).isEqualTo(PointerSource.RELATIVE_RELOCATION);
      assertThat(w.binaryFileOffset()).isEqualTo(info.fatbinSection().orElseThrow().offset());
      assertThat(w.bundleIndex()).hasValue(0);
    });
  }

  @Test
  void nonPieExecutablesUseTheStoredPointer() throws Exception {
    HostOffloadInfo info = discover(Corpus.binary("gfx90a-v4", "vector_add-nopie"));
    FatBinWrapper w = info.wrappers().get(0);
    assertThat(w.pointerSource()).isEqualTo(PointerSource.STORED_VALUE);
    SectionHeader fatbin = info.fatbinSection().orElseThrow();
    assertThat(w.binaryAddress()).isEqualTo(fatbin.address());
    assertThat(w.binaryFileOffset()).isEqualTo(fatbin.offset());
  }

  @Test
  void strippedBinariesNeedNoSymbols() throws Exception {
    Path stripped = Corpus.binary("gfx90a-v4", "vector_add-stripped");
    try (ElfFile elf = ElfFile.open(stripped)) {
      assertThat(elf.symbols()).isEmpty();
    }
    HostOffloadInfo info = discover(stripped);
    assertThat(info.wrappers()).singleElement().satisfies(w -> assertThat(w.bundleIndex()).hasValue(0));
    assertThat(info.bundles()).hasSize(1);
  }

  @Test
  void sharedLibrariesAndMultipleTranslationUnits() throws Exception {
    assertThat(discover(Corpus.binary("gfx90a-v4", "libkern.so")).wrappers()).hasSize(1);
    HostOffloadInfo multi = discover(Corpus.binary("gfx90a-v4", "multi_tu"));
    assertThat(multi.wrappers()).hasSize(3);
    assertThat(multi.wrappers()).extracting(w -> w.bundleIndex().getAsInt()).containsExactlyInAnyOrder(0, 1, 2);
  }

  @Test
  void relocatableObjectsResolveTheWrapperThroughASymbolRelocation() throws Exception {
    Path object = BundleCorpus.extras().resolve("vector_add-newdriver.o");
    try (FatBinaryFile f = FatBinaryFile.open(object, ReadOptions.DEFAULT)) {
      HostOffloadInfo info = f.host().orElseThrow();
      FatBinWrapper w = info.wrappers().get(0);
      assertThat(w.pointerSource()).isEqualTo(PointerSource.SYMBOL_RELOCATION);
      assertThat(w.binaryFileOffset()).isEqualTo(info.fatbinSection().orElseThrow().offset());
      OffloadBundle b = f.openBundle(f.bundles().get(0));
      List<String> recorded = BundleCorpus.lines(BundleCorpus.extras().resolve("vector_add-newdriver.o.list.txt"));
      assertThat(b.entries()).extracting(BundleEntry::id).containsExactlyInAnyOrderElementsOf(recorded);
      for (String line : BundleCorpus.lines(BundleCorpus.extras().resolve("vector_add-newdriver.o.co.tsv"))) {
        String[] fields = line.split("\t");
        BundleEntry e = b.entry(fields[0]).orElseThrow();
        assertThat(BundleCorpus.sha256(b.contents(e))).isEqualTo(fields[2]);
      }
    }
  }

  @Test
  void aWrapperWithABadMagicIsAnErrorNamingItsOffset() throws Exception {
    byte[] bytes = Corpus.read(Corpus.binary("gfx90a-v4", "vector_add"));
    long at;
    try (ElfFile elf = ElfFile.parse(bytes)) {
      at = elf.section(".hipFatBinSegment").orElseThrow().offset();
    }
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt((int) at, 0x12345678);
    assertThatThrownBy(() -> FatBinaryFile.of(ByteSource.of(bytes), ReadOptions.DEFAULT))
        .isInstanceOf(BundleFormatException.class)
        .hasMessage(String.format("at file offset 0x%x: wrapper 0 has magic 0x12345678; expected 0x48495046 (HIPF)"
            + " or 0x4B504948 (HIPK)", at));
  }

  @Test
  void aHipkWrapperIsReportedWithoutABundle() throws Exception {
    byte[] bytes = Corpus.read(Corpus.binary("gfx90a-v4", "vector_add-nopie"));
    long at;
    try (ElfFile elf = ElfFile.parse(bytes)) {
      at = elf.section(".hipFatBinSegment").orElseThrow().offset();
    }
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt((int) at, WrapperKind.HIPK.magic());
    try (FatBinaryFile f = FatBinaryFile.of(ByteSource.of(bytes), ReadOptions.DEFAULT)) {
      FatBinWrapper w = f.host().orElseThrow().wrappers().get(0);
      assertThat(w.kind()).isEqualTo(WrapperKind.HIPK);
      assertThat(w.bundleIndex()).isEmpty();
    }
  }
}
