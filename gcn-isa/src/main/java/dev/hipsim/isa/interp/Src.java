package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Operand;
import dev.hipsim.isa.decode.Special;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.exec.Wave;

/**
 * A source operand made ready to read: which register file and index, or the constant, and the input modifiers
 * that apply to it. Reads apply op_sel (high half of a 16-bit operand), abs and neg at the operand's width, so
 * operations only see plain values.
 */
final class Src {
  static final int VGPR = 0;
  static final int AGPR = 1;
  static final int SGPR = 2;
  static final int CONST = 3;
  static final int SPECIAL = 4;

  final int kind;
  final int index;
  final int dwords;
  final long constant;
  final int mods;
  /** Bit width the modifiers apply at: 16, 32 or 64, or {@link #PAIR16}. */
  final int width;

  /**
   * The width of a 32-bit operand holding two 16-bit floats (v_dot2c_f32_f16, v_pk_fmac_f16 in their VOP2/VOP3
   * encodings): abs and neg act on both halves.
   */
  static final int PAIR16 = 2;

  private Src(int kind, int index, int dwords, long constant, int mods, int width) {
    this.kind = kind;
    this.index = index;
    this.dwords = dwords;
    this.constant = constant;
    this.mods = mods;
    this.width = width;
  }

  /** A source read at {@code width} bits (16, 32 or 64); null operand gives null. */
  static Src of(Operand op, int width) {
    if (op == null) return null;
    switch (op.kind()) {
      case VGPR: return new Src(VGPR, op.index(), op.dwords(), 0, op.mods(), width);
      case AGPR: return new Src(AGPR, op.index(), op.dwords(), 0, op.mods(), width);
      case SGPR: return new Src(SGPR, op.index(), op.dwords(), 0, op.mods(), width);
      case TTMP: return new Src(SGPR, Wave.TTMP0 + op.index(), op.dwords(), 0, op.mods(), width);
      case SPECIAL:
        if (op.index() < 128 && op.index() != Special.NULL) {
          return new Src(SGPR, op.index(), op.dwords(), 0, op.mods(), width);
        }
        return new Src(SPECIAL, op.index(), op.dwords(), 0, op.mods(), width);
      default: return new Src(CONST, 0, op.dwords(), op.value(), op.mods(), width);
    }
  }

  boolean isVector() {
    return kind == VGPR || kind == AGPR;
  }

  private int vbase(Wave w) {
    return (kind == AGPR ? w.accOffset + index : index) * Wave.LANES;
  }

  /** The raw (unmodified) 32-bit value of a scalar-kind source. */
  int scalarRaw32(Wave w, Ctx cx) throws DispatchException {
    switch (kind) {
      case SGPR: return w.s[index];
      case CONST: return (int) constant;
      case SPECIAL: return (int) special(w, cx, false);
      default: throw new DispatchException("a vector register where the instruction reads a scalar operand");
    }
  }

  /** The raw 64-bit value of a scalar-kind source. */
  long scalarRaw64(Wave w, Ctx cx) throws DispatchException {
    switch (kind) {
      case SGPR: return w.s64(index);
      case CONST: return constant;
      case SPECIAL: return special(w, cx, true);
      default: throw new DispatchException("a vector register where the instruction reads a scalar operand");
    }
  }

  private long special(Wave w, Ctx cx, boolean wide) throws DispatchException {
    long shared = cx.launch.sharedApertureBase();
    long priv = cx.launch.privateApertureBase();
    switch (index) {
      case Special.NULL: return 0;
      case Special.SRC_SHARED_BASE: return wide ? shared : shared >>> 32;
      case Special.SRC_SHARED_LIMIT: return wide ? shared | 0xffff_ffffL : shared >>> 32;
      case Special.SRC_PRIVATE_BASE: return wide ? priv : priv >>> 32;
      case Special.SRC_PRIVATE_LIMIT: return wide ? priv | 0xffff_ffffL : priv >>> 32;
      case Special.SRC_FLAT_SCRATCH_BASE: return wide ? w.scratchBase : (int) w.scratchBase;
      case Special.SRC_FLAT_SCRATCH_BASE + 1: return w.scratchBase >>> 32;
      case Special.SRC_POPS_EXITING_WAVE_ID: return 0;
      case Special.SRC_VCCZ: return w.vcc() == 0 ? 1 : 0;
      case Special.SRC_EXECZ: return w.exec() == 0 ? 1 : 0;
      case Special.SRC_SCC: return w.scc;
      default: throw new DispatchException("operand " + index + " (" + Special.name32(index)
          + ") cannot be read by this device");
    }
  }

  /** The 32-bit (or 16-bit) value of one lane, with modifiers. */
  int lane32(Wave w, Ctx cx, int lane) throws DispatchException {
    int v = isVector() ? w.v[vbase(w) + lane] : scalarRaw32(w, cx);
    return modify32(v);
  }

