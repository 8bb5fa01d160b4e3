package dev.hipsim.isa.exec;

/**
 * The architectural state of one wave64: scalar and vector register files, the special registers, the program
 * counter and its identity within the dispatch. Objects are reused from wave to wave by a compute unit, so
 * register files are allocated once at their maximum size.
 *
 * <p>Scalar operands use the hardware's encoding as the index into {@link #s}: s0–s101, flat_scratch (102/103),
 * xnack_mask (104/105), vcc (106/107), tba/tma (108–111), ttmp0–11 (112–123), m0 (124), exec (126/127). Vector
 * registers are one unified file indexed {@code register * 64 + lane}; on gfx90a and gfx940+ the AGPRs follow the
 * architectural VGPRs at {@link #accOffset}.
 */
public final class Wave {
  public static final int LANES = 64;
  public static final int SGPR_SLOTS = 128;
  public static final int MAX_VGPRS = 512;

  public static final int FLAT_SCRATCH_LO = 102;
  public static final int FLAT_SCRATCH_HI = 103;
  public static final int XNACK_MASK_LO = 104;
  public static final int VCC_LO = 106;
  public static final int VCC_HI = 107;
  public static final int TTMP0 = 112;
  public static final int M0 = 124;
  public static final int EXEC_LO = 126;
  public static final int EXEC_HI = 127;

  /** Scalar registers and the specials that share their encoding space. */
  public final int[] s = new int[SGPR_SLOTS];
  /** Unified vector register file, {@code register * 64 + lane}. */
  public final int[] v = new int[MAX_VGPRS * LANES];
  /** Scalar condition code, 0 or 1. */
  public int scc;
  public int mode;
  public int trapsts;
  /** Program counter: GPU virtual address of the next instruction. */
  public long pc;
  /** First AGPR in {@link #v}, in registers. */
  public int accOffset;
  /** Vector registers the kernel allocated (architectural plus accumulation), for bounds and clearing. */
  public int vgprCount;

  /**
   * GPR indexing mode (s_set_gpr_idx_on): which VALU operands (bit 0 src0, 1 src1, 2 src2, 3 dst) are offset by
   * M0[7:0]; 0 when off.
   */
  public int gprIdxMask;

  /** The GWS barrier generation this wave waits to see pass, or -1 when it is not waiting at a GWS barrier. */
  public long gwsWait = -1;

  public WaveStatus status = WaveStatus.RUNNING;

  // identity
  public int workgroupX;
  public int workgroupY;
  public int workgroupZ;
  /** Index of the wave within its workgroup. */
  public int waveInGroup;
  /** Work-items of the workgroup in each dimension (partial at the grid's edges). */
  public int groupSizeX;
  public int groupSizeY;
  public int groupSizeZ;
  public Workgroup group;

  /** GPU virtual address of this wave's private (scratch) memory: its lanes interleaved per dword. */
  public long scratchBase;
  /** Bytes of private memory per lane. */
  public int scratchPerLane;

  /** Instructions this wave executed (for statistics and the watchdog). */
  public long instructions;

  public long exec() {
    return ((long) s[EXEC_HI] << 32) | (s[EXEC_LO] & 0xffff_ffffL);
  }

  public void setExec(long mask) {
    s[EXEC_LO] = (int) mask;
    s[EXEC_HI] = (int) (mask >>> 32);
  }

  public long vcc() {
    return ((long) s[VCC_HI] << 32) | (s[VCC_LO] & 0xffff_ffffL);
  }

  public void setVcc(long mask) {
    s[VCC_LO] = (int) mask;
    s[VCC_HI] = (int) (mask >>> 32);
  }

  /** A 64-bit scalar register pair starting at {@code index}. */
  public long s64(int index) {
    return ((long) s[index + 1] << 32) | (s[index] & 0xffff_ffffL);
  }

  public void setS64(int index, long value) {
    s[index] = (int) value;
    s[index + 1] = (int) (value >>> 32);
  }

  public long flatScratch() {
    return s64(FLAT_SCRATCH_LO);
  }

  /**
   * Zeros to clear register files from. Copying them is a memory-copy stub under every JIT, where C1, which runs
   * the program's JVM by default, compiles {@code Arrays.fill} as a plain loop with a range check per element.
   */
  private static final int[] ZEROS = new int[MAX_VGPRS * LANES];

  /** Clears the state a new wave may observe: registers it allocated, specials, status and counters. */
  void reset(int vgprs, int accumulationOffset) {
    System.arraycopy(ZEROS, 0, s, 0, SGPR_SLOTS);
    System.arraycopy(ZEROS, 0, v, 0, Math.min(vgprs, MAX_VGPRS) * LANES);
    scc = 0;
    mode = 0;
    trapsts = 0;
    gprIdxMask = 0;
    gwsWait = -1;
    pc = 0;
    vgprCount = vgprs;
    accOffset = accumulationOffset;
    status = WaveStatus.RUNNING;
    instructions = 0;
  }
}
