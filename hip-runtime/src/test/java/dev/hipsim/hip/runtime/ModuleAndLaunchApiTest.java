package dev.hipsim.hip.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.hip.device.DeviceModel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The module API and the launch forms, running corpus kernels on the simulated MI210: module_api's code-object
 * bundle (scaleArray, fillValue, moduleCounter) and vector_add's kernel registered as hipcc's constructor does.
 */
class ModuleAndLaunchApiTest {
  private final ApiRig rig = new ApiRig(DeviceModel.MI210);

  @AfterEach
  void close() {
    rig.close();
  }

  private long deviceFloats(float... v) {
    long out = rig.alloc(8);
    assertThat(rig.call("hipMalloc", out, 4L * v.length)).isZero();
    long d = rig.memory.readLong(out);
    assertThat(rig.call("hipMemcpy", d, rig.floats(v), 4L * v.length, 1)).isZero();
    return d;
  }

  private float[] readFloats(long device, int n) {
    long host = rig.alloc(4L * n);
    assertThat(rig.call("hipMemcpy", host, device, 4L * n, 2)).isZero();
    float[] out = new float[n];
    for (int i = 0; i < n; i++) out[i] = rig.floatAt(host + 4L * i);
    return out;
  }

  @Test
  void loadsModulesFromFilesAndMemoryAndLaunchesTheirKernels() throws Exception {
    Path file = ApiRig.corpus("gfx90a-v4/module_kernels.co");
    long module = rig.alloc(8);
    assertThat(rig.call("hipModuleLoad", module, rig.string(file.toString()))).isZero();
    long m = rig.memory.readLong(module);
    long fn = rig.alloc(8);
    assertThat(rig.call("hipModuleGetFunction", fn, m, rig.string("noSuchKernel"))).isEqualTo(500);
    assertThat(rig.call("hipModuleGetFunction", fn, m, rig.string("scaleArray"))).isZero();
    long scale = rig.memory.readLong(fn);
    long count = rig.alloc(4);
    assertThat(rig.call("hipModuleGetFunctionCount", count, m)).isZero();
    assertThat(rig.memory.readInt(count)).isEqualTo(2);

    // kernelParams: scaleArray(float* data, int n, float offset) over 300 elements, blocks of 128.
    int n = 300;
    float[] init = new float[n];
    for (int i = 0; i < n; i++) init[i] = i;
    long d = deviceFloats(init);
    long params = rig.args(rig.value64(d), rig.value32(n), rig.value32(Float.floatToRawIntBits(2.0f)));
    assertThat(rig.call("hipModuleLaunchKernel", scale, 3, 1, 1, 128, 1, 1, 0, 0, params, 0)).isZero();
    float[] out = readFloats(d, n);
    for (int i = 0; i < n; i++) assertThat(out[i]).isEqualTo(i * 1.5f + 2.0f);

    // The same bundle from memory, launched with a packed `extra` buffer: fillValue(int* data, int n, int value).
    long module2 = rig.alloc(8);
    assertThat(rig.call("hipModuleLoadData", module2, rig.bytes(Files.readAllBytes(file)))).isZero();
    long m2 = rig.memory.readLong(module2);
    assertThat(rig.call("hipModuleGetFunction", fn, m2, rig.string("fillValue"))).isZero();
    long fill = rig.memory.readLong(fn);
    long di = deviceFloats(new float[n]);
    long packed = rig.alloc(16);
    rig.memory.writeLong(packed, di);
    rig.memory.writeInt(packed + 8, n);
    rig.memory.writeInt(packed + 12, 40);
    long extra = rig.args(1, packed, 2, rig.value64(16), 3);
    assertThat(rig.call("hipModuleLaunchKernel", fill, 5, 1, 1, 64, 1, 1, 0, 0, 0, extra)).isZero();
    long ints = rig.alloc(4L * n);
    assertThat(rig.call("hipMemcpy", ints, di, 4L * n, 2)).isZero();
    for (int i = 0; i < n; i++) assertThat(rig.memory.readInt(ints + 4L * i)).isEqualTo(40 + i);
    // An `extra` array without its buffer is refused.
    assertThat(rig.call("hipModuleLaunchKernel", fill, 5, 1, 1, 64, 1, 1, 0, 0, 0, rig.args(3))).isEqualTo(1);

    // Globals: scaleArray counted itself once in moduleCounter.
    long ptr = rig.alloc(8);
    long size = rig.alloc(8);
    assertThat(rig.call("hipModuleGetGlobal", ptr, size, m, rig.string("moduleCounter"))).isZero();
    assertThat(rig.memory.readLong(size)).isEqualTo(4);
    long counter = rig.alloc(4);
    assertThat(rig.call("hipMemcpy", counter, rig.memory.readLong(ptr), 4L, 2)).isZero();
    assertThat(rig.memory.readInt(counter)).isEqualTo(1);
    assertThat(rig.call("hipModuleGetGlobal", ptr, size, m, rig.string("nothing"))).isEqualTo(500);

    // Function attributes of a hipFunction_t.
    long value = rig.alloc(4);
    assertThat(rig.call("hipFuncGetAttribute", value, LaunchApi.ATTR_MAX_THREADS_PER_BLOCK, scale)).isZero();
    assertThat(rig.memory.readInt(value)).isEqualTo(1024);
    assertThat(rig.call("hipFuncGetAttribute", value, LaunchApi.ATTR_BINARY_VERSION, scale)).isZero();
    assertThat(rig.memory.readInt(value)).isEqualTo(90);
    assertThat(rig.call("hipFuncGetAttribute", value, 99, scale)).isEqualTo(1);

    // Unloading: the handles go with the module.
    assertThat(rig.call("hipModuleUnload", m2)).isZero();
    assertThat(rig.call("hipModuleLaunchKernel", fill, 5, 1, 1, 64, 1, 1, 0, 0, 0, extra)).isEqualTo(400);
    assertThat(rig.call("hipModuleUnload", m2)).isEqualTo(400);
    assertThat(rig.call("hipModuleUnload", m)).isZero();
    assertThat(rig.call("hipModuleLoad", module, rig.string("/no/such/file.co"))).isEqualTo(301);
    assertThat(rig.lines).isEmpty();
  }