  private int modify32(int v) {
    return mods == 0 ? v : applyMods(v, mods, width);
  }

  /**
   * Input modifiers on a raw 32-bit register value read at {@code width}: op_sel picks the high half of a 16-bit
   * operand (it means nothing for wider operands, so it is ignored there); abs/neg act on the sign bit of the
   * operand's width, or of both halves for a {@link #PAIR16} operand.
   */
  static int applyMods(int v, int mods, int width) {
    if (width == 16) {
      if ((mods & Operand.OP_SEL) != 0) v >>>= 16;
      if ((mods & Operand.ABS) != 0) v &= ~0x8000;
      if ((mods & Operand.NEG) != 0) v ^= 0x8000;
    } else if (width == PAIR16) {
      if ((mods & Operand.ABS) != 0) v &= 0x7fff_7fff;
      if ((mods & Operand.NEG) != 0) v ^= 0x8000_8000;
    } else {
      if ((mods & Operand.ABS) != 0) v &= 0x7fff_ffff;
      if ((mods & Operand.NEG) != 0) v ^= 0x8000_0000;
    }
    return v;
  }

  /** abs/neg of a 64-bit operand. */
  static long applyMods64(long v, int mods) {
    if ((mods & Operand.ABS) != 0) v &= Long.MAX_VALUE;
    if ((mods & Operand.NEG) != 0) v ^= Long.MIN_VALUE;
    return v;
  }

  private long modify64(long v) {
    return mods == 0 ? v : applyMods64(v, mods);
  }

  /** All 64 lanes' 32-bit values, with modifiers, into {@code out}. */
  int[] read32(Wave w, Ctx cx, int[] out) throws DispatchException {
    if (isVector()) {
      System.arraycopy(w.v, vbase(w), out, 0, Wave.LANES);
      if (mods != 0) {
        for (int l = 0; l < Wave.LANES; l++) out[l] = modify32(out[l]);
      }
    } else {
      java.util.Arrays.fill(out, modify32(scalarRaw32(w, cx)));
    }
    return out;
  }

  /** All 64 lanes' raw 32-bit values (no modifiers), e.g. for packed math that applies its own. */
  int[] readRaw32(Wave w, Ctx cx, int[] out) throws DispatchException {
    if (isVector()) {
      System.arraycopy(w.v, vbase(w), out, 0, Wave.LANES);
    } else {
      java.util.Arrays.fill(out, scalarRaw32(w, cx));
    }
    return out;
  }

  /**
   * A scalar source's raw value (no modifiers) in every lane, as the VALU fast paths read lanes: at width 64 the low
   * dwords in 0..63 and the high dwords in 64..127 (a register pair's layout), else the value in 0..63. The array
   * comes from {@code cache} and must not be written.
   */
  private int[] broadcastRaw(Wave w, Ctx cx, int width, BroadcastCache cache) throws DispatchException {
    return width == 64 ? cache.of64(scalarRaw64(w, cx)) : cache.of32(scalarRaw32(w, cx));
  }

  /**
   * Where a whole-wave VALU loop reads this source's raw lanes, from {@link #laneOffset}: the register file for a
   * VGPR or AGPR, else the scalar value broadcast from {@code cache}.
   */
  int[] rawLanes(Wave w, Ctx cx, int width, BroadcastCache cache) throws DispatchException {
    return isVector() ? w.v : broadcastRaw(w, cx, width, cache);
  }

  /** The first lane's index in {@link #rawLanes}: the register's base, 0 for a broadcast. */
  int laneOffset(Wave w) {
    return isVector() ? vbase(w) : 0;
  }

  /** All 64 lanes' 64-bit values, with modifiers, into {@code out}. */
  long[] read64(Wave w, Ctx cx, long[] out) throws DispatchException {
    if (isVector()) {
      int lo = vbase(w);
      int hi = lo + Wave.LANES;
      int[] v = w.v;
      for (int l = 0; l < Wave.LANES; l++) out[l] = modify64((v[lo + l] & 0xffff_ffffL) | ((long) v[hi + l] << 32));
    } else {
      java.util.Arrays.fill(out, modify64(scalarRaw64(w, cx)));
    }
    return out;
  }

  /** One lane's 64-bit value, with modifiers. */
  long lane64(Wave w, Ctx cx, int lane) throws DispatchException {
    if (isVector()) {
      int lo = vbase(w) + lane;
      return modify64((w.v[lo] & 0xffff_ffffL) | ((long) w.v[lo + Wave.LANES] << 32));
    }
    return modify64(scalarRaw64(w, cx));
  }

  /** Register dword {@code k} of a multi-dword vector source, lane {@code lane} (no modifiers). */
  int vectorDword(Wave w, int k, int lane) {
    return w.v[vbase(w) + k * Wave.LANES + lane];
  }

  /** Index into the unified vector register file of the first register, for this wave. */
  int vectorBase(Wave w) {
    return vbase(w);
  }
}
