package dev.hipsim.hsa.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.hsa.GpuAgent;
import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.HsaOptions;
import dev.hipsim.hsa.HsaStatus;
import dev.hipsim.hsa.TestMachine;
import dev.hipsim.hsa.memory.MemoryManager;
import dev.hipsim.isa.dispatch.KernelDescriptor;
import dev.hipsim.testing.Corpus;
import dev.hipsim.testing.ReadelfText;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every code object of the corpus, offered to three agents — gfx90a with xnack off, gfx90a with xnack on, gfx942 —
 * loads where its target ID allows and is refused, naming both target IDs, where it does not. Each load is checked
 * against LLVM's recorded view: the symbols of readelf's .dynsym, every byte of every PT_LOAD segment read back from
 * VRAM, the relocated words, the descriptors as llvm-objdump prints them and the sizes of the metadata note.
 */
class CorpusLoadTest {
  private static TestMachine xnackOff;
  private static TestMachine xnackOn;
  private static final AtomicInteger LOADS = new AtomicInteger();
  private static final AtomicInteger REFUSALS = new AtomicInteger();

  @BeforeAll
  static void machines() throws Exception {
    xnackOff = TestMachine.standard();
    xnackOn = new TestMachine(HsaOptions.defaults().withXnack(true));
  }

  @AfterAll
  static void shutdown() {
    System.out.printf("corpus: %d loads checked, %d refusals checked%n", LOADS.get(), REFUSALS.get());
    xnackOff.close();
    xnackOn.close();
  }

  private record Offer(TestMachine machine, GpuAgent agent) {}

  private static List<Offer> offers() {
    return List.of(new Offer(xnackOff, xnackOff.gfx90a), new Offer(xnackOn, xnackOn.gfx90a),
        new Offer(xnackOff, xnackOff.gfx942));
  }

  /** The expectation, worked out from the manifest's target ID alone. */
  static boolean shouldLoad(String targetId, GpuAgent agent) {
    String[] parts = targetId.split(":");
    if (!parts[0].equals(agent.name())) return false;
    for (int i = 1; i < parts.length; i++) {
      String f = parts[i];
      boolean on = f.endsWith("+");
      if (f.startsWith("xnack") && on != agent.xnack()) return false;
      if (f.startsWith("sramecc") && on != agent.sramecc()) return false;
    }
    return true;
  }

  @TestFactory
  Stream<DynamicTest> everyCodeObjectLoadsWhereItsTargetAllows() {
    return Corpus.codeObjects().stream().map(c -> DynamicTest.dynamicTest(c.toString(), () -> {
      List<String> loadedOn = new ArrayList<>();
      for (Offer o : offers()) {
        if (shouldLoad(c.targetId(), o.agent())) {
          checkLoad(c, o);
          loadedOn.add(o.agent().isaName());
        } else {
          checkRefusal(c, o);
        }
      }
      if (!c.targetId().startsWith("gfx940")) {
        assertThat(loadedOn).as("%s loads somewhere", c).isNotEmpty();
      }
    }));
  }

  private static void checkRefusal(Corpus.CodeObject c, Offer o) throws Exception {
    Executable e = o.machine().runtime.createExecutable();
    int before = o.machine().runtime.memory().allocationCount();
    try {
      e.loadAgentCodeObject(CodeObjectReader.fromFile(c.hsaco()), o.agent());
      throw new AssertionError(c + " loaded on " + o.agent().isaName());
    } catch (HsaException x) {
      assertThat(x.status()).isEqualTo(HsaStatus.INCOMPATIBLE_ARGUMENTS);
      assertThat(x.getMessage()).contains("amdgcn-amd-amdhsa--" + c.targetId()).contains(o.agent().isaName());
    }
    assertThat(o.machine().runtime.memory().allocationCount()).as("nothing left allocated").isEqualTo(before);
    assertThat(e.symbols()).isEmpty();
    REFUSALS.incrementAndGet();
  }

