package dev.hipsim.kfd.topology;

/**
 * One node of the KFD topology, with the field names of {@code /sys/class/kfd/kfd/topology/nodes/N/properties}
 * (camel-cased). A CPU node has cores and no SIMDs; a GPU node the reverse. rocminfo derives "Compute Unit" as
 * {@code simdCount / simdPerCu} and "Max Waves Per CU" as {@code maxWavesPerSimd * simdPerCu}.
 */
public record NodeProperties(
    int nodeId,
    int gpuId,
    String name,
    String marketingName,
    int cpuCoresCount,
    int simdCount,
    int memBanksCount,
    int cachesCount,
    int ioLinksCount,
    int maxWavesPerSimd,
    int ldsSizeInKb,
    int waveFrontSize,
    int arrayCount,
    int simdArraysPerEngine,
    int cuPerSimdArray,
    int simdPerCu,
    int maxSlotsScratchCu,
    int gfxTargetVersion,
    int vendorId,
    int deviceId,
    int locationId,
    int drmRenderMinor,
    int numSdmaEngines,
    int numSdmaXgmiEngines,
    int numSdmaQueuesPerEngine,
    int maxEngineClkFcompute,
    long localMemSize,
    String memoryType,
    int l1CacheKib,
    int l2CacheKib,
    int l3CacheKib,
    int numXcc) {

  /** Scratch slots per CU KFD reports for GFX9 parts. */
  public static final int SCRATCH_SLOTS_PER_CU = 32;
  /** SDMA queues per engine (KFD's default). */
  public static final int SDMA_QUEUES_PER_ENGINE = 8;

  /** The CPU node (node 0): the host's cores and system memory. */
  public static NodeProperties cpu(int cores, long systemMemoryBytes) {
    return new NodeProperties(0, 0, "CPU", "hipsim host CPU", cores, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, systemMemoryBytes, "DDR", 0, 0, 0, 0);
  }

  /** A GPU node for {@code model} with {@code vramBytes} of local memory; {@code index} numbers the GPUs from 0. */
  public static NodeProperties gpu(int nodeId, int gpuId, int index, GpuModel model, long vramBytes) {
    int arrays = model.shaderEngines();
    int cuPerArray = (model.computeUnits() + arrays - 1) / arrays;
    int caches = model.l3KiB() > 0 ? 3 : 2;
    return new NodeProperties(nodeId, gpuId, model.gfxName(), model.marketingName(), 0,
        model.computeUnits() * GpuModel.SIMDS_PER_CU, 1, caches, 1, GpuModel.MAX_WAVES_PER_SIMD, GpuModel.LDS_KIB,
        GpuModel.WAVE_SIZE, arrays, 1, cuPerArray, GpuModel.SIMDS_PER_CU, SCRATCH_SLOTS_PER_CU,
        model.gfxTargetVersion(), GpuModel.VENDOR_AMD, model.deviceId(), (0x03 + index) << 8, 128 + index,
        model.sdmaEngines(), model.sdmaXgmiEngines(), SDMA_QUEUES_PER_ENGINE, model.maxClockMhz(), vramBytes,
        model.memoryType(), model.l1KiB(), model.l2KiB(), model.l3KiB(), model.xccCount());
  }

  public boolean isGpu() {
    return simdCount > 0;
  }

  /** rocminfo's "Compute Unit". */
  public int computeUnits() {
    return simdPerCu == 0 ? cpuCoresCount : simdCount / simdPerCu;
  }

  /** rocminfo's "Shader Engines". */
  public int shaderEngines() {
    return simdArraysPerEngine == 0 ? 0 : arrayCount / simdArraysPerEngine;
  }

  /** rocminfo's "Max Waves Per CU". */
  public int maxWavesPerCu() {
    return maxWavesPerSimd * simdPerCu;
  }
}
