package dev.hipsim.hip.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.hip.device.DeviceModel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Memory in all its HIP kinds (device, pinned, managed, registered), pointer attributes in the ROCm 5 and ROCm 6
 * encodings, 2D copies and fills, device reset and limits, streams, events and host callbacks — over a fake host
 * memory, with kernels reading host memory the GPU maps.
 */
class MemoryAndStreamApiTest {
  private static long mallocd(ApiRig rig, String fn, long size) {
    long out = rig.alloc(8);
    long result = fn.equals("hipHostMalloc") ? rig.call(fn, out, size, 0) : rig.call(fn, out, size);
    assertThat(result).as(fn).isZero();
    return rig.memory.readLong(out);
  }

  /** At the process's exit the runtime reports and stops, and leaves the device memory to the process's end. */
  @Test
  void exitLeavesTheMachinesMemoryAndShutdownFreesIt() throws Exception {
    try (ApiRig rig = new ApiRig(DeviceModel.MI210)) {
      long out = rig.alloc(8);
      assertThat(rig.call("hipMalloc", out, 1L << 20)).isZero();
      dev.hipsim.hsa.HsaRuntime hsa = rig.runtime.gpu().machine().hsa();
      int allocations = hsa.memory().allocationCount();
      rig.runtime.exit();
      assertThat(hsa.memory().allocationCount()).as("nothing freed one by one at exit").isEqualTo(allocations);
      rig.runtime.shutdown();
      assertThat(hsa.memory().allocationCount()).as("a runtime shut down frees its machine").isZero();
    }
  }

  @Test
  void managedPinnedAndRegisteredMemoryAreSharedWithKernels() throws Exception {
    try (ApiRig rig = new ApiRig(DeviceModel.MI210)) {
      long module = rig.registerFatBinary(ApiRig.corpus("gfx90a-v4/vector_add.co/0-gfx90a.hsaco"));
      long vadd = rig.registerFunction(module, "_Z4vaddPKfS0_Pfi");
      int n = 100;
      long out = rig.alloc(8);
      assertThat(rig.call("hipMallocManaged", out, 4L * n, MemoryApi.MEM_ATTACH_GLOBAL)).isZero();
      long a = rig.memory.readLong(out);
      long b = mallocd(rig, "hipHostMalloc", 4L * n);
      // Registered: a byte range of the program's own memory that does not start on a page.
      long own = rig.alloc(4L * n + 4096) + 12;
      assertThat(rig.call("hipHostRegister", own, 4L * n, 0)).isZero();
      assertThat(rig.call("hipHostRegister", own, 4L * n, 0)).isEqualTo(712);
      for (int i = 0; i < n; i++) {
        rig.memory.writeInt(a + 4L * i, Float.floatToRawIntBits(i));
        rig.memory.writeInt(b + 4L * i, Float.floatToRawIntBits(3 * i));
      }
      long devicePointer = rig.alloc(8);
      assertThat(rig.call("hipHostGetDevicePointer", devicePointer, own, 0)).isZero();
      assertThat(rig.memory.readLong(devicePointer)).isEqualTo(own);
      long args = rig.args(rig.value64(a), rig.value64(b), rig.value64(own), rig.value32(n));
      long[] one = ApiRig.dim3(1, 1, 1);
      long[] block = ApiRig.dim3(128, 1, 1);
      assertThat(rig.call("hipLaunchKernel", vadd, one[0], one[1], block[0], block[1], args, 0, 0)).isZero();
      for (int i = 0; i < n; i++) assertThat(rig.floatAt(own + 4L * i)).isEqualTo(4 * i);

      long flags = rig.alloc(4);
      assertThat(rig.call("hipHostGetFlags", flags, b)).isZero();
      assertThat(rig.call("hipMemAdvise", a, 4L * n, 1, 0)).isZero();
      assertThat(rig.call("hipMemPrefetchAsync", a, 4L * n, 0, 0)).isZero();
      assertThat(rig.call("hipHostUnregister", own)).isZero();
      assertThat(rig.call("hipHostUnregister", own)).isEqualTo(713);
      assertThat(rig.call("hipHostFree", b)).isZero();
      assertThat(rig.call("hipHostFree", a)).as("managed memory is not hipHostMalloc's").isEqualTo(1);
      assertThat(rig.call("hipFree", a)).isZero();
      assertThat(rig.lines).isEmpty();
    }
  }