  @Test
  void aModuleWithoutCodeForTheDeviceIsRefusedAtLoad() {
    long module = rig.alloc(8);
    assertThat(rig.call("hipModuleLoad", module, rig.string(ApiRig.corpus("gfx940-v5/module_kernels.co")
        .toString()))).isEqualTo(209);
    assertThat(rig.fatal).isEmpty();
  }

  @Test
  void launchesRegisteredKernelsInEveryForm() throws Exception {
    long module = rig.registerFatBinary(ApiRig.corpus("gfx90a-v4/vector_add.co/0-gfx90a.hsaco"));
    long vadd = rig.registerFunction(module, "_Z4vaddPKfS0_Pfi");
    int n = 200;
    float[] a = new float[n];
    float[] b = new float[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
      b[i] = 1000 - 2 * i;
    }
    long da = deviceFloats(a);
    long db = deviceFloats(b);
    long dc = deviceFloats(new float[n]);
    long args = rig.args(rig.value64(da), rig.value64(db), rig.value64(dc), rig.value32(n));
    long[] grid = ApiRig.dim3(1, 1, 1);
    long[] block = ApiRig.dim3(256, 1, 1);

    // <<<>>>: push, pop, hipLaunchKernel.
    assertThat(rig.call("__hipPushCallConfiguration", grid[0], grid[1], block[0], block[1], 0, 0)).isZero();
    long g = rig.alloc(12);
    long bl = rig.alloc(12);
    long shared = rig.alloc(8);
    long stream = rig.alloc(8);
    assertThat(rig.call("__hipPopCallConfiguration", g, bl, shared, stream)).isZero();
    assertThat(rig.memory.readInt(bl)).isEqualTo(256);
    assertThat(rig.call("__hipPopCallConfiguration", g, bl, shared, stream)).isEqualTo(52);
    assertThat(rig.call("hipLaunchKernel", vadd, grid[0], grid[1], block[0], block[1], args, 0, 0)).isZero();
    float[] c = readFloats(dc, n);
    for (int i = 0; i < n; i++) assertThat(c[i]).isEqualTo(1000 - i);

    // Cooperative and extended launches; events around the latter.
    assertThat(rig.call("hipMemset", dc, 0, 4L * n)).isZero();
    assertThat(rig.call("hipLaunchCooperativeKernel", vadd, grid[0], grid[1], block[0], block[1], args, 0, 0))
        .isZero();
    assertThat(readFloats(dc, n)[7]).isEqualTo(993);
    long start = rig.alloc(8);
    long stop = rig.alloc(8);
    assertThat(rig.call("hipEventCreate", start)).isZero();
    assertThat(rig.call("hipEventCreate", stop)).isZero();
    assertThat(rig.call("hipExtLaunchKernel", vadd, grid[0], grid[1], block[0], block[1], args, 0, 0,
        rig.memory.readLong(start), rig.memory.readLong(stop), 0)).isZero();
    long ms = rig.alloc(4);
    assertThat(rig.call("hipEventElapsedTime", ms, rig.memory.readLong(start), rig.memory.readLong(stop))).isZero();
    assertThat(Float.intBitsToFloat(rig.memory.readInt(ms))).isPositive();

    // Errors CLR reports: an unknown stream, a bad configuration, too much LDS, a host function, a null argument.
    assertThat(rig.call("hipLaunchKernel", vadd, grid[0], grid[1], block[0], block[1], args, 0, 0x1234))
        .isEqualTo(400);
    long[] huge = ApiRig.dim3(2048, 1, 1);
    assertThat(rig.call("hipLaunchKernel", vadd, grid[0], grid[1], huge[0], huge[1], args, 0, 0)).isEqualTo(9);
    assertThat(rig.call("hipLaunchKernel", vadd, grid[0], grid[1], block[0], block[1], args, 70000, 0))
        .isEqualTo(1);
    assertThat(rig.call("hipLaunchKernel", rig.alloc(8), grid[0], grid[1], block[0], block[1], args, 0, 0))
        .isEqualTo(98);
    assertThat(rig.call("hipLaunchKernel", vadd, grid[0], grid[1], block[0], block[1],
        rig.args(rig.value64(da), 0, rig.value64(dc), rig.value32(n)), 0, 0)).isEqualTo(1);
    // A cooperative grid larger than what can be resident at once.
    long[] many = ApiRig.dim3(100_000, 1, 1);
    assertThat(rig.call("hipLaunchCooperativeKernel", vadd, many[0], many[1], block[0], block[1], args, 0, 0))
        .isEqualTo(720);
    assertThat(rig.lines).isEmpty();
  }

