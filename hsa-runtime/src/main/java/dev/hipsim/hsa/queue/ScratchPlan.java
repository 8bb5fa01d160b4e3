package dev.hipsim.hsa.queue;

import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.HsaStatus;

/**
 * How much scratch backing a queue sets aside for dispatches of a given private segment size, the way ROCr sizes
 * it: each work-item's bytes rounded up so a wave64's share is a whole KiB (COMPUTE_TMPRING_SIZE counts WAVESIZE in
 * KiB), one such share per wave slot, and as many slots as the agent's CUs times its scratch slots per CU (32 on
 * GFX9) — fewer if that would pass the queue's limit, but never fewer than one work-group needs.
 *
 * @param laneBytes bytes per work-item ({@code scratch_wave64_lane_byte_size})
 * @param slots wave slots the backing holds
 */
public record ScratchPlan(long laneBytes, long slots) {
  /** A wave64 share is a multiple of this (1 KiB, so each lane's is a multiple of 16 bytes). */
  public static final long WAVE_GRANULE = 1024;
  public static final int LANES = 64;

  public long waveBytes() {
    return laneBytes * LANES;
  }

  /** {@code scratch_backing_memory_byte_size}. */
  public long bytes() {
    return slots * waveBytes();
  }

  /**
   * Plans the backing for {@code privateSegmentSize} bytes per work-item.
   *
   * @param maxSlots the agent's wave slots (CUs × scratch slots per CU)
   * @param limit the most bytes the backing may take
   * @param wavesPerGroup waves in one work-group of the dispatch, which must fit at once
   */
  public static ScratchPlan of(long privateSegmentSize, long maxSlots, long limit, int wavesPerGroup)
      throws HsaException {
    if (privateSegmentSize <= 0) throw new IllegalArgumentException("no scratch needed: " + privateSegmentSize);
    long laneGranule = WAVE_GRANULE / LANES;
    long lane = (privateSegmentSize + laneGranule - 1) / laneGranule * laneGranule;
    long wave = lane * LANES;
    long slots = Math.min(maxSlots, limit / wave);
    if (slots < wavesPerGroup) {
      throw new HsaException(HsaStatus.OUT_OF_RESOURCES, String.format("a work-group of %d waves needs %d bytes of "
          + "scratch (%d per work-item), more than the queue's scratch limit of %d bytes", wavesPerGroup,
          wave * wavesPerGroup, privateSegmentSize, limit));
    }
    return new ScratchPlan(lane, slots);
  }

  /** The same lane size with {@code slots} slots (a smaller backing when VRAM is short). */
  public ScratchPlan withSlots(long slots) {
    return new ScratchPlan(laneBytes, slots);
  }
}
