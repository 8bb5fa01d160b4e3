package dev.hipsim.hsa.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.HsaStatus;
import dev.hipsim.hsa.TestMachine;
import dev.hipsim.testing.Corpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Executable life cycle: loading on several agents, freezing, clashes, destruction, readers. */
class ExecutableTest {
  private TestMachine m;

  @BeforeEach
  void setUp() throws Exception {
    m = TestMachine.standard();
  }

  @AfterEach
  void tearDown() {
    m.close();
  }

  private static HsaStatus status(Throwable t) {
    return ((HsaException) t).status();
  }

  @Test
  void oneExecutableHoldsTheCodeObjectsOfABundleForEachAgent() throws Exception {
    Executable e = m.runtime.createExecutable();
    Corpus.CodeObject a = TestMachine.codeObject("gfx942-v6-ccob2", "int64_math", "gfx90a");
    Corpus.CodeObject b = TestMachine.codeObject("gfx942-v6-ccob2", "int64_math", "gfx942");
    LoadedCodeObject la = e.loadAgentCodeObject(CodeObjectReader.fromFile(a.hsaco()), m.gfx90a);
    LoadedCodeObject lb = e.loadAgentCodeObject(CodeObjectReader.fromFile(b.hsaco()), m.gfx942);
    e.freeze();
    assertThat(e.state()).isEqualTo(Executable.State.FROZEN);
    assertThat(e.loadedCodeObjects()).containsExactly(la, lb);
    assertThat(la.targetId()).isEqualTo("gfx90a");
    assertThat(la.codeObjectVersion()).isEqualTo(6);
    assertThat(la.source()).isEqualTo(a.hsaco().toString());
    assertThat(e.symbols(m.gfx90a)).isNotEmpty().allSatisfy(s -> assertThat(s.agent()).isSameAs(m.gfx90a));
    assertThat(e.symbols()).hasSize(e.symbols(m.gfx90a).size() + e.symbols(m.gfx942).size());
    ExecutableSymbol.Kernel ka = e.kernel(e.symbols(m.gfx90a).stream()
        .filter(s -> s instanceof ExecutableSymbol.Kernel).findFirst().orElseThrow().name(), m.gfx90a);
    ExecutableSymbol.Kernel kb = e.kernel(ka.kernelName(), m.gfx942);
    assertThat(ka.kernelObject()).isNotEqualTo(kb.kernelObject());
    assertThat(la.contains(ka.kernelObject())).isTrue();
    assertThat(lb.contains(kb.kernelObject())).isTrue();
    assertThat(e.symbol(ka.name(), m.gfx90a)).isSameAs(ka);

    assertThatThrownBy(() -> e.loadAgentCodeObject(CodeObjectReader.fromFile(a.hsaco()), m.gfx90a))
        .hasMessageContaining("frozen").matches(t -> status(t) == HsaStatus.FROZEN_EXECUTABLE);
    assertThatThrownBy(e::freeze).matches(t -> status(t) == HsaStatus.FROZEN_EXECUTABLE);
    assertThatThrownBy(() -> e.defineAgentGlobalVariable(m.gfx90a, "x", 0))
        .matches(t -> status(t) == HsaStatus.FROZEN_EXECUTABLE);
  }

  @Test
  void theSameSymbolTwiceForOneAgentClashes() throws Exception {
    Corpus.CodeObject c = TestMachine.codeObject("gfx90a-v4", "saxpy", "gfx90a");
    Executable e = m.runtime.createExecutable();
    e.loadAgentCodeObject(CodeObjectReader.fromFile(c.hsaco()), m.gfx90a);
    int allocations = m.runtime.memory().allocationCount();
    assertThatThrownBy(() -> e.loadAgentCodeObject(CodeObjectReader.fromFile(c.hsaco()), m.gfx90a))
        .hasMessageContaining("is already defined for agent gfx90a in this executable (by " + c.hsaco() + ")")
        .matches(t -> status(t) == HsaStatus.VARIABLE_ALREADY_DEFINED);
    assertThat(m.runtime.memory().allocationCount()).isEqualTo(allocations);
  }

  @Test
  void destroyFreesTheSegments() throws Exception {
    long before = m.device(m.gfx90a).vramUsedBytes();
    Executable e = m.load(TestMachine.codeObject("gfx90a-debug", "matmul_tiled", "gfx90a"), m.gfx90a);
    assertThat(m.device(m.gfx90a).vramUsedBytes()).isGreaterThan(before);
    e.destroy();
    assertThat(m.device(m.gfx90a).vramUsedBytes()).isEqualTo(before);
    assertThat(e.symbols(m.gfx90a)).isEmpty();
    assertThatThrownBy(e::destroy).matches(t -> status(t) == HsaStatus.INVALID_EXECUTABLE);
  }

  @Test
  void readersCheckWhatTheyAreGiven(@TempDir Path dir) throws Exception {
    Path missing = dir.resolve("nope.hsaco");
    assertThatThrownBy(() -> CodeObjectReader.fromFile(missing)).hasMessageContaining(missing.toString())
        .matches(t -> status(t) == HsaStatus.INVALID_FILE);
    byte[] co = Corpus.read(TestMachine.codeObject("gfx90a-v4", "saxpy", "gfx90a").hsaco());
    Path cut = dir.resolve("cut.hsaco");
    Files.write(cut, Arrays.copyOf(co, 500));
    assertThatThrownBy(() -> CodeObjectReader.fromFile(cut)).hasMessageContaining(cut + ": corrupt code object")
        .hasMessageContaining("file offset").matches(t -> status(t) == HsaStatus.INVALID_CODE_OBJECT);
    byte[] host = Corpus.read(Corpus.binary("gfx90a-v4", "saxpy"));
    assertThatThrownBy(() -> CodeObjectReader.fromMemory(host)).hasMessageContaining("memory: not an AMDGPU code object");
    CodeObjectReader r = CodeObjectReader.fromMemory(co);
    assertThat(r.source()).isEqualTo("memory");
    assertThat(r.metadata()).get().satisfies(md -> assertThat(md.kernels()).isNotEmpty());
    assertThat(r.codeObject().target().targetId()).isEqualTo("gfx90a");
  }
}