  @Test
  void managedVariablesPointTheDeviceAtManagedMemory() throws Exception {
    try (ApiRig rig = new ApiRig(DeviceModel.MI210)) {
      // device_globals' `table` (int[256]) stands in for the pointer-typed device variable clang emits for a
      // __managed__ one; `scale` is an ordinary registered variable.
      long module = rig.registerFatBinary(ApiRig.corpus("gfx90a-v4/device_globals.co/0-gfx90a.hsaco"));
      long cell = rig.alloc(8);
      long init = rig.floats(1.5f, 2.5f, 3.5f, 4.5f);
      rig.call("__hipRegisterManagedVar", module, cell, init, rig.string("table"), 16L, 4);
      long managed = rig.memory.readLong(cell);
      assertThat(managed).isNotZero();
      assertThat(rig.floatAt(managed + 12)).isEqualTo(4.5f);
      long tableShadow = rig.alloc(8);
      long name = rig.string("table");
      rig.call("__hipRegisterVar", module, tableShadow, name, name, 0, 1024L, 0, 0);
      long back = rig.alloc(8);
      assertThat(rig.call("hipMemcpyFromSymbol", back, tableShadow, 8L, 0L, 2)).isZero();
      assertThat(rig.memory.readLong(back)).isEqualTo(managed);
      long attr = rig.alloc(32);
      assertThat(rig.call("hipPointerGetAttributes", attr, managed)).isZero();
      assertThat(rig.memory.readInt(attr + 24)).as("isManaged").isEqualTo(1);
      assertThat(rig.lines).isEmpty();
    }
  }

  @Test
  void pointerAttributesInBothEncodings() {
    for (int abi : new int[] {5, 6}) {
      try (ApiRig rig = new ApiRig(new RuntimeConfig(DeviceModel.MI210, false, abi))) {
        long device = mallocd(rig, "hipMalloc", 1000);
        long host = mallocd(rig, "hipHostMalloc", 1000);
        long managed = rig.alloc(8);
        assertThat(rig.call("hipMallocManaged", managed, 1000L, 1)).isZero();
        managed = rig.memory.readLong(managed);
        long attr = rig.alloc(32);
        // {type, device, devicePointer, hostPointer, isManaged, allocationFlags}
        assertThat(rig.call("hipPointerGetAttributes", attr, device + 10)).isZero();
        assertThat(rig.memory.readInt(attr)).isEqualTo(abi == 5 ? 1 : 2);
        assertThat(rig.memory.readLong(attr + 8)).isEqualTo(device + 10);
        assertThat(rig.memory.readLong(attr + 16)).isZero();
        assertThat(rig.call("hipPointerGetAttributes", attr, host)).isZero();
        assertThat(rig.memory.readInt(attr)).isEqualTo(abi == 5 ? 0 : 1);
        assertThat(rig.memory.readLong(attr + 16)).isEqualTo(host);
        assertThat(rig.call("hipPointerGetAttributes", attr, managed)).isZero();
        assertThat(rig.memory.readInt(attr)).isEqualTo(abi == 5 ? 4 : 3);
        assertThat(rig.memory.readInt(attr + 24)).isEqualTo(1);
        long unknown = rig.alloc(64);
        assertThat(rig.call("hipPointerGetAttributes", attr, unknown)).isEqualTo(abi == 5 ? 1 : 0);
        long v = rig.alloc(8);
        assertThat(rig.call("hipPointerGetAttribute", v, 12, device + 5)).isZero();
        assertThat(rig.memory.readLong(v)).isEqualTo(1000);
        assertThat(rig.call("hipPointerGetAttribute", v, 11, device + 5)).isZero();
        assertThat(rig.memory.readLong(v)).isEqualTo(device);
        long base = rig.alloc(8);
        long size = rig.alloc(8);
        assertThat(rig.call("hipMemGetAddressRange", base, size, device + 999)).isZero();
        assertThat(rig.memory.readLong(base)).isEqualTo(device);
        assertThat(rig.memory.readLong(size)).isEqualTo(1000);
        assertThat(rig.call("hipFree", device + 1)).isEqualTo(1);
      }
    }
  }

