package dev.hipsim.isa.exec;

import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.dispatch.KernelDescriptor;
import java.util.Arrays;

/**
 * Builds a wave's initial register state exactly as the descriptor's enable bits request, in the order AMDGPUUsage
 * ("Initial Kernel Execution State") specifies: user SGPRs (private segment buffer, dispatch pointer, queue pointer,
 * kernarg pointer, dispatch ID, flat scratch init, private segment size, preloaded kernargs), then system SGPRs
 * (workgroup IDs, workgroup info, private segment wave offset), then the work-item IDs in v0–v2.
 */
public final class WaveSetup {
  private WaveSetup() {}

  /** Dword 3 of the scratch buffer descriptor: 32-bit data format, index stride 64, ADD_TID_ENABLE. */
  static final int SCRATCH_RSRC_WORD3 = (4 << 15) | (3 << 21) | (1 << 23) | (4 | 5 << 3 | 6 << 6 | 7 << 9);
  /** Dword 1 flag of the scratch buffer descriptor: SWIZZLE_ENABLE. */
  static final int SWIZZLE_ENABLE = 1 << 31;

  /** Work-item IDs 0 to 1023, the most a workgroup has: a one-dimensional wave's v0 is a slice. */
  private static final int[] FLAT_IDS = new int[1024];

  static {
    for (int i = 0; i < FLAT_IDS.length; i++) FLAT_IDS[i] = i;
  }

  /**
   * Initialises {@code w} as wave {@code waveInGroup} of workgroup {@code g}, whose scratch slot is already
   * assigned.
   */
  public static void initialize(Wave w, KernelLaunch launch, Workgroup g, int waveInGroup) throws DispatchException {
    KernelDescriptor kd = launch.descriptor();
    w.reset(launch.vgprsPerWave(), launch.accumulationOffset());
    w.group = g;
    w.waveInGroup = waveInGroup;
    w.workgroupX = g.x;
    w.workgroupY = g.y;
    w.workgroupZ = g.z;
    w.groupSizeX = launch.geometry().actualSizeX(g.x);
    w.groupSizeY = launch.geometry().actualSizeY(g.y);
    w.groupSizeZ = launch.geometry().actualSizeZ(g.z);
    w.pc = launch.entryPoint();
    w.mode = kd.initialMode();
    w.scratchPerLane = launch.scratchPerLane();
    long waveSlot = (long) g.scratchSlot * launch.geometry().wavesPerFullWorkgroup() + waveInGroup;
    long waveOffset = waveSlot * launch.scratchPerWave();
    w.scratchBase = launch.scratchBase() + waveOffset;

    int items = w.groupSizeX * w.groupSizeY * w.groupSizeZ;
    int lanes = Math.min(Wave.LANES, items - waveInGroup * Wave.LANES);
    w.setExec(lanes == 64 ? -1L : (1L << lanes) - 1);

    int[] s = w.s;
    int i = 0;
    if (kd.enableSgprPrivateSegmentBuffer()) {
      s[i++] = (int) launch.scratchBase();
      s[i++] = (int) ((launch.scratchBase() >>> 32) & 0xffff) | SWIZZLE_ENABLE;
      s[i++] = -1;
      s[i++] = SCRATCH_RSRC_WORD3;
    }
    if (kd.enableSgprDispatchPtr()) i = put64(s, i, launch.packetAddress());
    if (kd.enableSgprQueuePtr()) i = put64(s, i, launch.queueAddress());
    if (kd.enableSgprKernargSegmentPtr()) i = put64(s, i, launch.packet().kernargAddress());
    if (kd.enableSgprDispatchId()) i = put64(s, i, launch.dispatchId());
    if (kd.enableSgprFlatScratchInit()) i = put64(s, i, launch.scratchBase());
    if (kd.enableSgprPrivateSegmentSize()) s[i++] = launch.scratchPerLane();
    for (int dword : launch.preloadedKernargs()) {
      if (i < s.length) s[i++] = dword;
    }
    if (i > kd.userSgprCount()) {
      throw new DispatchException("kernel descriptor of " + launch.kernelName() + " enables " + i
          + " user SGPRs but declares USER_SGPR_COUNT " + kd.userSgprCount());
    }
    i = kd.userSgprCount();
    if (kd.enableSgprWorkgroupIdX()) s[i++] = g.x;
    if (kd.enableSgprWorkgroupIdY()) s[i++] = g.y;
    if (kd.enableSgprWorkgroupIdZ()) s[i++] = g.z;
    if (kd.enableSgprWorkgroupInfo()) {
      // {first_wave, 14 zero bits, ordered_append_term[10:0], threadgroup_size_in_waves[5:0]}
      s[i++] = (waveInGroup == 0 ? 1 << 31 : 0) | g.waveCount;
    }
    if (launch.architectedFlatScratch()) {
      // gfx940+: the hardware loads FLAT_SCRATCH with the wave's own scratch base.
      if (kd.enablePrivateSegment()) w.setS64(Wave.FLAT_SCRATCH_LO, w.scratchBase);
    } else if (kd.enablePrivateSegment()) {
      s[i++] = (int) waveOffset;
    }

    int flatBase = waveInGroup * Wave.LANES;
    int sx = w.groupSizeX;
    int sy = w.groupSizeY;
    int[] v = w.v;
    int ids = kd.enableVgprWorkitemId();
    boolean packed = launch.packedWorkItemIds();
    if (sy == 1 && w.groupSizeZ == 1) {
      // One dimension, the commonest shape: lane l is work-item flatBase + l, never past the group's end. Copied
      // from a table: a loop of 64 stores was half of this method's time under C1 (3% of a vector add).
      if (flatBase + lanes <= FLAT_IDS.length) {
        System.arraycopy(FLAT_IDS, flatBase, v, 0, lanes);
      } else {
        for (int lane = 0; lane < lanes; lane++) v[lane] = flatBase + lane;
      }
      // The Y and Z IDs are zero, which reset wrote already in the registers the wave allocated.
      int cleared = Math.min(launch.vgprsPerWave(), Wave.MAX_VGPRS);
      if (!packed && ids >= 1 && cleared < 2) Arrays.fill(v, Wave.LANES, Wave.LANES + lanes, 0);
      if (!packed && ids >= 2 && cleared < 3) Arrays.fill(v, 2 * Wave.LANES, 2 * Wave.LANES + lanes, 0);
      return;
    }
    // The first lane's coordinates by division, the others by counting (no division per lane for every wave).
    int x = flatBase % sx;
    int y = (flatBase / sx) % sy;
    int z = flatBase / (sx * sy);
    for (int lane = 0; lane < lanes; lane++) {
      if (packed) {
        v[lane] = x | (ids >= 1 ? y << 10 : 0) | (ids >= 2 ? z << 20 : 0);
      } else {
        v[lane] = x;
        if (ids >= 1) v[Wave.LANES + lane] = y;
        if (ids >= 2) v[2 * Wave.LANES + lane] = z;
      }
      if (++x == sx) {
        x = 0;
        if (++y == sy) {
          y = 0;
          z++;
        }
      }
    }
  }

  private static int put64(int[] s, int i, long value) {
    s[i] = (int) value;
    s[i + 1] = (int) (value >>> 32);
    return i + 2;
  }
}
