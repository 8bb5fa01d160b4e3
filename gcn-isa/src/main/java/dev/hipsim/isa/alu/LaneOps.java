package dev.hipsim.isa.alu;

/**
 * Cross-lane data movement on the vector register file ({@code int[]} indexed {@code register * 64 + lane}):
 * V_READLANE/READFIRSTLANE/WRITELANE and the LDS-less DS_SWIZZLE_B32, DS_PERMUTE_B32, DS_BPERMUTE_B32. The
 * swizzle and permute methods take a 64-entry scratch array so that destination and source may be the same
 * register without allocating.
 */
public final class LaneOps {
  private LaneOps() {}

  /** V_READLANE_B32: the value of lane S1[5:0]; EXEC is ignored. */
  public static int readlane(int[] vgprs, int reg, int laneSelect) {
    return vgprs[reg * 64 + (laneSelect & 63)];
  }

  /** V_READFIRSTLANE_B32: the lowest active lane, or lane 0 when EXEC is zero. */
  public static int readfirstlane(int[] vgprs, int reg, long exec) {
    int lane = exec == 0 ? 0 : Long.numberOfTrailingZeros(exec);
    return vgprs[reg * 64 + lane];
  }

  /** V_WRITELANE_B32: writes {@code value} to lane S1[5:0]; EXEC is ignored. */
  public static void writelane(int[] vgprs, int reg, int laneSelect, int value) {
    vgprs[reg * 64 + (laneSelect & 63)] = value;
  }

  /**
   * The lane DS_SWIZZLE_B32 reads for {@code lane} given the 16-bit offset, following the guide's four modes:
   * offset >= 0xe000 FFT, >= 0xc000 rotate, bit 15 quad permute, otherwise and/or/xor masks within 32 lanes.
   * (FFT and rotate are described in the CDNA4 guide; GFX9 code generators emit the other two.)
   */
  public static int swizzleSource(int offset, int lane) {
    offset &= 0xffff;
    if (offset >= 0xe000) {
      int mask = offset & 31;
      int j = Integer.reverse(lane & 31) >>> 27;
      j >>>= Integer.bitCount(mask);
      j |= lane & mask;
      return j | (lane & 32);
    }
    if (offset >= 0xc000) {
      int rotate = (offset >>> 5) & 31;
      int mask = offset & 31;
      if ((offset & 0x400) != 0) rotate = -rotate;
      int j = (lane & mask) | ((lane + rotate) & ~mask);
      return (j & 31) | (lane & 32);
    }
    if ((offset & 0x8000) != 0) return (lane & ~3) | (offset >>> (2 * (lane & 3)) & 3);
    int and = offset & 31;
    int or = (offset >>> 5) & 31;
    int xor = (offset >>> 10) & 31;
    return (((lane & 31) & and) | or) ^ xor | (lane & 32);
  }

  /** DS_SWIZZLE_B32: active lanes get the value of their source lane, or 0 when that lane is inactive. */
  public static void swizzle(int[] vgprs, int dstReg, int srcReg, int offset, long exec, int[] scratch) {
    int src = srcReg * 64;
    for (int lane = 0; lane < 64; lane++) {
      int j = swizzleSource(offset, lane);
      scratch[lane] = (exec >>> j & 1) != 0 ? vgprs[src + j] : 0;
    }
    writeActive(vgprs, dstReg, exec, scratch);
  }

  /**
   * DS_PERMUTE_B32 (forward, "push"): each active lane sends its data to lane ((addr + offset) / 4) % 64; lanes
   * nobody sends to get 0, and when several lanes target one, the highest-numbered sender wins. Only active
   * lanes are written.
   */
  public static void permute(int[] vgprs, int dstReg, int addrReg, int dataReg, int offset, long exec,
      int[] scratch) {
    java.util.Arrays.fill(scratch, 0, 64, 0);
    int addr = addrReg * 64;
    int data = dataReg * 64;
    for (int lane = 0; lane < 64; lane++) {
      if ((exec >>> lane & 1) == 0) continue;
      int dst = (int) (((vgprs[addr + lane] & 0xffffffffL) + (offset & 0xffff)) >>> 2) & 63;
      scratch[dst] = vgprs[data + lane];
    }
    writeActive(vgprs, dstReg, exec, scratch);
  }

  /**
   * DS_BPERMUTE_B32 (backward, "pull"): each active lane reads lane ((addr + offset) / 4) % 64, or 0 when that
   * lane is inactive.
   */
  public static void bpermute(int[] vgprs, int dstReg, int addrReg, int dataReg, int offset, long exec,
      int[] scratch) {
    int addr = addrReg * 64;
    int data = dataReg * 64;
    for (int lane = 0; lane < 64; lane++) {
      int src = (int) (((vgprs[addr + lane] & 0xffffffffL) + (offset & 0xffff)) >>> 2) & 63;
      scratch[lane] = (exec >>> src & 1) != 0 ? vgprs[data + src] : 0;
    }
    writeActive(vgprs, dstReg, exec, scratch);
  }

  private static void writeActive(int[] vgprs, int reg, long exec, int[] values) {
    int base = reg * 64;
    for (int lane = 0; lane < 64; lane++) {
      if ((exec >>> lane & 1) != 0) vgprs[base + lane] = values[lane];
    }
  }
}