  @Test
  void twoDimensionalCopiesAndFills() {
    try (ApiRig rig = new ApiRig(DeviceModel.MI210)) {
      long pitchOut = rig.alloc(8);
      long out = rig.alloc(8);
      assertThat(rig.call("hipMallocPitch", out, pitchOut, 100L, 3L)).isZero();
      long d = rig.memory.readLong(out);
      long pitch = rig.memory.readLong(pitchOut);
      assertThat(pitch).isEqualTo(256);
      assertThat(rig.call("hipMemset2D", d, pitch, 0x5a, 100L, 3L)).isZero();
      long src = rig.alloc(3 * 40);
      for (int i = 0; i < 3 * 40; i++) rig.memory.write(src + i, new byte[] {(byte) i}, 0, 1);
      // Rows of 30 bytes from a 40-byte pitch into the 256-byte pitch.
      assertThat(rig.call("hipMemcpy2D", d, pitch, src, 40L, 30L, 3L, 1)).isZero();
      long back = rig.alloc(3 * 256);
      assertThat(rig.call("hipMemcpy", back, d, 3 * 256L, 2)).isZero();
      byte[] row = new byte[256];
      for (int r = 0; r < 3; r++) {
        rig.memory.read(back + 256L * r, row, 0, 256);
        for (int i = 0; i < 30; i++) assertThat(row[i]).isEqualTo((byte) (40 * r + i));
        for (int i = 30; i < 100; i++) assertThat(row[i]).isEqualTo((byte) 0x5a);
      }
      assertThat(rig.call("hipMemcpy2D", d, 10L, src, 40L, 30L, 3L, 1)).isEqualTo(12);
      long d32 = mallocd(rig, "hipMalloc", 64);
      assertThat(rig.call("hipMemsetD32", d32, 0xdeadbeefL, 16L)).isZero();
      assertThat(rig.call("hipMemsetD16Async", d32 + 2, 0x1234, 1L, 0)).isZero();
      long h = rig.alloc(8);
      assertThat(rig.call("hipMemcpyDtoH", h, d32, 8L)).isZero();
      assertThat(rig.memory.readInt(h)).isEqualTo(0x1234beef);
      assertThat(rig.memory.readInt(h + 4)).isEqualTo(0xdeadbeef);
    }
  }

  @Test
  void resetReleasesMemoryStreamsAndEvents() {
    try (ApiRig rig = new ApiRig(DeviceModel.MI210)) {
      long free = rig.alloc(8);
      long total = rig.alloc(8);
      assertThat(rig.call("hipMemGetInfo", free, total)).isZero();
      long before = rig.memory.readLong(free);
      long d = mallocd(rig, "hipMalloc", 64L << 20);
      mallocd(rig, "hipHostMalloc", 1 << 20);
      long stream = rig.alloc(8);
      assertThat(rig.call("hipStreamCreate", stream)).isZero();
      assertThat(rig.call("hipMemGetInfo", free, total)).isZero();
      assertThat(rig.memory.readLong(free)).isLessThanOrEqualTo(before);
      assertThat(rig.call("hipDeviceReset")).isZero();
      assertThat(rig.call("hipStreamSynchronize", rig.memory.readLong(stream))).isEqualTo(400);
      assertThat(rig.call("hipFree", d)).isEqualTo(1);
      assertThat(rig.call("hipMemGetInfo", free, total)).isZero();
      assertThat(rig.memory.readLong(free)).isEqualTo(before);
      assertThat(mallocd(rig, "hipMalloc", 4096)).isNotZero();
    }
  }

