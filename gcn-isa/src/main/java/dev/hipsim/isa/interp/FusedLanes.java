package dev.hipsim.isa.interp;

/**
 * The generated code of one fused run of VALU instructions ({@link LaneCodeGen}): every instruction of the run for
 * one lane, then the next lane.
 */
interface FusedLanes {
  /**
   * Runs the fused instructions on the lanes set in {@code exec}.
   *
   * @param v the wave's vector register file (VGPR {@code r} lane {@code l} at {@code r * 64 + l})
   * @param scalars the run's scalar sources, read before the run, in the plan's slots
   * @param masks in: the lane masks the run reads, as they were before it (the plan's mask inputs); after them,
   *     out: the lane masks the run's instructions produce, in the order of the plan's mask outputs
   * @param exec the lanes to run
   * @param mode the wave's MODE register (the f32 operations' special cases read it)
   * @param lds the workgroup's LDS dwords, every address the run reads checked (null when it reads none)
   */
  void run(int[] v, int[] scalars, long[] masks, long exec, int mode, int[] lds);
}