  private static void checkLoad(Corpus.CodeObject c, Offer o) throws Exception {
    MemoryManager mem = o.machine().runtime.memory();
    Executable e = o.machine().load(c, o.agent());
    long base = e.loadedCodeObjects().get(0).loadBase();
    try {
      LoadedCodeObject lco = e.loadedCodeObjects().get(0);
      ReadelfText elf = ReadelfText.parse(c.file("readelf.txt"));
      List<ReadelfText.Segment> loads = elf.segments.stream().filter(s -> s.type().equals("LOAD")).toList();
      long first = loads.get(0).vaddr();
      assertThat(lco.loadDelta()).isEqualTo(base - first);
      assertThat(lco.loadSize()).isEqualTo(loads.get(loads.size() - 1).vaddr() + loads.get(loads.size() - 1).memSize()
          - first);
      assertThat(mem.find(base)).get().satisfies(a -> assertThat(a.pool()).isSameAs(o.agent().vramPool()));
      SoftAssertions soft = new SoftAssertions();

      // Symbols: every defined global or weak OBJECT of .dynsym, kernels by their .kd descriptor.
      List<ReadelfText.Symbol> dynsym = elf.symbolTables.stream().filter(t -> t.name().equals(".dynsym"))
          .findFirst().orElseThrow().symbols().stream()
          .filter(s -> s.type().equals("OBJECT") && !s.bind().equals("LOCAL") && !s.ndx().equals("UND")).toList();
      soft.assertThat(e.symbols(o.agent()).stream().map(ExecutableSymbol::name).collect(Collectors.toSet()))
          .isEqualTo(dynsym.stream().map(ReadelfText.Symbol::name).collect(Collectors.toSet()));

      Map<String, Map<String, Long>> kds = LlvmRecords.descriptors(c.file("kd.txt"));
      Set<String> undecoded = LlvmRecords.undecoded(c.file("kd.txt"));
      Map<String, Map<String, String>> md = LlvmRecords.kernelMetadata(c.file("notes.txt"));
      for (ReadelfText.Symbol s : dynsym) {
        ExecutableSymbol sym = e.symbol(s.name(), o.agent());
        long address = base + s.value() - first;
        if (s.name().endsWith(".kd")) {
          ExecutableSymbol.Kernel k = (ExecutableSymbol.Kernel) sym;
          String name = k.kernelName();
          soft.assertThat(name + ".kd").isEqualTo(s.name());
          soft.assertThat(k.kernelObject()).as("%s handle", name).isEqualTo(address);
          byte[] kd = new byte[KernelDescriptor.SIZE];
          mem.read(k.kernelObject(), kd, 0, kd.length);
          KernelDescriptor onDevice = KernelDescriptor.parse(kd, 0);
          soft.assertThat(k.descriptor()).as("%s descriptor parsed = bytes in VRAM", name).isEqualTo(onDevice);
          Map<String, Long> want = kds.get(name);
          soft.assertThat(want != null || undecoded.contains(name)).as("%s recorded by llvm-objdump", name).isTrue();
          if (want != null) {
            for (Map.Entry<String, Long> d : want.entrySet()) {
              Long ours = LlvmRecords.directive(onDevice, d.getKey());
              if (ours == null) {
                soft.assertThat(LlvmRecords.ALWAYS_ZERO).as("known directive %s", d.getKey()).contains(d.getKey());
                soft.assertThat(d.getValue()).as("%s .amdhsa_%s", name, d.getKey()).isZero();
              } else {
                soft.assertThat(ours).as("%s .amdhsa_%s", name, d.getKey()).isEqualTo(d.getValue());
              }
            }
          }
          Map<String, String> meta = md.get(name);
          soft.assertThat(meta).as("%s metadata", name).isNotNull();
          if (meta != null) {
            soft.assertThat(k.kernargSegmentSize()).as("%s kernarg size", name)
                .isEqualTo(Long.parseLong(meta.get("kernarg_segment_size")));
            soft.assertThat(k.kernargSegmentAlignment()).as("%s kernarg alignment", name)
                .isEqualTo(Math.max(16, Long.parseLong(meta.get("kernarg_segment_align"))));
            soft.assertThat(k.groupSegmentSize()).as("%s group", name)
                .isEqualTo(Long.parseLong(meta.get("group_segment_fixed_size")));
            soft.assertThat(k.privateSegmentSize()).as("%s private", name)
                .isEqualTo(Long.parseLong(meta.get("private_segment_fixed_size")));
            soft.assertThat(k.dynamicCallStack()).as("%s dynamic stack", name)
                .isEqualTo("true".equals(meta.get("uses_dynamic_stack")));
            soft.assertThat(meta.get("symbol")).isEqualTo(s.name());
            soft.assertThat(k.metadata()).as("%s metadata decoded", name).isPresent();
          }
          soft.assertThat(lco.contains(k.entryAddress())).as("%s entry inside the image", name).isTrue();
        } else {
          ExecutableSymbol.Variable v = (ExecutableSymbol.Variable) sym;
          soft.assertThat(v.address()).as("%s address", s.name()).isEqualTo(address);
          soft.assertThat(v.size()).as("%s size", s.name()).isEqualTo(s.size());
          soft.assertThat(v.weak()).isEqualTo(s.bind().equals("WEAK"));
        }
      }

      // Image: the file bytes of every PT_LOAD segment, zeros past them, relocated words as RELATIVE64 says.
      byte[] file = Corpus.read(c.hsaco());
      Set<Long> relocated = new HashSet<>();
      for (ReadelfText.RelocSection rs : elf.relocations) {
        for (ReadelfText.Reloc r : rs.entries()) {
          soft.assertThat(r.type()).isEqualTo("R_AMDGPU_RELATIVE64");
          long at = base + r.offset() - first;
          byte[] word = new byte[8];
          mem.read(at, word, 0, 8);
          long addend = Long.parseUnsignedLong(r.rest().trim(), 16);
          soft.assertThat(ByteBuffer.wrap(word).order(ByteOrder.LITTLE_ENDIAN).getLong())
              .as("RELATIVE64 at 0x%x", r.offset()).isEqualTo(base + addend - first);
          for (int k = 0; k < 8; k++) relocated.add(r.offset() + k);
        }
      }
      for (ReadelfText.Segment seg : loads) {
        byte[] got = new byte[(int) seg.memSize()];
        mem.read(base + seg.vaddr() - first, got, 0, got.length);
        int mismatches = 0;
        for (int i = 0; i < got.length; i++) {
          if (relocated.contains(seg.vaddr() + i)) continue;
          byte want = i < seg.fileSize() ? file[(int) seg.offset() + i] : 0;
          if (got[i] != want) mismatches++;
        }
        soft.assertThat(mismatches).as("bytes differing in the segment at 0x%x", seg.vaddr()).isZero();
      }
      soft.assertAll();
      LOADS.incrementAndGet();
    } finally {
      e.destroy();
    }
    assertThat(mem.find(base)).as("destroy frees the segments").isEmpty();
  }