  @Test
  void streamsEventsAndHostCallbacks() {
    try (ApiRig rig = new ApiRig(DeviceModel.MI210)) {
      long s = rig.alloc(8);
      assertThat(rig.call("hipStreamCreateWithPriority", s, SyncApi.NON_BLOCKING, -5)).isZero();
      long stream = rig.memory.readLong(s);
      long v = rig.alloc(4);
      assertThat(rig.call("hipStreamGetFlags", stream, v)).isZero();
      assertThat(rig.memory.readInt(v)).isEqualTo(1);
      assertThat(rig.call("hipStreamGetPriority", stream, v)).isZero();
      assertThat(rig.memory.readInt(v)).isEqualTo(-1);
      long least = rig.alloc(4);
      assertThat(rig.call("hipDeviceGetStreamPriorityRange", least, v)).isZero();
      assertThat(rig.memory.readInt(least)).isZero();
      assertThat(rig.memory.readInt(v)).isEqualTo(-1);
      assertThat(rig.call("hipStreamCreateWithFlags", s, 4)).isEqualTo(1);

      List<String> calls = new ArrayList<>();
      long callback = rig.memory.function((a0, a1, a2) -> calls.add("callback " + (a0 == stream) + " " + a1 + " " + a2));
      long hostFn = rig.memory.function((a0, a1, a2) -> calls.add("host " + a0));
      assertThat(rig.call("hipStreamAddCallback", stream, callback, 77, 0)).isZero();
      assertThat(rig.call("hipLaunchHostFunc", stream, hostFn, 99)).isZero();
      assertThat(rig.call("hipStreamAddCallback", stream, callback, 77, 1)).isEqualTo(1);
      assertThat(calls).containsExactly("callback true 0 77", "host 99");

      long e1 = rig.alloc(8);
      long e2 = rig.alloc(8);
      assertThat(rig.call("hipEventCreateWithFlags", e1, EventTable.DISABLE_TIMING)).isZero();
      assertThat(rig.call("hipEventCreate", e2)).isZero();
      long ms = rig.alloc(4);
      assertThat(rig.call("hipEventElapsedTime", ms, rig.memory.readLong(e2), rig.memory.readLong(e2)))
          .as("never recorded").isEqualTo(400);
      assertThat(rig.call("hipEventRecord", rig.memory.readLong(e1), stream)).isZero();
      assertThat(rig.call("hipEventRecord", rig.memory.readLong(e2), 0)).isZero();
      assertThat(rig.call("hipEventElapsedTime", ms, rig.memory.readLong(e1), rig.memory.readLong(e2)))
          .as("timing disabled").isEqualTo(400);
      assertThat(rig.call("hipStreamWaitEvent", stream, rig.memory.readLong(e2), 0)).isZero();
      assertThat(rig.call("hipEventQuery", rig.memory.readLong(e2))).isZero();
      assertThat(rig.call("hipStreamQuery", stream)).isZero();
      assertThat(rig.call("hipStreamDestroy", stream)).isZero();
      assertThat(rig.call("hipStreamDestroy", stream)).isEqualTo(400);
      assertThat(rig.call("hipStreamDestroy", 0)).isEqualTo(400);
      assertThat(rig.call("hipEventDestroy", rig.memory.readLong(e1))).isZero();
      // The per-thread-stream forms behave as the plain ones.
      assertThat(rig.call("hipStreamSynchronize_spt", 0)).isZero();
    }
  }

  @Test
  void deviceLimitsPciIdsAndTheMi300a() {
    try (ApiRig rig = new ApiRig(DeviceModel.MI300A)) {
      long v = rig.alloc(8);
      assertThat(rig.call("hipDeviceGetLimit", v, DeviceApi.LIMIT_STACK_SIZE)).isZero();
      assertThat(rig.memory.readLong(v)).isEqualTo(1024);
      assertThat(rig.call("hipDeviceSetLimit", DeviceApi.LIMIT_MALLOC_HEAP_SIZE, 1L << 30)).isZero();
      assertThat(rig.call("hipDeviceGetLimit", v, DeviceApi.LIMIT_MALLOC_HEAP_SIZE)).isZero();
      assertThat(rig.memory.readLong(v)).isEqualTo(1L << 30);
      assertThat(rig.call("hipDeviceGetLimit", v, 7)).isEqualTo(215);
      long id = rig.alloc(32);
      assertThat(rig.call("hipDeviceGetPCIBusId", id, 32, 0)).isZero();
      assertThat(rig.memory.readString(id, 32)).isEqualTo("0000:02:00.0");
      assertThat(rig.call("hipDeviceGetByPCIBusId", v, rig.string("0000:02:00.0"))).isZero();
      assertThat(rig.memory.readInt(v)).isZero();
      assertThat(rig.call("hipDeviceGetByPCIBusId", v, rig.string("0000:03:00.0"))).isEqualTo(101);
      long p = rig.alloc(1472);
      assertThat(rig.call("hipGetDevicePropertiesR0600", p, 0)).isZero();
      byte[] name = new byte[19];
      rig.memory.read(p, name, 0, 19);
      assertThat(new String(name, StandardCharsets.US_ASCII)).isEqualTo("AMD Instinct MI300A");
      assertThat(rig.memory.readString(p + 1160, 64)).isEqualTo("gfx940:sramecc+:xnack-");
      assertThat(rig.memory.readInt(p + 388)).isEqualTo(228);
      assertThat(rig.call("hipDeviceCanAccessPeer", v, 0, 0)).isZero();
      assertThat(rig.memory.readInt(v)).isZero();
      assertThat(rig.call("hipDeviceEnablePeerAccess", 0, 0)).isEqualTo(101);
    }
  }
}
