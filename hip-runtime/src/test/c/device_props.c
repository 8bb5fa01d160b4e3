/* Checks hipGetDeviceProperties against the real ROCm header: compiled with HIP 5.x's hip_runtime_api.h, so every
 * field is read at the offset the header gives it. Prints "field=value" for every field of hipDeviceProp_t, a few
 * hipDeviceArch_t bits by name, and the raw bytes hipGetDevicePropertiesR0600 wrote (checked at the ROCm 6 offsets
 * by dev.hipsim.hip.nativelib.DevicePropertiesHeaderTest). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <hip/hip_runtime_api.h>

hipError_t hipGetDevicePropertiesR0600(void* prop, int device);

int main(void) {
  hipDeviceProp_t p;
  memset(&p, 0xa5, sizeof p);
  printf("rc=%d\n", hipGetDeviceProperties(&p, 0));
  printf("sizeof=%zu\n", sizeof p);
  printf("name=%s\n", p.name);
  printf("totalGlobalMem=%zu\n", p.totalGlobalMem);
  printf("sharedMemPerBlock=%zu\n", p.sharedMemPerBlock);
  printf("regsPerBlock=%d\n", p.regsPerBlock);
  printf("warpSize=%d\n", p.warpSize);
  printf("maxThreadsPerBlock=%d\n", p.maxThreadsPerBlock);
  printf("maxThreadsDim=%d,%d,%d\n", p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2]);
  printf("maxGridSize=%d,%d,%d\n", p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
  printf("clockRate=%d\n", p.clockRate);
  printf("memoryClockRate=%d\n", p.memoryClockRate);
  printf("memoryBusWidth=%d\n", p.memoryBusWidth);
  printf("totalConstMem=%zu\n", p.totalConstMem);
  printf("major=%d\n", p.major);
  printf("minor=%d\n", p.minor);
  printf("multiProcessorCount=%d\n", p.multiProcessorCount);
  printf("l2CacheSize=%d\n", p.l2CacheSize);
  printf("maxThreadsPerMultiProcessor=%d\n", p.maxThreadsPerMultiProcessor);
  printf("computeMode=%d\n", p.computeMode);
  printf("clockInstructionRate=%d\n", p.clockInstructionRate);
  { uint32_t bits; memcpy(&bits, &p.arch, 4); printf("arch=%u\n", bits); }
  printf("concurrentKernels=%d\n", p.concurrentKernels);
  printf("pciDomainID=%d\n", p.pciDomainID);
  printf("pciBusID=%d\n", p.pciBusID);
  printf("pciDeviceID=%d\n", p.pciDeviceID);
  printf("maxSharedMemoryPerMultiProcessor=%zu\n", p.maxSharedMemoryPerMultiProcessor);
  printf("isMultiGpuBoard=%d\n", p.isMultiGpuBoard);
  printf("canMapHostMemory=%d\n", p.canMapHostMemory);
  printf("gcnArch=%d\n", p.gcnArch);
  printf("gcnArchName=%s\n", p.gcnArchName);
  printf("integrated=%d\n", p.integrated);
  printf("cooperativeLaunch=%d\n", p.cooperativeLaunch);
  printf("cooperativeMultiDeviceLaunch=%d\n", p.cooperativeMultiDeviceLaunch);
  printf("maxTexture1DLinear=%d\n", p.maxTexture1DLinear);
  printf("maxTexture1D=%d\n", p.maxTexture1D);
  printf("maxTexture2D=%d,%d\n", p.maxTexture2D[0], p.maxTexture2D[1]);
  printf("maxTexture3D=%d,%d,%d\n", p.maxTexture3D[0], p.maxTexture3D[1], p.maxTexture3D[2]);
  printf("hdpMemFlushCntl=%lu\n", (unsigned long)(uintptr_t)p.hdpMemFlushCntl);
  printf("hdpRegFlushCntl=%lu\n", (unsigned long)(uintptr_t)p.hdpRegFlushCntl);
  printf("memPitch=%zu\n", p.memPitch);
  printf("textureAlignment=%zu\n", p.textureAlignment);
  printf("texturePitchAlignment=%zu\n", p.texturePitchAlignment);
  printf("kernelExecTimeoutEnabled=%d\n", p.kernelExecTimeoutEnabled);
  printf("ECCEnabled=%d\n", p.ECCEnabled);
  printf("tccDriver=%d\n", p.tccDriver);
  printf("cooperativeMultiDeviceUnmatchedFunc=%d\n", p.cooperativeMultiDeviceUnmatchedFunc);
  printf("cooperativeMultiDeviceUnmatchedGridDim=%d\n", p.cooperativeMultiDeviceUnmatchedGridDim);
  printf("cooperativeMultiDeviceUnmatchedBlockDim=%d\n", p.cooperativeMultiDeviceUnmatchedBlockDim);
  printf("cooperativeMultiDeviceUnmatchedSharedMem=%d\n", p.cooperativeMultiDeviceUnmatchedSharedMem);
  printf("isLargeBar=%d\n", p.isLargeBar);
  printf("asicRevision=%d\n", p.asicRevision);
  printf("managedMemory=%d\n", p.managedMemory);
  printf("directManagedMemAccessFromHost=%d\n", p.directManagedMemAccessFromHost);
  printf("concurrentManagedAccess=%d\n", p.concurrentManagedAccess);
  printf("pageableMemoryAccess=%d\n", p.pageableMemoryAccess);
  printf("pageableMemoryAccessUsesHostPageTables=%d\n", p.pageableMemoryAccessUsesHostPageTables);
  printf("arch.hasGlobalInt32Atomics=%u\n", p.arch.hasGlobalInt32Atomics);
  printf("arch.hasWarpShuffle=%u\n", p.arch.hasWarpShuffle);
  printf("arch.hasFunnelShift=%u\n", p.arch.hasFunnelShift);
  printf("arch.hasThreadFenceSystem=%u\n", p.arch.hasThreadFenceSystem);
  printf("arch.has3dGrid=%u\n", p.arch.has3dGrid);
  printf("arch.hasDynamicParallelism=%u\n", p.arch.hasDynamicParallelism);
  unsigned char r0600[1472];
  memset(r0600, 0xa5, sizeof r0600);
  printf("rcR0600=%d\n", hipGetDevicePropertiesR0600(r0600, 0));
  printf("R0600=");
  for (size_t i = 0; i < sizeof r0600; i++) printf("%02x", r0600[i]);
  printf("\n");
  return 0;
}
