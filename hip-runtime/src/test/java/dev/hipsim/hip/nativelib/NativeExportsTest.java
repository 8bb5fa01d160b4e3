package dev.hipsim.hip.nativelib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.hipsim.hip.abi.ApiFunction;
import dev.hipsim.hip.abi.ApiTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The symbols and version nodes each built library exports, as {@code objdump -T} and {@code readelf -d} see them. */
class NativeExportsTest {
  private static final Path DEBIAN = Paths.get("/usr/lib/x86_64-linux-gnu/libamdhip64.so.5");

  /** Defined symbols (functions and version-node markers) with their version: objdump -T, defined entries only. */
  static Map<String, String> exports(Path lib) throws Exception {
    assumeTrue(NativeTools.onPath("objdump"), "objdump not installed");
    NativeTools.Run r = NativeTools.run(List.of("objdump", "-T", lib.toString()), Map.of(), 60);
    assertThat(r.exitCode()).as(r.toString()).isZero();
    Map<String, String> out = new TreeMap<>();
    for (String line : r.stdout().split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length < 6 || line.contains("*UND*") || !(line.contains(" DF ") || line.contains(" DO "))) continue;
      out.put(f[f.length - 1], f[f.length - 2]);
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(ints = {5, 6, 7})
  void exportsTheWholeTableWithItsVersions(int major) throws Exception {
    Path lib = NativeTools.nativeDir().resolve("libamdhip64.so." + major);
    Map<String, String> ours = exports(lib);
    ApiTable table = ApiTable.standard();
    for (ApiFunction f : table.functions()) assertThat(ours).as(f.symbol()).containsEntry(f.symbol(), f.versionNode());
    for (String node : table.versionNodes()) assertThat(ours).containsEntry(node, node);
    assertThat(ours).hasSize(table.functions().size() + table.versionNodes().size());

    NativeTools.Run dyn = NativeTools.run(List.of("readelf", "-d", lib.toString()), Map.of(), 60);
    assertThat(dyn.stdout()).contains("Library soname: [libamdhip64.so." + major + "]").doesNotContain("libjvm");
    assertThat(Files.isSymbolicLink(lib)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(ints = {5, 6, 7})
  void exportsEverythingDebiansLibamdhip64Exports(int major) throws Exception {
    assumeTrue(Files.isRegularFile(DEBIAN), "Debian's libamdhip64.so.5 is not installed: skipping the comparison");
    Map<String, String> debian = exports(DEBIAN);
    Map<String, String> ours = exports(NativeTools.nativeDir().resolve("libamdhip64.so." + major));
    assertThat(debian).hasSize(409 + 7);
    for (var e : debian.entrySet()) assertThat(ours).as(e.getKey()).containsEntry(e.getKey(), e.getValue());
  }
}
