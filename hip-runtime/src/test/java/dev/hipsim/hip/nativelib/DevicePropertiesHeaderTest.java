package dev.hipsim.hip.nativelib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.hipsim.hip.device.DeviceModel;
import dev.hipsim.hip.device.DeviceProperties;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * hipGetDeviceProperties as a program compiled with ROCm's own header sees it (skipped when the HIP headers are not
 * installed): every field of the HIP 5 struct by name, and the ROCm 6 struct at the offsets its header gives.
 */
class DevicePropertiesHeaderTest {
  private static final Path HEADER = Paths.get("/usr/include/hip/hip_runtime_api.h");
  private static Path program;

  @BeforeAll
  static void build() throws Exception {
    assumeTrue(Files.isRegularFile(HEADER), "HIP headers not installed (" + HEADER + "): skipping the header check");
    program = NativeTools.compile("device_props.c", "-D__HIP_PLATFORM_AMD__");
  }

  @ParameterizedTest
  @ValueSource(strings = {"gfx90a", "gfx942"})
  void everyFieldReadsBackThroughTheRealHeader(String device) throws Exception {
    NativeTools.Run r = NativeTools.run(List.of(program.toString()), NativeTools.hipEnvironment(device), 60);
    assertThat(r.exitCode()).as(r.toString()).isZero();
    Map<String, String> out = new HashMap<>();
    for (String line : r.stdout().split("\n")) {
      int eq = line.indexOf('=');
      out.put(line.substring(0, eq), line.substring(eq + 1));
    }
    assertThat(out).containsEntry("rc", "0").containsEntry("rcR0600", "0").containsEntry("sizeof", "792");
    Map<String, Object> expected = DeviceProperties.of(DeviceModel.forName(device));
    int checked = 0;
    for (var e : out.entrySet()) {
      String field = e.getKey();
      if (List.of("rc", "rcR0600", "sizeof", "R0600").contains(field) || field.startsWith("arch.")) continue;
      assertThat(e.getValue()).as(field).isEqualTo(render(expected.get(field)));
      checked++;
    }
    assertThat(checked).isEqualTo(55);
    // hipDeviceArch_t is a bitfield: the header's names must land on CLR's values.
    assertThat(out).containsEntry("arch.hasGlobalInt32Atomics", "1").containsEntry("arch.hasWarpShuffle", "1")
        .containsEntry("arch.hasFunnelShift", "0").containsEntry("arch.hasThreadFenceSystem", "1")
        .containsEntry("arch.has3dGrid", "1").containsEntry("arch.hasDynamicParallelism", "0");

    // ROCm 6 layout, at the offsets gcc printed for ROCm 6.3's header (test resource hipDeviceProp_tR0600.offsets.tsv).
    ByteBuffer b = ByteBuffer.wrap(HexFormat.of().parseHex(out.get("R0600"))).order(ByteOrder.LITTLE_ENDIAN);
    DeviceModel m = DeviceModel.forName(device);
    assertThat(cString(b, 0)).isEqualTo(m.name());
    assertThat(b.getLong(288)).isEqualTo(m.totalGlobalMem());
    assertThat(b.getInt(388)).isEqualTo(m.multiProcessorCount());
    assertThat(cString(b, 1160)).isEqualTo(m.gcnArchName());
    assertThat(b.getInt(1428)).isEqualTo(0x97ff);
    assertThat(b.getInt(1468)).isEqualTo(m.asicRevision());
  }

  private static String render(Object v) {
    if (v == null) return "0";
    if (v instanceof int[] a) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < a.length; i++) sb.append(i > 0 ? "," : "").append(a[i]);
      return sb.toString();
    }
    return v.toString();
  }

  private static String cString(ByteBuffer b, int offset) {
    int end = offset;
    while (b.get(end) != 0) end++;
    return new String(b.array(), offset, end - offset, StandardCharsets.UTF_8);
  }
}
