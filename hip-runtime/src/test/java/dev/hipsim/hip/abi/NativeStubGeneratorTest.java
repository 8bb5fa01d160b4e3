package dev.hipsim.hip.abi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NativeStubGeneratorTest {
  private final ApiTable table = ApiTable.standard();
  private final NativeStubGenerator generator = new NativeStubGenerator(table);

  @Test
  void oneStubPerFunctionWithItsIdAndSlots() {
    String c = generator.stubs();
    for (ApiFunction f : table.functions()) {
      assertThat(c).contains(" " + f.symbol() + "(");
      assertThat(c).contains("hipsim_call(" + f.id() + ", " + (f.slotCount() == 0 ? "NULL" : "s") + ", " + f.slotCount() + ")");
    }
  }

  @Test
  void packsEachKindOfArgument() {
    String launch = generator.stub(table.find("hipLaunchKernel").orElseThrow());
    assertThat(launch).contains("int32_t hipLaunchKernel(void* a0, hipsim_struct_dim3 a1, hipsim_struct_dim3 a2, void* a3, uint64_t a4, void* a5)")
        .contains("memcpy(&s[1], &a1, sizeof a1);").contains("memcpy(&s[3], &a2, sizeof a2);").contains("s[7] = (int64_t)(intptr_t)a5;");
    String memset3d = generator.stub(table.find("hipMemset3D").orElseThrow());
    assertThat(memset3d).contains("s[0] = (int64_t)(intptr_t)&a0;");
    String bias = generator.stub(table.find("hipTexRefSetMipmapLevelBias").orElseThrow());
    assertThat(bias).contains("float a1").contains("s[1] = (int64_t)hipsim_f32_bits(a1);");
    String h2f = generator.stub(table.find("__gnu_h2f_ieee").orElseThrow());
    assertThat(h2f).contains("return hipsim_bits_f32((uint32_t)hipsim_call(");
    String name = generator.stub(table.find("hipGetErrorName").orElseThrow());
    assertThat(name).contains("return (void*)(intptr_t)hipsim_call(");
    String channel = generator.stub(table.find("hipCreateChannelDesc").orElseThrow());
    assertThat(channel).contains("s[5] = (int64_t)(intptr_t)&r;").contains("return r;");
  }

  @Test
  void versionScriptChainsTheNodesAndHidesEverythingElse() {
    String map = generator.versionScript();
    assertThat(map).contains("hip_4.2 {\nglobal:\n").contains("} hip_4.2;\n").contains("hip_7.2 {").contains("} hip_7.1;");
    assertThat(map).containsPattern("hip_5\\.2 \\{\nglobal:\n(    \\w+;\n)*    hipLaunchKernel_spt;");
    assertThat(map.split("local:\n    \\*;", -1)).hasSize(table.versionNodes().size() + 1);
  }

  @Test
  void headerCarriesTheTableHash() {
    assertThat(generator.header()).contains(String.format("#define HIPSIM_API_HASH 0x%016xULL", table.hash()))
        .contains("#define HIPSIM_API_COUNT 562").contains("#define HIPSIM_RETURNS_HIP_ERROR 0");
  }

  @Test
  void writesOnlyWhatChanged(@TempDir Path dir) throws Exception {
    generator.writeTo(dir);
    Map<String, String> files = generator.files();
    for (var e : files.entrySet()) assertThat(Files.readString(dir.resolve(e.getKey()))).isEqualTo(e.getValue());
    Path stubs = dir.resolve(NativeStubGenerator.STUBS);
    var before = Files.getLastModifiedTime(stubs);
    Files.setLastModifiedTime(stubs, java.nio.file.attribute.FileTime.fromMillis(before.toMillis() - 10_000));
    var aged = Files.getLastModifiedTime(stubs);
    generator.writeTo(dir);
    assertThat(Files.getLastModifiedTime(stubs)).isEqualTo(aged);
  }
}
