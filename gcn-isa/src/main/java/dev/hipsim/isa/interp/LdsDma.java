package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.exec.Wave;

/**
 * Where the loads that write LDS instead of VGPRs (MUBUF with the lds bit, gfx90a FLAT-family loads with the lds
 * bit, gfx940 global/scratch_load_lds_*) put each lane's dword: LDS_base + instruction offset + 4 × lane, where the
 * base comes from M0 (M0[15:0] on gfx90a, M0[17:2] × 4 on gfx940, as the CDNA2/CDNA3 guides give it). Sub-dword
 * loads store the extended 32-bit value, as they would into a VGPR.
 */
final class LdsDma {
  private LdsDma() {}

  static long base(Wave w, Instruction inst, int instOffset) {
    int m0 = w.s[Wave.M0];
    long lds = inst.target().isCdna3() ? m0 & 0x3fffcL : m0 & 0xffffL;
    return lds + instOffset;
  }

  /** Stores {@code value} for lane {@code lane} at {@code base + 4 × lane}, bounds-checked. */
  static void store(Wave w, Ctx cx, Instruction inst, long base, int lane, int value) throws DispatchException {
    int a = LdsSpecialOps.checked(w, cx, inst, lane, base + 4L * lane, 4);
    w.group.lds().store32(a, value);
  }
}
