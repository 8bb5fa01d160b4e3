package dev.hipsim.isa.interp;

import dev.hipsim.isa.exec.KernelLaunch;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.mem.GpuMemory;

/**
 * Per-thread execution context: the memory and dispatch an interpreter serves, and scratch arrays its operations
 * use for operand values, so that no operation allocates. Never shared between threads.
 */
public final class Ctx {
  public final GpuMemory memory;
  public final KernelLaunch launch;
  /** 32-bit lane values of up to four sources and a result. */
  public final int[] a = new int[64];
  public final int[] b = new int[64];
  public final int[] c = new int[64];
  public final int[] d = new int[64];
  public final int[] e = new int[64];
  /** 64-bit lane values. */
  public final long[] la = new long[64];
  public final long[] lb = new long[64];
  public final long[] lc = new long[64];
  public final long[] ld = new long[64];
  /** Scalar sources broadcast to every lane for the VALU fast paths, one cache per source slot. */
  final BroadcastCache sa = new BroadcastCache();
  final BroadcastCache sb = new BroadcastCache();
  final BroadcastCache sc = new BroadcastCache();
  /** A whole-wave VALU form's results under a partial EXEC (two dwords per lane), before the active lanes' merge. */
  final int[] lanes = new int[2 * 64];
  /** A fused run's scalar sources and lane masks ({@link FusedRun}). */
  final int[] fusedScalars = new int[LaneFusion.MAX_SCALAR_SLOTS];
  final long[] fusedMasks = new long[LaneFusion.MAX_MASKS];
  private int[] fusedSaved;
  /** A fused run's stores, made after its lane loop: each store's lane addresses, and their dwords. */
  final long[][] fusedStoreAddresses = new long[LaneFusion.MAX_GLOBAL_STORES][Wave.LANES];
  final int[] fusedStoreData = new int[LaneFusion.MAX_GLOBAL_STORES * 4 * Wave.LANES];
  /** A fused run's LDS writes, made after its lane loop: each write's lane word indices, and their dwords. */
  final int[] fusedLdsWriteWords = new int[LaneFusion.MAX_LDS_WRITES * Wave.LANES];
  final int[] fusedLdsWriteData = new int[LaneFusion.MAX_LDS_WRITES * 4 * Wave.LANES];

  /**
   * Room for the registers a fused run that can stop part-way saves before it runs ({@link FusedRun}): every VGPR
   * a run can read, made on first use.
   */
  int[] fusedSaved() {
    int[] saved = fusedSaved;
    if (saved == null) fusedSaved = saved = new int[Wave.MAX_VGPRS / 2 * Wave.LANES];
    return saved;
  }
  /** What the VALU fast paths pass for a source an operation does not have. */
  static final int[] ABSENT = new int[0];
  /** Per-lane addresses of memory operations. */
  public final long[] addr = new long[64];
  /** Small scratch for memory data of several dwords per lane (up to 16 dwords × 64 lanes). */
  public final int[] data = new int[16 * 64];

  public Ctx(GpuMemory memory, KernelLaunch launch) {
    this.memory = memory;
    this.launch = launch;
  }
}
