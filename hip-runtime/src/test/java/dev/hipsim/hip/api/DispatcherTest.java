package dev.hipsim.hip.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.hip.abi.ApiFunction;
import dev.hipsim.hip.abi.ApiTable;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DispatcherTest {
  private final ApiTable table = ApiTable.standard();
  private final FakeHostMemory memory = new FakeHostMemory(1 << 16);
  private final List<String> lines = new ArrayList<>();
  private final LastError lastError = new LastError();
  private final ApiRegistry registry = new ApiRegistry(table);

  private Dispatcher dispatcher() {
    return registry.dispatcher(memory, lines::add, lastError);
  }

  private long call(Dispatcher d, String symbol, long... slots) {
    ApiFunction f = table.find(symbol).orElseThrow();
    return d.dispatch(f.id(), slots);
  }

  @Test
  void unsupportedFunctionsReturnNotSupportedAndSaySoOnce() {
    Dispatcher d = dispatcher();
    assertThat(call(d, "hipMalloc", 0, 16)).isEqualTo(801);
    assertThat(call(d, "hipMalloc", 0, 16)).isEqualTo(801);
    assertThat(call(d, "hipFree", 0)).isEqualTo(801);
    assertThat(lines).containsExactly(
        "hipsim: hipMalloc is not supported (returning hipErrorNotSupported)",
        "hipsim: hipFree is not supported (returning hipErrorNotSupported)");
    assertThat(lastError.peek()).isEqualTo(801);
    assertThat(call(d, "__hipRegisterFunction", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)).isZero();
    assertThat(call(d, "__hipRegisterFatBinary", 0)).isZero();
    assertThat(call(d, "hiprtcVersion", 0, 0)).isEqualTo(11);
    assertThat(lines.subList(2, lines.size())).containsExactly(
        "hipsim: __hipRegisterFunction is not supported (call ignored)",
        "hipsim: __hipRegisterFatBinary is not supported (returning 0)",
        "hipsim: hiprtcVersion is not supported (returning HIPRTC_ERROR_INTERNAL_ERROR)");
  }

  @Test
  void exceptionsBecomeErrorCodesAndOneLine() {
    registry.hipError("hipMalloc", a -> {
      throw new IllegalStateException("boom\nsecond line");
    });
    registry.hipError("hipFree", a -> {
      throw new HipException(HipError.INVALID_DEVICE_POINTER, "not ours");
    });
    registry.value("__hipRegisterFatBinary", a -> {
      throw new StackOverflowError();
    });
    Dispatcher d = dispatcher();
    assertThat(call(d, "hipMalloc", 0, 16)).isEqualTo(999);
    assertThat(lastError.peek()).isEqualTo(999);
    assertThat(call(d, "hipFree", 0)).isEqualTo(17);
    assertThat(lastError.peek()).isEqualTo(17);
    assertThat(call(d, "__hipRegisterFatBinary", 0)).isZero();
    assertThat(lines).containsExactly(
        "hipsim: internal error in hipMalloc: java.lang.IllegalStateException: boom (returning hipErrorUnknown)",
        "hipsim: internal error in __hipRegisterFatBinary: java.lang.StackOverflowError (returning 0)");
  }

  @Test
  void hipErrorResultsBecomeTheLastErrorUnlessTheFunctionIsAQuery() {
    registry.hipError("hipSetDevice", a -> a.i32(0) == 0 ? HipError.SUCCESS : HipError.INVALID_DEVICE);
    registry.hipErrorQuery("hipPeekAtLastError", a -> HipError.forCode(lastError.peek()));
    Dispatcher d = dispatcher();
    assertThat(call(d, "hipSetDevice", 3)).isEqualTo(101);
    assertThat(call(d, "hipPeekAtLastError")).isEqualTo(101);
    assertThat(call(d, "hipSetDevice", 0)).isZero();
    assertThat(call(d, "hipPeekAtLastError")).isZero();
  }

  @Test
  void stringsAreInternedInHostMemory() {
    registry.string("hipGetErrorName", a -> "name-" + a.i32(0));
    Dispatcher d = dispatcher();
    long p = call(d, "hipGetErrorName", 5);
    assertThat(memory.readString(p, 100)).isEqualTo("name-5");
    assertThat(call(d, "hipGetErrorName", 5)).isEqualTo(p);
  }

  @Test
  void registrationChecksSymbolsAndShapes() {
    assertThatThrownBy(() -> registry.hipError("hipNoSuchThing", a -> HipError.SUCCESS))
        .hasMessage("hipNoSuchThing is not exported by libamdhip64 (not in hip-api.tsv)");
    assertThatThrownBy(() -> registry.hipError("hipGetErrorName", a -> HipError.SUCCESS))
        .hasMessageContaining("returns const char*");
    assertThatThrownBy(() -> registry.value("hipMalloc", a -> 0)).hasMessageContaining("register it with hipError");
    registry.hipError("hipMalloc", a -> HipError.SUCCESS);
    assertThatThrownBy(() -> registry.hipError("hipMalloc", a -> HipError.SUCCESS)).hasMessage("hipMalloc is registered twice");
    assertThatThrownBy(() -> registry.alias("hipFree", "hipMalloc")).hasMessageContaining("different signatures");
    assertThatThrownBy(() -> registry.alias("hipMemcpy_spt", "hipMemcpy")).hasMessageContaining("must be registered before");
  }

  @Test
  void aliasesShareTheImplementation() {
    registry.hipError("hipLaunchKernel", a -> a.dim3(1).x() == 7 ? HipError.SUCCESS : HipError.INVALID_VALUE);
    registry.alias("hipLaunchKernel_spt", "hipLaunchKernel");
    assertThat(registry.implemented()).extracting(ApiFunction::symbol).containsExactly("hipLaunchKernel", "hipLaunchKernel_spt");
    Dispatcher d = dispatcher();
    assertThat(call(d, "hipLaunchKernel_spt", 0, 7 | (1L << 32), 1, 1 | (1L << 32), 1, 0, 0, 0)).isZero();
  }

  @Test
  void argumentKindsAreChecked() {
    registry.hipError("hipMalloc", a -> {
      a.i32(0); // a void** read as an int: an implementation bug
      return HipError.SUCCESS;
    });
    Dispatcher d = dispatcher();
    assertThat(call(d, "hipMalloc", 0, 16)).isEqualTo(999);
    assertThat(lines.get(0)).contains("hipMalloc parameter #0 (void** ptr) is not [I32, U32]");
  }

  @Test
  void wrongSlotCountsAndUnknownIdsAreInternalErrors() {
    Dispatcher d = dispatcher();
    registry.hipError("hipMalloc", a -> HipError.SUCCESS);
    Dispatcher d2 = dispatcher();
    assertThat(call(d2, "hipMalloc", 1)).isEqualTo(999);
    assertThat(d.dispatch(100_000, new long[0])).isEqualTo(999);
    assertThat(lines).hasSize(2);
    assertThat(lines.get(1)).contains("unknown function id 100000");
  }
}
