package dev.hipsim.hip.device;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every {@code hipDeviceProp_t} field of a simulated device, by field name (the union of the R0000 and R0600
 * layouts), with the values CLR's {@code ihipGetDeviceProperties} (hipamd/src/hip_device.cpp) reports on a CDNA GPU
 * under ROCm on Linux: derived from the {@link DeviceModel} where boards differ, ROCclr/ROCr constants otherwise
 * (image limits from ROCr's image LUT, 8 async queues, 256-byte texture alignment, …). Fields with no entry are 0,
 * including the {@code hdp*FlushCntl} pointers (a simulated device has no HDP registers to map).
 */
public final class DeviceProperties {
  private static final int INT32_MAX = Integer.MAX_VALUE;
  /** CLR reports the maximum grid y/z as uint16_max + 1. */
  private static final int GRID_YZ = 65536;
  private static final int LDS_PER_CU = 64 * 1024;
  private static final int MAX_WORKGROUP = 1024;
  private static final int WAVE = 64;
  private static final int MAX_WAVES_PER_CU = 32;
  /** Comgr's AddressableNumVGPRs for gfx90a/gfx942 (ArchVGPRs; AccVGPRs are not counted). */
  private static final int ADDRESSABLE_VGPRS = 256;
  private static final int SIMDS_PER_CU = 4;
  /** ROCr's image limits (1D 16384, 2D 16384², 3D 16384²×8192, 8192 layers; 1D buffer 2^32 - 1 elements). */
  private static final int IMAGE_DIM = 16384;
  private static final int IMAGE_3D_DEPTH = 8192;
  private static final int IMAGE_LAYERS = 8192;
  /** Bits set in {@code hipDeviceArch_t} by CLR: every feature but funnel shift, syncthreads-ext, surfaces, dynamic parallelism. */
  static final int ARCH_FLAGS = archFlags();

  private DeviceProperties() {}

  /** Field name to value for one device. */
  public static Map<String, Object> of(DeviceModel d) {
    Map<String, Object> v = new LinkedHashMap<>();
    v.put("name", d.name());
    v.put("uuid", d.uuid().getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    v.put("totalGlobalMem", d.totalGlobalMem());
    v.put("sharedMemPerBlock", (long) LDS_PER_CU);
    v.put("regsPerBlock", ADDRESSABLE_VGPRS * SIMDS_PER_CU * WAVE);
    v.put("warpSize", WAVE);
    v.put("memPitch", (long) INT32_MAX);
    v.put("maxThreadsPerBlock", MAX_WORKGROUP);
    v.put("maxThreadsDim", new int[] {MAX_WORKGROUP, MAX_WORKGROUP, MAX_WORKGROUP});
    v.put("maxGridSize", new int[] {INT32_MAX, GRID_YZ, GRID_YZ});
    v.put("clockRate", d.clockRateKhz());
    v.put("memoryClockRate", d.memoryClockRateKhz());
    v.put("memoryBusWidth", d.memoryBusWidth());
    v.put("totalConstMem", (long) INT32_MAX);
    v.put("major", d.major());
    v.put("minor", d.minor());
    v.put("textureAlignment", 256L);
    v.put("texturePitchAlignment", 256L);
    v.put("surfaceAlignment", 256L);
    v.put("deviceOverlap", 1);
    v.put("asyncEngineCount", 8);
    v.put("multiProcessorCount", d.multiProcessorCount());
    v.put("canMapHostMemory", 1);
    v.put("maxTexture1D", IMAGE_DIM);
    v.put("maxTexture1DMipmap", INT32_MAX);
    v.put("maxTexture1DLinear", INT32_MAX);
    v.put("maxTexture2D", new int[] {IMAGE_DIM, IMAGE_DIM});
    v.put("maxTexture3D", new int[] {IMAGE_DIM, IMAGE_DIM, IMAGE_3D_DEPTH});
    v.put("maxTexture1DLayered", new int[] {IMAGE_DIM, IMAGE_LAYERS});
    v.put("maxTexture2DLayered", new int[] {IMAGE_DIM, IMAGE_DIM, IMAGE_LAYERS});
    v.put("maxSurface1D", IMAGE_DIM);
    v.put("maxSurface2D", new int[] {IMAGE_DIM, IMAGE_DIM});
    v.put("maxSurface3D", new int[] {IMAGE_DIM, IMAGE_DIM, IMAGE_3D_DEPTH});
    v.put("maxSurface1DLayered", new int[] {IMAGE_DIM, IMAGE_LAYERS});
    v.put("maxSurface2DLayered", new int[] {IMAGE_DIM, IMAGE_DIM, IMAGE_LAYERS});
    v.put("concurrentKernels", 1);
    v.put("pciBusID", d.pciBusId());
    v.put("l2CacheSize", d.l2CacheSize());
    v.put("persistingL2CacheMaxSize", d.l2CacheSize());
    v.put("maxThreadsPerMultiProcessor", WAVE * MAX_WAVES_PER_CU);
    v.put("maxBlocksPerMultiProcessor", WAVE * MAX_WAVES_PER_CU / MAX_WORKGROUP);
    v.put("streamPrioritiesSupported", 1);
    v.put("globalL1CacheSupported", 1);
    v.put("localL1CacheSupported", 1);
    v.put("sharedMemPerMultiprocessor", (long) LDS_PER_CU * d.multiProcessorCount());
    v.put("maxSharedMemoryPerMultiProcessor", (long) LDS_PER_CU);
    v.put("regsPerMultiprocessor", ADDRESSABLE_VGPRS * SIMDS_PER_CU * WAVE);
    v.put("managedMemory", 1);
    v.put("concurrentManagedAccess", 1);
    v.put("hostNativeAtomicSupported", 1);
    v.put("cooperativeLaunch", 1);
    v.put("cooperativeMultiDeviceLaunch", 1);
    v.put("cooperativeMultiDeviceUnmatchedFunc", 1);
    v.put("cooperativeMultiDeviceUnmatchedGridDim", 1);
    v.put("cooperativeMultiDeviceUnmatchedBlockDim", 1);
    v.put("cooperativeMultiDeviceUnmatchedSharedMem", 1);
    v.put("memoryPoolsSupported", 1);
    v.put("ipcEventSupported", 1);
    v.put("clockInstructionRate", 1_000_000);
    v.put("arch", ARCH_FLAGS);
    v.put("gcnArch", d.gcnArch());
    v.put("gcnArchName", d.gcnArchName());
    v.put("isLargeBar", 1);
    v.put("asicRevision", d.asicRevision());
    return v;
  }

  private static int archFlags() {
    String[] order = {"hasGlobalInt32Atomics", "hasGlobalFloatAtomicExch", "hasSharedInt32Atomics",
        "hasSharedFloatAtomicExch", "hasFloatAtomicAdd", "hasGlobalInt64Atomics", "hasSharedInt64Atomics",
        "hasDoubles", "hasWarpVote", "hasWarpBallot", "hasWarpShuffle", "hasFunnelShift", "hasThreadFenceSystem",
        "hasSyncThreadsExt", "hasSurfaceFuncs", "has3dGrid", "hasDynamicParallelism"};
    java.util.Set<String> off = java.util.Set.of("hasFunnelShift", "hasSyncThreadsExt", "hasSurfaceFuncs",
        "hasDynamicParallelism");
    int bits = 0;
    for (int i = 0; i < order.length; i++) {
      if (!off.contains(order[i])) bits |= 1 << i;
    }
    return bits;
  }
}
