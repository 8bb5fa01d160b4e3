package dev.hipsim.isa.debug;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Pending breakpoints resolve when code loads; ids stay stable; sources are found where they moved. */
class BreakpointResolutionTest {

  @Test
  void pendingBreakpointsResolveWhenTheirCodeLoadsAndKeepTheirIds() throws Exception {
    DebugHarness h = new DebugHarness();
    List<List<BreakpointStatus>> changes = new ArrayList<>();
    h.debugger.setListener(new Debugger.Listener() {
      @Override
      public void stopped(StopEvent event) {}

      @Override
      public void breakpointsChanged(List<BreakpointStatus> changed) {
        changes.add(changed);
      }
    });
    List<BreakpointStatus> before = h.debugger.setFunctionBreakpoints(List.of(
        new BreakpointSpec.Function("vadd", 0), new BreakpointSpec.Function("scratchy", 4)));
    assertThat(before).allMatch(s -> !s.verified());
    List<BreakpointStatus> line = h.debugger.setLineBreakpoints("vector_add.hip",
        List.of(new BreakpointSpec.Line("vector_add.hip", 7)));
    assertThat(line.get(0).message()).isEqualTo("no code for vector_add.hip:7 in the code loaded so far (pending)");

    DebugHarness.Loaded v = h.load(DebugHarness.corpus("gfx90a-v4", "vector_add", "0-gfx90a"));
    assertThat(changes).hasSize(1);
    assertThat(changes.get(0)).singleElement().satisfies(s -> {
      assertThat(s.id()).isEqualTo(before.get(0).id());
      assertThat(s.verified()).isTrue();
      assertThat(s.addresses()).containsExactly(v.base() + 0x1700);
    });
    // the -O2 build has no line tables: the line breakpoint stays pending until the -O0 -g build loads
    DebugHarness.Loaded d = h.load(DebugHarness.corpus("gfx90a-debug", "vector_add", "0-gfx90a"));
    BreakpointStatus resolved = h.debugger.breakpoints().stream().filter(s -> s.id() == line.get(0).id()).findFirst()
        .orElseThrow();
    assertThat(resolved.verified()).isTrue();
    assertThat(resolved.addresses()).containsExactly(d.base() + 0x3814); // llvm-dwarfdump: line 7 is_stmt at 0x3814
    BreakpointStatus vadd = h.debugger.breakpoints().get(0);
    assertThat(vadd.addresses()).containsExactly(v.base() + 0x1700, d.base() + 0x3400);

    // setting the same breakpoints again keeps their ids; a new one gets a new id
    List<BreakpointStatus> again = h.debugger.setFunctionBreakpoints(List.of(new BreakpointSpec.Function("vadd", 0),
        new BreakpointSpec.Function("fib", 0)));
    assertThat(again.get(0).id()).isEqualTo(before.get(0).id());
    assertThat(again.get(1).id()).isGreaterThan(line.get(0).id());

    h.debugger.codeObjectUnloaded(d.base());
    assertThat(h.debugger.breakpoints().stream().filter(s -> s.id() == line.get(0).id()).findFirst().orElseThrow()
        .verified()).isFalse();
  }

  @Test
  void sourcesAreFoundUnderSourceDirectoriesByTheirLongestTail(@TempDir Path dir) throws Exception {
    Path moved = dir.resolve("checkout/testdata/src/vector_add.hip");
    Files.createDirectories(moved.getParent());
    Files.writeString(moved, "// moved\n");
    Path other = dir.resolve("elsewhere/vector_add.hip");
    Files.createDirectories(other.getParent());
    Files.writeString(other, "// another file of the same name\n");
    SourcePaths paths = new SourcePaths();
    paths.add(dir.resolve("elsewhere"));
    paths.add(dir.resolve("checkout"));
    assertThat(paths.resolve("/nonexistent/build/testdata/src/vector_add.hip")).contains(moved);
    assertThat(paths.resolve("vector_add.hip")).contains(other);
    assertThat(paths.resolve("/nonexistent/x.hip")).isEmpty();
    assertThat(paths.resolve(moved.toString())).contains(moved);
  }
}
