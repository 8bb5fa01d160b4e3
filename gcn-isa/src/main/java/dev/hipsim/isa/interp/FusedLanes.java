package dev.hipsim.isa.interp;

import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;

/**
 * The generated code of one fused run of VALU and memory instructions ({@link LaneCodeGen}): every instruction of
 * the run for one lane, then the next lane.
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
   * @param lds the workgroup's LDS dwords (null when the run uses none); the addresses the run does not compute
   *     checked before it
   * @param ldsBytes the workgroup's LDS size, for the addresses the run computes, checked in the loop
   * @param memory the global memory the run's loads read
   * @param storeAddresses out: for the run's store {@code k}, lane {@code l}'s address in {@code [k][l]}
   * @param storeData out: for the run's store {@code k}, lane {@code l}'s dword {@code j} at {@code (4k + j) * 64 +
   *     l}
   * @param ldsWriteWords out: for the run's LDS write {@code k}, lane {@code l}'s word index at {@code 64k + l}
   * @param ldsWriteData out: for the run's LDS write {@code k}, lane {@code l}'s dword {@code j} at {@code (4k + j)
   *     * 64 + l}
   * @throws GpuMemoryFault when a lane's global load faults; the lanes before it have run the whole run, and the
   *     lane itself the instructions before the load ({@link LaneBail} likewise for an LDS address checked in the
   *     loop)
   */
  void run(int[] v, int[] scalars, long[] masks, long exec, int mode, int[] lds, int ldsBytes, GpuMemory memory,
      long[][] storeAddresses, int[] storeData, int[] ldsWriteWords, int[] ldsWriteData) throws GpuMemoryFault;
}
