package dev.hipsim.hip.gpu;

import dev.hipsim.hip.device.DeviceModel;
import dev.hipsim.hsa.loader.ExecutableSymbol;

/**
 * How many blocks of a kernel fit on one CU at once, computed as CLR's {@code ihipOccupancyMaxActiveBlocksPerMultiprocessor}
 * does for CDNA: waves per SIMD limited by the VGPRs (512 per SIMD lane slice, allocated in granules of 8) and
 * SGPRs (800 per SIMD, granules of 16) a wave uses, at most 8; four SIMDs per CU; then blocks by whole waves, and by
 * the 64 KiB of LDS a CU has.
 *
 * @param wavesPerCu waves of this kernel one CU can hold
 * @param blocksPerCu blocks of the given size one CU can hold (0 if a block does not fit)
 */
public record Occupancy(int wavesPerCu, int blocksPerCu) {
  static final int SIMDS_PER_CU = 4;
  static final int MAX_WAVES_PER_SIMD = 8;
  static final int VGPRS_PER_SIMD = 512;
  static final int VGPR_GRANULE = 8;
  static final int SGPRS_PER_SIMD = 800;
  static final int SGPR_GRANULE = 16;
  static final int LDS_PER_CU = 64 * 1024;
  static final int WAVE = 64;

  public static Occupancy of(DeviceModel device, ExecutableSymbol.Kernel kernel, int blockThreads,
      long dynamicLds) {
    int vgprs = Math.max(VGPR_GRANULE, kernel.descriptor().nextFreeVgpr(VGPR_GRANULE));
    int waves = Math.min(MAX_WAVES_PER_SIMD, VGPRS_PER_SIMD / align(vgprs, VGPR_GRANULE));
    int sgprs = kernel.metadata().map(m -> m.sgprCount()).orElse(kernel.descriptor().nextFreeSgpr());
    if (sgprs > 0) waves = Math.min(waves, SGPRS_PER_SIMD / align(sgprs, SGPR_GRANULE));
    int wavesPerCu = SIMDS_PER_CU * waves;
    if (blockThreads <= 0) return new Occupancy(wavesPerCu, 0);
    int wavesPerBlock = (blockThreads + WAVE - 1) / WAVE;
    int blocks = wavesPerCu / wavesPerBlock;
    long lds = kernel.groupSegmentSize() + Math.max(0, dynamicLds);
    if (lds > 0) blocks = (int) Math.min(blocks, LDS_PER_CU / lds);
    return new Occupancy(wavesPerCu, blocks);
  }

  /** The largest block size a kernel accepts: its metadata's max_flat_workgroup_size, at most 1024. */
  public static int maxBlockSize(ExecutableSymbol.Kernel kernel) {
    int max = kernel.metadata().map(m -> m.maxFlatWorkgroupSize()).orElse(1024);
    return max <= 0 ? 1024 : Math.min(1024, max);
  }

  /**
   * CLR's {@code hipOccupancyMaxPotentialBlockSize}: the block size (a multiple of the wave size, at most
   * {@code limit} when positive) that keeps the most threads resident per CU, the largest such on ties; and the
   * grid size, in blocks, that fills the device with it.
   */
  public static int[] bestBlockSize(DeviceModel device, ExecutableSymbol.Kernel kernel, long dynamicLds,
      int limit) {
    int max = maxBlockSize(kernel);
    if (limit > 0) max = Math.min(max, limit);
    int bestSize = 0;
    int bestBlocks = 0;
    long bestThreads = -1;
    for (int blockSize = max; blockSize > 0; blockSize -= WAVE) {
      int blocks = of(device, kernel, blockSize, dynamicLds).blocksPerCu();
      long threads = (long) blocks * blockSize;
      if (threads > bestThreads) {
        bestThreads = threads;
        bestSize = blockSize;
        bestBlocks = blocks;
      }
    }
    return new int[] {bestBlocks * device.multiProcessorCount(), bestSize};
  }

  private static int align(int v, int a) {
    return (v + a - 1) / a * a;
  }
}
