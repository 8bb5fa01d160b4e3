package dev.hipsim.hsa.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.ElfSymbol;
import dev.hipsim.elf.Relocation;
import dev.hipsim.elf.SectionHeader;
import dev.hipsim.hsa.GpuAgent;
import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.HsaOptions;
import dev.hipsim.hsa.HsaStatus;
import dev.hipsim.hsa.TestMachine;
import dev.hipsim.testing.Corpus;
import dev.hipsim.testing.ReadelfText;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Dynamic relocations, read back from VRAM after loading: device_globals' function-pointer table
 * ({@code R_AMDGPU_RELATIVE64}) in every variant, and the other types ROCr applies on the same code object with its
 * two relocations rewritten (ABS64, ABS32_LO/HI, ABS32, a symbol left undefined, a type ROCr refuses).
 */
class RelocationTest {
  private static TestMachine off;
  private static TestMachine on;

  @BeforeAll
  static void machines() throws Exception {
    off = TestMachine.standard();
    on = new TestMachine(HsaOptions.defaults().withXnack(true));
  }

  @AfterAll
  static void shutdown() {
    off.close();
    on.close();
  }

  private static long u64(long address) throws HsaException {
    byte[] b = new byte[8];
    off.runtime.memory().read(address, b, 0, 8);
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong();
  }

  private static long u64(TestMachine m, long address) throws HsaException {
    byte[] b = new byte[8];
    m.runtime.memory().read(address, b, 0, 8);
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong();
  }

  @TestFactory
  Stream<DynamicTest> theFunctionPointerTablePointsAtTheLoadedFunctions() {
    return Corpus.codeObjects().stream().filter(c -> c.program().equals("device_globals")
        && !c.targetId().equals("gfx940")).map(c -> DynamicTest.dynamicTest(c.toString(), () -> {
          TestMachine m = c.targetId().equals("gfx90a:xnack+") ? on : off;
          GpuAgent agent = c.targetId().startsWith("gfx942") ? m.gfx942 : m.gfx90a;
          Executable e = m.load(c, agent);
          try {
            long base = e.loadedCodeObjects().get(0).loadBase();
            ReadelfText elf = ReadelfText.parse(c.file("readelf.txt"));
            List<ReadelfText.Symbol> symtab = elf.symbolTables.stream().filter(t -> t.name().equals(".symtab"))
                .findFirst().orElseThrow().symbols();
            long twice = symtab.stream().filter(s -> s.name().equals("_Z5twicei")).findFirst().orElseThrow().value();
            long square = symtab.stream().filter(s -> s.name().equals("_Z6squarei")).findFirst().orElseThrow().value();
            ExecutableSymbol.Variable ops = e.variable("ops", agent);
            assertThat(ops.size()).isEqualTo(16);
            assertThat(u64(m, ops.address())).as("ops[0] = &twice").isEqualTo(base + twice);
            assertThat(u64(m, ops.address() + 8)).as("ops[1] = &square").isEqualTo(base + square);
          } finally {
            e.destroy();
          }
        }));
  }

  // ---------------------------------------------------------------- rewritten relocations

  /** gfx90a-v4 device_globals with its .rela.dyn entries and .dynsym open for rewriting. */
  private static final class Patched {
    final byte[] image = Corpus.read(TestMachine.codeObject("gfx90a-v4", "device_globals", "gfx90a").hsaco());
    final ByteBuffer b = ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN);
    final long rela;
    final long dynsym;
    final List<ElfSymbol> symbols;
    final List<Relocation> relocations;

    Patched() throws Exception {
      try (ElfFile elf = ElfFile.parse(image.clone())) {
        SectionHeader r = elf.section(".rela.dyn").orElseThrow();
        rela = r.offset();
        dynsym = elf.section(".dynsym").orElseThrow().offset();
        symbols = elf.dynamicSymbols();
        relocations = elf.relocationSections().get(0).relocations();
      }
    }

    int symbol(String name) {
      return symbols.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow().index();
    }

    long value(String name) {
      return symbols.get(symbol(name)).value();
    }

    long offset(int entry) {
      return relocations.get(entry).offset();
    }

