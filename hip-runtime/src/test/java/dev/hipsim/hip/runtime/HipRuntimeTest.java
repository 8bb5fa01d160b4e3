package dev.hipsim.hip.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.hip.abi.ApiTable;
import dev.hipsim.hip.api.Dispatcher;
import dev.hipsim.hip.api.FakeHostMemory;
import dev.hipsim.hip.device.DeviceModel;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The implemented API, driven as the C stubs drive it (function id + slots) over a fake host memory. */
class HipRuntimeTest {
  private final ApiTable table = ApiTable.standard();
  private final FakeHostMemory memory = new FakeHostMemory(1 << 16);
  private final List<String> lines = new ArrayList<>();

  private Dispatcher start(DeviceModel device) {
    return HipRuntime.start(table, new RuntimeConfig(device, false), memory, lines::add).dispatcher();
  }

  private static long call(Dispatcher d, String symbol, long... slots) {
    return d.dispatch(ApiTable.standard().find(symbol).orElseThrow().id(), slots);
  }

  private static String cString(ByteBuffer b, int offset) {
    int end = offset;
    while (b.get(end) != 0) end++;
    byte[] s = new byte[end - offset];
    b.get(offset, s);
    return new String(s, StandardCharsets.UTF_8);
  }

  /** Functions are registered by name and made at their first call: every one registered has an implementation. */
  @Test
  void everyRegisteredFunctionIsMadeByItsProvider() {
    HipRuntime rt = HipRuntime.start(table, new RuntimeConfig(DeviceModel.MI210, false), memory, lines::add);
    rt.registry().makeAll();
    assertThat(rt.registry().implemented()).hasSizeGreaterThan(150);
  }

  @Test
  void aRegistrationWithoutItsImplementationIsNamed() {
    dev.hipsim.hip.api.ApiRegistry registry = new dev.hipsim.hip.api.ApiRegistry(table);
    dev.hipsim.hip.api.ApiProvider forgetful = api -> api.hipErrorFrom("hipDeviceSynchronize", api2 -> { });
    forgetful.register(registry);
    assertThatThrownBy(registry::makeAll).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("hipDeviceSynchronize").hasMessageContaining("makes no implementation");
  }

  @Test
  void deviceCountVersionAndSelection() {
    Dispatcher d = start(DeviceModel.MI210);
    long out = memory.allocate(8, 8);
    assertThat(call(d, "hipGetDeviceCount", out)).isZero();
    assertThat(memory.readInt(out)).isEqualTo(1);
    assertThat(call(d, "hipGetDeviceCount", 0)).isEqualTo(1);
    assertThat(call(d, "hipRuntimeGetVersion", out)).isZero();
    assertThat(memory.readInt(out)).isEqualTo(60342134);
    assertThat(call(d, "hipDriverGetVersion", out)).isZero();
    assertThat(memory.readInt(out)).isEqualTo(60342134);
    assertThat(call(d, "hipSetDevice", 1)).isEqualTo(101);
    assertThat(call(d, "hipGetLastError")).isEqualTo(101);
    assertThat(call(d, "hipGetLastError")).isZero();
    assertThat(call(d, "hipGetDevice", out)).isZero();
    assertThat(memory.readInt(out)).isZero();
    assertThat(call(d, "hipInit", 0)).isZero();
    assertThat(call(d, "hipInit", 1)).isEqualTo(1);
    assertThat(lines).isEmpty();
  }

  @Test
  void lastErrorIsPerThread() throws Exception {
    Dispatcher d = start(DeviceModel.MI210);
    assertThat(call(d, "hipSetDevice", 5)).isEqualTo(101);
    AtomicInteger seen = new AtomicInteger(-1);
    Thread t = new Thread(() -> seen.set((int) call(d, "hipPeekAtLastError")));
    t.start();
    t.join();
    assertThat(seen).hasValue(0);
    assertThat(call(d, "hipPeekAtLastError")).isEqualTo(101);
    assertThat(call(d, "hipExtGetLastError")).isEqualTo(101);
    assertThat(call(d, "hipPeekAtLastError")).isZero();
  }

  @Test
  void errorNamesComeBackAsCStrings() {
    Dispatcher d = start(DeviceModel.MI210);
    assertThat(memory.readString(call(d, "hipGetErrorName", 801), 100)).isEqualTo("hipErrorNotSupported");
    assertThat(memory.readString(call(d, "hipGetErrorString", 1), 100)).isEqualTo("invalid argument");
    long out = memory.allocate(8, 8);
    assertThat(call(d, "hipDrvGetErrorString", 700, out)).isZero();
    assertThat(memory.readString(memory.readLong(out), 100)).isEqualTo("an illegal memory access was encountered");
    assertThat(call(d, "hipDrvGetErrorName", 4242, out)).isEqualTo(1);
    assertThat(call(d, "hipDrvGetErrorName", 999, out)).isZero();
    assertThat(call(d, "hipDrvGetErrorName", 1, 0)).isEqualTo(1);
  }

