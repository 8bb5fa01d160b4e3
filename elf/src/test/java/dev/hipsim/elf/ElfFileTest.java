package dev.hipsim.elf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.testing.Corpus;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Behaviour the parity test does not cover: AMDGPU specifics, address mapping and error messages. */
class ElfFileTest {

  @Test
  void decodesTheTargetOfEachCodeObjectVersion() throws Exception {
    for (Corpus.CodeObject c : Corpus.codeObjects()) {
      try (ElfFile elf = ElfFile.open(c.hsaco())) {
        AmdgpuTarget t = elf.amdgpuTarget();
        assertThat(t.targetId()).as(c.toString()).isEqualTo(c.targetId());
        int expectedVersion = c.variant().contains("v4") ? 4 : c.variant().contains("v6") ? 6 : 5;
        assertThat(t.codeObjectVersion()).as(c.toString()).isEqualTo(expectedVersion);
        assertThat(elf.amdgpuMetadataNote()).as(c.toString()).isPresent();
      }
    }
  }

  @Test
  void mapsVirtualAddressesToFileOffsetsThroughLoadSegments() throws Exception {
    try (ElfFile elf = ElfFile.open(Corpus.binary("gfx90a-v4", "vector_add"))) {
      SectionHeader fatbin = elf.section(".hip_fatbin").orElseThrow();
      assertThat(elf.fileOffsetOf(fatbin.address())).isEqualTo(fatbin.offset());
      SectionHeader wrapper = elf.section(".hipFatBinSegment").orElseThrow();
      assertThat(elf.fileOffsetOf(wrapper.address() + 8)).isEqualTo(wrapper.offset() + 8);
      long bss = elf.section(".bss").orElseThrow().address();
      assertThatThrownBy(() -> elf.fileOffsetOf(bss)).isInstanceOf(ElfFormatException.class)
          .hasMessageContaining(Long.toHexString(bss));
    }
  }

  @Test
  void strippedBinariesHaveNoSymtabButKeepDynamicSymbols() throws Exception {
    try (ElfFile elf = ElfFile.open(Corpus.binary("gfx90a-v4", "vector_add-stripped"))) {
      assertThat(elf.symbols()).isEmpty();
      assertThat(elf.dynamicSymbols()).extracting(ElfSymbol::name).contains("__hipRegisterFatBinary");
      assertThat(elf.dynamicSymbols().stream().filter(s -> s.name().equals("hipMalloc")).findFirst().orElseThrow()
          .version()).isEqualTo("hip_4.2");
    }
  }

  @Test
  void rejectsNonElfAndTruncatedInputWithTheOffset() {
    assertThatThrownBy(() -> ElfFile.parse(new byte[10])).isInstanceOf(ElfFormatException.class)
        .hasMessageContaining("too small");
    byte[] notElf = new byte[64];
    notElf[0] = 'M';
    assertThatThrownBy(() -> ElfFile.parse(notElf)).isInstanceOf(ElfFormatException.class)
        .hasMessageContaining("at file offset 0x0").hasMessageContaining("not an ELF file");
    byte[] whole = Corpus.read(Corpus.binary("gfx90a-v4", "vector_add"));
    byte[] cut = java.util.Arrays.copyOf(whole, 8000);
    assertThatThrownBy(() -> ElfFile.parse(cut)).isInstanceOf(ElfFormatException.class)
        .hasMessageContaining("does not fit");
  }

  @Test
  void opensFromPath() throws Exception {
    Path p = Corpus.binary("gfx90a-v4", "vector_add");
    try (ElfFile elf = ElfFile.open(p)) {
      assertThat(elf.header().machine()).isEqualTo(ElfHeader.EM_X86_64);
      assertThat(elf.section(".hipFatBinSegment")).isPresent();
    }
  }
}