  @Test
  void aCooperativeGridLargerThanTheUsualResidencySynchronises() throws Exception {
    // cooperative_groups' twoPhase(in, partial, out, n): grid.sync() twice; 64 blocks must all be resident at once,
    // far more than a worker keeps in flight for ordinary launches.
    long module = rig.registerFatBinary(ApiRig.corpus("gfx90a-v4/cooperative_groups.co/0-gfx90a.hsaco"));
    long twoPhase = rig.registerFunction(module, "_Z8twoPhasePKiPiS1_i");
    int blocks = 64;
    int n = blocks * 256 - 100;
    long in = rig.alloc(4L * n);
    long expect = 0;
    for (int i = 0; i < n; i++) {
      int v = (i * 7) % 31 - 15;
      rig.memory.writeInt(in + 4L * i, v);
      expect += v;
    }
    long out = rig.alloc(8);
    assertThat(rig.call("hipMalloc", out, 4L * n)).isZero();
    long din = rig.memory.readLong(out);
    assertThat(rig.call("hipMemcpy", din, in, 4L * n, 1)).isZero();
    assertThat(rig.call("hipMalloc", out, 4L * blocks)).isZero();
    long partial = rig.memory.readLong(out);
    assertThat(rig.call("hipMalloc", out, 4L * (n + 1))).isZero();
    long dout = rig.memory.readLong(out);
    long args = rig.args(rig.value64(din), rig.value64(partial), rig.value64(dout), rig.value32(n));
    long[] grid = ApiRig.dim3(blocks, 1, 1);
    long[] block = ApiRig.dim3(256, 1, 1);
    assertThat(rig.call("hipLaunchCooperativeKernel", twoPhase, grid[0], grid[1], block[0], block[1], args, 0, 0))
        .isZero();
    long sum = rig.alloc(4);
    assertThat(rig.call("hipMemcpy", sum, dout, 4L, 2)).isZero();
    assertThat(rig.memory.readInt(sum)).isEqualTo((int) expect);
    assertThat(rig.lines).isEmpty();
  }