    Patched entry(int i, int type, String symbol, long addend) {
      long at = rela + 24L * i;
      b.putLong((int) at + 8, (long) (symbol == null ? 0 : symbol(symbol)) << 32 | type);
      b.putLong((int) at + 16, addend);
      return this;
    }

    Patched undefine(String name) {
      int at = (int) (dynsym + 24L * symbol(name));
      b.put(at + 4, (byte) (ElfSymbol.STB_GLOBAL << 4 | ElfSymbol.STT_NOTYPE));
      b.putShort(at + 6, (short) ElfSymbol.SHN_UNDEF);
      b.putLong(at + 8, 0);
      return this;
    }

    Executable load() throws HsaException {
      Executable e = off.runtime.createExecutable();
      e.loadAgentCodeObject(CodeObjectReader.fromMemory(image), off.gfx90a);
      return e;
    }
  }

  @Test
  void abs64AddsTheSymbolsLoadedAddress() throws Exception {
    Patched p = new Patched().entry(0, Relocation.R_AMDGPU_ABS64, "coeffs", 8);
    Executable e = p.load();
    long base = e.loadedCodeObjects().get(0).loadBase();
    assertThat(u64(base + p.offset(0))).isEqualTo(base + p.value("coeffs") + 8);
    assertThat(u64(base + p.offset(0))).isEqualTo(e.variable("coeffs", off.gfx90a).address() + 8);
    e.destroy();
  }

  @Test
  void abs32LoAndHiSplitTheAddress() throws Exception {
    Patched p = new Patched().entry(0, Relocation.R_AMDGPU_ABS32_LO, "table", 4)
        .entry(1, Relocation.R_AMDGPU_ABS32_HI, "table", 4);
    Executable e = p.load();
    long base = e.loadedCodeObjects().get(0).loadBase();
    long table = base + p.value("table") + 4;
    assertThat((int) u64(base + p.offset(0))).isEqualTo((int) table);
    assertThat((int) u64(base + p.offset(1))).isEqualTo((int) (table >>> 32));
    assertThat(table >>> 32).as("the high half is not trivially zero").isNotZero();
    e.destroy();
  }

  @Test
  void abs32KeepsTheLowHalf() throws Exception {
    Patched p = new Patched().entry(1, Relocation.R_AMDGPU_ABS32, "counter", -4);
    Executable e = p.load();
    long base = e.loadedCodeObjects().get(0).loadBase();
    assertThat((int) u64(base + p.offset(1))).isEqualTo((int) (base + p.value("counter") - 4));
    e.destroy();
  }

  @Test
  void anUndefinedSymbolNeedsAnAgentGlobalVariable() throws Exception {
    Patched p = new Patched().undefine("counter").entry(0, Relocation.R_AMDGPU_ABS64, "counter", 16);
    assertThatThrownBy(p::load).isInstanceOf(HsaException.class).hasMessageContaining("undefined symbol counter")
        .extracting(x -> ((HsaException) x).status()).isEqualTo(HsaStatus.VARIABLE_UNDEFINED);
    Executable e = off.runtime.createExecutable();
    long counter = off.gfx90a.vramPool().allocate(4096);
    e.defineAgentGlobalVariable(off.gfx90a, "counter", counter);
    e.loadAgentCodeObject(CodeObjectReader.fromMemory(p.image), off.gfx90a);
    long base = e.loadedCodeObjects().get(0).loadBase();
    assertThat(u64(base + p.offset(0))).isEqualTo(counter + 16);
    assertThat(e.variable("counter", off.gfx90a).external()).isTrue();
    e.destroy();
    off.runtime.memory().free(counter);
  }

  @Test
  void aRelocationRocrDoesNotApplyIsRefused() throws Exception {
    Patched p = new Patched().entry(0, 4, "coeffs", 0);
    int before = off.runtime.memory().allocationCount();
    assertThatThrownBy(p::load).isInstanceOf(HsaException.class)
        .hasMessageContaining("dynamic relocation R_AMDGPU_REL32 at offset 0x" + Long.toHexString(p.offset(0)))
        .extracting(x -> ((HsaException) x).status()).isEqualTo(HsaStatus.INVALID_CODE_OBJECT);
    assertThat(off.runtime.memory().allocationCount()).isEqualTo(before);
  }
}
