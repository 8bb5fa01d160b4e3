package dev.hipsim.hip.device;

import java.util.HashMap;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * {@code hipDeviceGetAttribute}: the attributes CLR answers (hipamd/src/hip_device_runtime.cpp, ROCm 6.3) with the
 * values it derives from the device properties. Attributes CLR does not answer (most image-array limits, LUID,
 * TCC driver, …) return {@code hipErrorInvalidValue}, as CLR does. {@code hipDeviceAttributeClockInstructionRate}
 * is kept (ROCm 5 answered it and 5.x binaries may ask).
 */
public final class DeviceAttributes {
  /** One attribute; {@code pointer} means CLR writes a pointer (8 bytes) instead of an int. */
  public record Attribute(int code, String headerName, ToLongFunction<Map<String, Object>> value, boolean pointer) {}

  private static final Map<Integer, Attribute> BY_CODE = new HashMap<>();
  private static final long INT32_MAX = Integer.MAX_VALUE;

  static {
    field(0, "EccEnabled", "ECCEnabled");
    field(1, "AccessPolicyMaxWindowSize", "accessPolicyMaxWindowSize");
    field(2, "AsyncEngineCount", "asyncEngineCount");
    field(3, "CanMapHostMemory", "canMapHostMemory");
    field(4, "CanUseHostPointerForRegisteredMem", "canUseHostPointerForRegisteredMem");
    field(5, "ClockRate", "clockRate");
    field(6, "ComputeMode", "computeMode");
    field(7, "ComputePreemptionSupported", "computePreemptionSupported");
    field(8, "ConcurrentKernels", "concurrentKernels");
    field(9, "ConcurrentManagedAccess", "concurrentManagedAccess");
    field(10, "CooperativeLaunch", "cooperativeLaunch");
    field(11, "CooperativeMultiDeviceLaunch", "cooperativeMultiDeviceLaunch");
    add(12, "DeviceOverlap", p -> get(p, "asyncEngineCount") > 0 ? 1 : 0);
    field(13, "DirectManagedMemAccessFromHost", "directManagedMemAccessFromHost");
    field(14, "GlobalL1CacheSupported", "globalL1CacheSupported");
    field(15, "HostNativeAtomicSupported", "hostNativeAtomicSupported");
    field(16, "Integrated", "integrated");
    field(17, "IsMultiGpuBoard", "isMultiGpuBoard");
    field(18, "KernelExecTimeout", "kernelExecTimeoutEnabled");
    field(19, "L2CacheSize", "l2CacheSize");
    field(20, "LocalL1CacheSupported", "localL1CacheSupported");
    field(22, "LuidDeviceNodeMask", "luidDeviceNodeMask");
    field(23, "ComputeCapabilityMajor", "major");
    field(24, "ManagedMemory", "managedMemory");
    field(25, "MaxBlocksPerMultiProcessor", "maxBlocksPerMultiProcessor");
    element(26, "MaxBlockDimX", "maxThreadsDim", 0);
    element(27, "MaxBlockDimY", "maxThreadsDim", 1);
    element(28, "MaxBlockDimZ", "maxThreadsDim", 2);
    element(29, "MaxGridDimX", "maxGridSize", 0);
    element(30, "MaxGridDimY", "maxGridSize", 1);
    element(31, "MaxGridDimZ", "maxGridSize", 2);
    field(32, "MaxSurface1D", "maxSurface1D");
    field(39, "MaxTexture1DWidth", "maxTexture1D");
    field(41, "MaxTexture1DLinear", "maxTexture1DLinear");
    field(42, "MaxTexture1DMipmap", "maxTexture1DMipmap");
    element(43, "MaxTexture2DWidth", "maxTexture2D", 0);
    element(44, "MaxTexture2DHeight", "maxTexture2D", 1);
    element(49, "MaxTexture3DWidth", "maxTexture3D", 0);
    element(50, "MaxTexture3DHeight", "maxTexture3D", 1);
    element(51, "MaxTexture3DDepth", "maxTexture3D", 2);
    field(53, "MaxTextureCubemap", "maxTextureCubemap");
    field(56, "MaxThreadsPerBlock", "maxThreadsPerBlock");
    field(57, "MaxThreadsPerMultiProcessor", "maxThreadsPerMultiProcessor");
    add(58, "MaxPitch", p -> Math.min(get(p, "memPitch"), INT32_MAX));
    field(59, "MemoryBusWidth", "memoryBusWidth");
    field(60, "MemoryClockRate", "memoryClockRate");
    field(61, "ComputeCapabilityMinor", "minor");
    field(62, "MultiGpuBoardGroupID", "multiGpuBoardGroupID");
    field(63, "MultiprocessorCount", "multiProcessorCount");
    field(65, "PageableMemoryAccess", "pageableMemoryAccess");
    field(66, "PageableMemoryAccessUsesHostPageTables", "pageableMemoryAccessUsesHostPageTables");
    field(67, "PciBusId", "pciBusID");
    field(68, "PciDeviceId", "pciDeviceID");
    field(69, "PciDomainID", "pciDomainID");
    field(70, "PersistingL2CacheMaxSize", "persistingL2CacheMaxSize");
    field(71, "MaxRegistersPerBlock", "regsPerBlock");
    field(72, "MaxRegistersPerMultiprocessor", "regsPerMultiprocessor");
    field(73, "ReservedSharedMemPerBlock", "reservedSharedMemPerBlock");
    field(74, "MaxSharedMemoryPerBlock", "sharedMemPerBlock");
    field(75, "SharedMemPerBlockOptin", "sharedMemPerBlockOptin");
    field(76, "SharedMemPerMultiprocessor", "sharedMemPerMultiprocessor");
    field(78, "StreamPrioritiesSupported", "streamPrioritiesSupported");
    field(79, "SurfaceAlignment", "surfaceAlignment");
    field(81, "TextureAlignment", "textureAlignment");
    field(82, "TexturePitchAlignment", "texturePitchAlignment");
    add(83, "TotalConstantMemory", p -> Math.min(get(p, "totalConstMem"), INT32_MAX));
    add(84, "TotalGlobalMem", p -> Math.min(get(p, "totalGlobalMem"), INT32_MAX));
    add(85, "UnifiedAddressing", p -> 1); // CLR: host allocations always use SVM
    field(87, "WarpSize", "warpSize");
    add(88, "MemoryPoolsSupported", p -> 1);
    add(89, "VirtualMemoryManagementSupported", p -> 1);
    add(90, "HostRegisterSupported", p -> 1);
    field(91, "MemoryPoolSupportedHandleTypes", "memoryPoolSupportedHandleTypes");
    field(10000, "ClockInstructionRate", "clockInstructionRate");
    field(10002, "MaxSharedMemoryPerMultiprocessor", "maxSharedMemoryPerMultiProcessor");
    BY_CODE.put(10005, new Attribute(10005, "hipDeviceAttributeHdpMemFlushCntl", p -> get(p, "hdpMemFlushCntl"), true));
    BY_CODE.put(10006, new Attribute(10006, "hipDeviceAttributeHdpRegFlushCntl", p -> get(p, "hdpRegFlushCntl"), true));
    field(10007, "CooperativeMultiDeviceUnmatchedFunc", "cooperativeMultiDeviceUnmatchedFunc");
    field(10008, "CooperativeMultiDeviceUnmatchedGridDim", "cooperativeMultiDeviceUnmatchedGridDim");
    field(10009, "CooperativeMultiDeviceUnmatchedBlockDim", "cooperativeMultiDeviceUnmatchedBlockDim");
    field(10010, "CooperativeMultiDeviceUnmatchedSharedMem", "cooperativeMultiDeviceUnmatchedSharedMem");
    field(10011, "IsLargeBar", "isLargeBar");
    field(10012, "AsicRevision", "asicRevision");
    add(10013, "CanUseStreamWaitValue", p -> 1);
    add(10014, "ImageSupport", p -> 1);
    field(10015, "PhysicalMultiProcessorCount", "multiProcessorCount");
    add(10016, "FineGrainSupport", p -> 1);
    add(10017, "WallClockRate", p -> 100_000); // kHz: the 100 MHz shader real-time counter of gfx90a/gfx942
  }

  private DeviceAttributes() {}

  private static void add(int code, String name, ToLongFunction<Map<String, Object>> f) {
    BY_CODE.put(code, new Attribute(code, "hipDeviceAttribute" + name, f, false));
  }

  private static void field(int code, String name, String field) {
    checkField(field);
    add(code, name, p -> get(p, field));
  }

  private static void element(int code, String name, String field, int index) {
    checkField(field);
    add(code, name, p -> {
      Object v = p.get(field);
      return v == null ? 0 : ((int[]) v)[index];
    });
  }

  private static void checkField(String field) {
    if (!DevicePropertiesLayouts.R0600.has(field) && !DevicePropertiesLayouts.R0000.has(field)) {
      throw new IllegalStateException("no hipDeviceProp_t field " + field);
    }
  }

  private static long get(Map<String, Object> p, String field) {
    Object v = p.get(field);
    return v == null ? 0 : ((Number) v).longValue();
  }

  /** The attribute with this {@code hipDeviceAttribute_t} value, or null if CLR rejects it. */
  public static Attribute forCode(int code) {
    return BY_CODE.get(code);
  }

  public static java.util.Collection<Attribute> all() {
    return BY_CODE.values();
  }
}