  @Test
  void functionAttributesAndOccupancy() throws Exception {
    long module = rig.registerFatBinary(ApiRig.corpus("gfx90a-v4/vector_add.co/0-gfx90a.hsaco"));
    long vadd = rig.registerFunction(module, "_Z4vaddPKfS0_Pfi");
    long attr = rig.alloc(LaunchApi.FUNC_ATTRIBUTES_SIZE);
    assertThat(rig.call("hipFuncGetAttributes", attr, vadd)).isZero();
    assertThat(rig.memory.readInt(attr)).as("binaryVersion").isEqualTo(90);
    assertThat(rig.memory.readLong(attr + 16)).as("localSizeBytes").isZero();
    assertThat(rig.memory.readInt(attr + 24)).as("maxDynamicSharedSizeBytes").isEqualTo(65536);
    assertThat(rig.memory.readInt(attr + 28)).as("maxThreadsPerBlock").isEqualTo(1024);
    assertThat(rig.memory.readInt(attr + 32)).as("numRegs").isBetween(1, 512);
    assertThat(rig.memory.readLong(attr + 48)).as("sharedSizeBytes").isZero();
    assertThat(rig.call("hipFuncGetAttributes", attr, rig.alloc(8))).isEqualTo(98);

    long blocks = rig.alloc(4);
    assertThat(rig.call("hipOccupancyMaxActiveBlocksPerMultiprocessor", blocks, vadd, 256, 0)).isZero();
    // A small kernel: 8 waves per SIMD, 32 per CU, so 8 blocks of 4 waves; LDS limits them when asked for.
    assertThat(rig.memory.readInt(blocks)).isEqualTo(8);
    assertThat(rig.call("hipOccupancyMaxActiveBlocksPerMultiprocessor", blocks, vadd, 256, 30000)).isZero();
    assertThat(rig.memory.readInt(blocks)).isEqualTo(2);
    assertThat(rig.call("hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", blocks, vadd, 1024, 0, 0))
        .isZero();
    assertThat(rig.memory.readInt(blocks)).isEqualTo(2);
    long gridSize = rig.alloc(4);
    long blockSize = rig.alloc(4);
    assertThat(rig.call("hipOccupancyMaxPotentialBlockSize", gridSize, blockSize, vadd, 0, 0)).isZero();
    assertThat(rig.memory.readInt(blockSize)).isEqualTo(1024);
    assertThat(rig.memory.readInt(gridSize)).isEqualTo(2 * 104);
    assertThat(rig.call("hipOccupancyMaxPotentialBlockSize", gridSize, blockSize, vadd, 0, 100)).isZero();
    assertThat(rig.memory.readInt(blockSize)).isEqualTo(100);
    assertThat(rig.call("hipFuncSetCacheConfig", vadd, 1)).isZero();
    assertThat(rig.call("hipFuncSetAttribute", vadd, 8, 1024)).isZero();
  }
}