  @Test
  void propertiesR0000AtTheRocm5Offsets() {
    Dispatcher d = start(DeviceModel.MI210);
    long p = memory.allocate(792, 8);
    memory.fill(p, 0x77, 792);
    assertThat(call(d, "hipGetDeviceProperties", p, 0)).isZero();
    ByteBuffer b = memory.map(p, 792);
    assertThat(cString(b, 0)).isEqualTo("AMD Instinct MI210");
    assertThat(b.getLong(256)).isEqualTo(68_702_699_520L); // totalGlobalMem
    assertThat(b.getLong(264)).isEqualTo(65_536); // sharedMemPerBlock
    assertThat(b.getInt(276)).isEqualTo(64); // warpSize
    assertThat(b.getInt(280)).isEqualTo(1024); // maxThreadsPerBlock
    assertThat(b.getInt(308)).isEqualTo(1_700_000); // clockRate
    assertThat(b.getInt(336)).isEqualTo(104); // multiProcessorCount
    assertThat(b.getInt(356)).isEqualTo(0x97ff); // arch
    assertThat(b.getInt(392)).isEqualTo(910); // gcnArch
    assertThat(cString(b, 396)).isEqualTo("gfx90a:sramecc+:xnack-");
    assertThat(b.getInt(768)).isEqualTo(1); // asicRevision
    assertThat(b.getInt(788)).isZero(); // pageableMemoryAccessUsesHostPageTables, last field
    assertThat(call(d, "hipGetDeviceProperties", p, 1)).isEqualTo(101);
    assertThat(call(d, "hipGetDeviceProperties", 0, 0)).isEqualTo(1);
  }

  @Test
  void propertiesR0600AtTheRocm6Offsets() {
    Dispatcher d = start(DeviceModel.MI300X);
    long p = memory.allocate(1472, 8);
    assertThat(call(d, "hipGetDevicePropertiesR0600", p, 0)).isZero();
    ByteBuffer b = memory.map(p, 1472);
    assertThat(cString(b, 0)).isEqualTo("AMD Instinct MI300X");
    byte[] uuid = new byte[16];
    b.get(256, uuid);
    assertThat(new String(uuid, StandardCharsets.US_ASCII)).isEqualTo("8af705259683161c");
    assertThat(b.getLong(288)).isEqualTo(206_141_652_992L); // totalGlobalMem
    assertThat(b.getInt(388)).isEqualTo(304); // multiProcessorCount
    assertThat(cString(b, 1160)).isEqualTo("gfx942:sramecc+:xnack-");
    assertThat(b.getInt(1428)).isEqualTo(0x97ff); // arch
    assertThat(b.getInt(1468)).isEqualTo(1); // asicRevision, last field
  }

  @Test
  void attributesAndSmallQueries() {
    Dispatcher d = start(DeviceModel.MI300X);
    long out = memory.allocate(64, 8);
    assertThat(call(d, "hipDeviceGetAttribute", out, 63, 0)).isZero();
    assertThat(memory.readInt(out)).isEqualTo(304);
    assertThat(call(d, "hipDeviceGetAttribute", out, 10005, 0)).isZero();
    assertThat(memory.readLong(out)).isZero();
    assertThat(call(d, "hipDeviceGetAttribute", out, 55, 0)).isEqualTo(1);
    assertThat(call(d, "hipDeviceGetAttribute", out, 63, 1)).isEqualTo(101);
    assertThat(call(d, "hipDeviceGetName", out, 12, 0)).isZero();
    assertThat(memory.readString(out, 64)).isEqualTo("AMD Instinc");
    assertThat(call(d, "hipDeviceTotalMem", out, 0)).isZero();
    assertThat(memory.readLong(out)).isEqualTo(206_141_652_992L);
    assertThat(call(d, "hipDeviceComputeCapability", out, out + 4, 0)).isZero();
    assertThat(memory.readInt(out)).isEqualTo(9);
    assertThat(memory.readInt(out + 4)).isEqualTo(4);
    assertThat(call(d, "hipDeviceGet", out, 0)).isZero();
    assertThat(call(d, "hipDeviceGet", out, 2)).isEqualTo(101);
    assertThat(call(d, "hipDeviceGetUuid", out, 0)).isZero();
    assertThat(memory.readString(out, 16)).isEqualTo("8af705259683161c");
  }

  @Test
  void configurationComesFromTheEnvironment() {
    // The test JVM's own executable has no device code: the default device.
    assertThat(RuntimeConfig.fromEnvironment(Map.of()).device()).isSameAs(DeviceModel.MI210);
    // Without HIPSIM_DEVICE the program's code decides; a named device wins without looking at it.
    assertThat(RuntimeConfig.fromEnvironment(Map.of("HIPSIM_DEVICE", " "), () -> Optional.of(DeviceModel.MI300A))
        .device()).isSameAs(DeviceModel.MI300A);
    assertThat(RuntimeConfig.fromEnvironment(Map.of("HIPSIM_DEVICE", "gfx90a"), () -> {
      throw new AssertionError("the program is not read when a device is named");
    }).device()).isSameAs(DeviceModel.MI210);
    assertThat(RuntimeConfig.fromEnvironment(Map.of("HIPSIM_DEVICE", "gfx942", "HIPSIM_STATS", "1")))
        .isEqualTo(new RuntimeConfig(DeviceModel.MI300X, true));
    assertThatThrownBy(() -> RuntimeConfig.fromEnvironment(Map.of("HIPSIM_DEVICE", "gfx908")))
        .hasMessage("HIPSIM_DEVICE: unknown device 'gfx908' (expected gfx90a, gfx940 or gfx942)");
  }
}
