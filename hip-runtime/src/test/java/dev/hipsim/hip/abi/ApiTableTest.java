package dev.hipsim.hip.abi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ApiTableTest {
  private final ApiTable table = ApiTable.standard();

  @Test
  void holdsEveryDebianExportAndTheNewerNodes() {
    assertThat(table.functions()).hasSize(562);
    assertThat(table.versionNodes()).containsExactly("hip_4.2", "hip_4.3", "hip_4.4", "hip_4.5", "hip_5.0", "hip_5.1",
        "hip_5.2", "hip_5.3", "hip_5.5", "hip_5.6", "hip_6.0", "hip_6.1", "hip_6.2", "hip_6.3", "hip_6.4", "hip_6.5",
        "hip_7.1", "hip_7.2");
    for (int i = 0; i < table.functions().size(); i++) assertThat(table.function(i).id()).isEqualTo(i);
  }

  @Test
  void dim3TravelsInTwoSlotsAndTheStackArgumentsFollow() {
    ApiFunction f = table.find("hipLaunchKernel").orElseThrow();
    assertThat(f.versionNode()).isEqualTo("hip_4.2");
    assertThat(f.params()).extracting(Param::firstSlot).containsExactly(0, 1, 3, 5, 6, 7);
    assertThat(f.params().get(1).type().kind()).isEqualTo(AbiKind.STRUCT);
    assertThat(f.slotCount()).isEqualTo(8);
    assertThat(f.returnKind()).isEqualTo(ReturnKind.HIP_ERROR);
  }

  @Test
  void largeStructsArePassedByAddressAndStructResultsGetASlot() {
    ApiFunction memset3d = table.find("hipMemset3D").orElseThrow();
    assertThat(memset3d.prototype()).isEqualTo("hipError_t hipMemset3D(hipPitchedPtr pitchedDevPtr, int value, hipExtent extent)");
    assertThat(memset3d.params()).allSatisfy(p -> assertThat(p.slotCount()).isEqualTo(1));
    assertThat(memset3d.params().get(0).type().isPassedByAddress()).isTrue();
    ApiFunction channel = table.find("hipCreateChannelDesc").orElseThrow();
    assertThat(channel.returnKind()).isEqualTo(ReturnKind.STRUCT);
    assertThat(channel.slotCount()).isEqualTo(channel.parameterSlots() + 1);
    ApiFunction prefetch = table.find("hipMemPrefetchAsync_v2").orElseThrow();
    assertThat(prefetch.param("location").type().isPassedByAddress()).isFalse();
    assertThat(prefetch.param("location").slotCount()).isEqualTo(1);
  }

  @Test
  void returnKindsCoverTheApi() {
    assertThat(table.find("hipGetErrorString").orElseThrow().returnKind()).isEqualTo(ReturnKind.C_STRING);
    assertThat(table.find("__hipRegisterFatBinary").orElseThrow().returnKind()).isEqualTo(ReturnKind.VALUE);
    assertThat(table.find("__hipRegisterFunction").orElseThrow().returnKind()).isEqualTo(ReturnKind.VOID);
    assertThat(table.find("hiprtcCompileProgram").orElseThrow().returnKind()).isEqualTo(ReturnKind.HIPRTC_RESULT);
    assertThat(table.find("__gnu_h2f_ieee").orElseThrow().returnType().kind()).isEqualTo(AbiKind.F32);
  }

  @Test
  void cppExportsKeepTheirMangledNames() {
    assertThat(table.find("_ZN8hip_impl22hipLaunchKernelGGLImplEmRK4dim3S2_jP12ihipStream_tPPv")).isPresent();
    assertThat(table.find("hipExtModuleLaunchKernel")).isPresent();
  }

  /**
   * The runtime's table parses a function when it is first asked for: a malformed line is met then (and named), not
   * when the table is read; a program's runtime parses only the functions it registers and calls.
   */
  @Test
  void theRuntimesTableParsesEachFunctionWhenFirstAskedFor() throws Exception {
    byte[] types = "hipError_t\ti32\nint\ti32\n".getBytes(StandardCharsets.UTF_8);
    byte[] api = "hipInit\thip_4.2\thipError_t\tint flags\nhipBroken\thip_4.2\thipError_t\tfloat f\n"
        .getBytes(StandardCharsets.UTF_8);
    ApiTable lazy = ApiTable.indexed(api, types);
    assertThat(lazy.size()).isEqualTo(2);
    assertThat(lazy.symbol(1)).isEqualTo("hipBroken");
    assertThat(lazy.find("hipInit").orElseThrow().params()).extracting(Param::name).containsExactly("flags");
    assertThatThrownBy(() -> lazy.function(1)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("hip-api.tsv:2: unknown parameter type 'float'");
    assertThatThrownBy(() -> ApiTable.parse(api, types)).isInstanceOf(AbiFormatException.class);
  }

  /** The runtime's table and the whole parse the build makes agree on every function. */
  @Test
  void theRuntimesTableIsTheCheckedTable() throws Exception {
    ApiTable checked = ApiTable.standardChecked();
    assertThat(table.size()).isEqualTo(checked.size());
    for (int id = 0; id < checked.size(); id++) {
      assertThat(table.symbol(id)).isEqualTo(checked.function(id).symbol());
      assertThat(table.function(id)).isEqualTo(checked.function(id));
    }
    assertThat(table.hash()).isEqualTo(checked.hash());
  }

  @Test
  void hashDependsOnBothTables() throws Exception {
    byte[] api = "hipInit\thip_4.2\thipError_t\tunsigned int flags\n".getBytes(StandardCharsets.UTF_8);
    byte[] types = "hipError_t\ti32\nunsigned int\tu32\n".getBytes(StandardCharsets.UTF_8);
    byte[] types2 = "hipError_t\ti32\nunsigned int\tu32\n# comment\n".getBytes(StandardCharsets.UTF_8);
    Set<Long> hashes = new HashSet<>(List.of(ApiTable.parse(api, types).hash(), ApiTable.parse(api, types2).hash()));
    assertThat(hashes).hasSize(2);
    assertThat(ApiTable.parse(api, types).hash()).isEqualTo(ApiTable.parse(api, types).hash());
  }

  @Test
  void malformedTablesNameTheLine() {
    byte[] types = "hipError_t\ti32\nint\ti32\n".getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> ApiTable.parse("# c\nhipInit\thip_4.2\thipError_t\tfloat f\n".getBytes(StandardCharsets.UTF_8), types))
        .isInstanceOf(AbiFormatException.class).hasMessage("hip-api.tsv:2: unknown parameter type 'float'");
    assertThatThrownBy(() -> ApiTable.parse("hipInit\thip_4.2\thipError_t\n".getBytes(StandardCharsets.UTF_8), types))
        .isInstanceOf(AbiFormatException.class).hasMessageContaining("hip-api.tsv:1: expected 4");
    assertThatThrownBy(() -> ApiTable.parse("a\thip_4.2\tint\t\na\thip_4.3\tint\t\n".getBytes(StandardCharsets.UTF_8), types))
        .isInstanceOf(AbiFormatException.class).hasMessage("hip-api.tsv:2: a already listed at line 1");
    assertThatThrownBy(() -> ApiTable.parse("a\thip4\tint\t\n".getBytes(StandardCharsets.UTF_8), types))
        .isInstanceOf(AbiFormatException.class).hasMessageContaining("bad version node");
    assertThatThrownBy(() -> ApiTable.parse("a\thip_4.2\tint\tint\n".getBytes(StandardCharsets.UTF_8), types))
        .isInstanceOf(AbiFormatException.class).hasMessageContaining("needs a type and a name");
    assertThatThrownBy(() -> ApiTable.parse(new byte[0], "s\tstruct\t12\n".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(AbiFormatException.class).hasMessage("hip-types.tsv:1: a struct needs size and alignment");
    assertThatThrownBy(() -> ApiTable.parse(new byte[0], "s\tstruct\t12\t8\n".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(AbiFormatException.class).hasMessageContaining("hip-types.tsv:1: s: bad struct size 12");
  }
}