  @Test
  void gfx940CodeObjectsRunNowhereHere() throws Exception {
    Corpus.CodeObject c = TestMachine.codeObject("gfx940-v5", "vector_add", "gfx940");
    Executable e = xnackOff.runtime.createExecutable();
    try {
      e.loadAgentCodeObject(CodeObjectReader.fromFile(c.hsaco()), xnackOff.gfx942);
      throw new AssertionError("loaded");
    } catch (HsaException x) {
      assertThat(x.getMessage()).isEqualTo("HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS: " + c.hsaco() + ": code object "
          + "for amdgcn-amd-amdhsa--gfx940 cannot be loaded on agent gfx942 (node 2) whose ISA is "
          + "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-: processor gfx940 is not gfx942");
    }
  }

  @Test
  void xnackMismatchNamesBothTargets() throws Exception {
    Corpus.CodeObject c = TestMachine.codeObject("gfx90a-v5-xnack", "saxpy", "gfx90a:xnack+");
    Executable e = xnackOff.runtime.createExecutable();
    try {
      e.loadAgentCodeObject(CodeObjectReader.fromFile(c.hsaco()), xnackOff.gfx90a);
      throw new AssertionError("loaded");
    } catch (HsaException x) {
      assertThat(x.getMessage()).contains(c.hsaco().toString()).contains("code object for "
          + "amdgcn-amd-amdhsa--gfx90a:xnack+ cannot be loaded on agent gfx90a (node 1) whose ISA is "
          + "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-: it was built for xnack+ and the agent runs with xnack-");
    }
  }
}
