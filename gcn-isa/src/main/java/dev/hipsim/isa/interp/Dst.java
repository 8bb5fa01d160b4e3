package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Operand;
import dev.hipsim.isa.decode.Special;
import dev.hipsim.isa.exec.Wave;

/** A destination operand made ready to write: a vector register range, or scalar registers and specials. */
final class Dst {
  final boolean vector;
  final boolean agpr;
  final int index;
  final int dwords;

  private Dst(boolean vector, boolean agpr, int index, int dwords) {
    this.vector = vector;
    this.agpr = agpr;
    this.index = index;
    this.dwords = dwords;
  }

  static Dst of(Operand op) {
    if (op == null) return null;
    switch (op.kind()) {
      case VGPR: return new Dst(true, false, op.index(), op.dwords());
      case AGPR: return new Dst(true, true, op.index(), op.dwords());
      case TTMP: return new Dst(false, false, Wave.TTMP0 + op.index(), op.dwords());
      case SGPR: return new Dst(false, false, op.index(), op.dwords());
      case SPECIAL:
        // Writes to null (and to read-only sources) are dropped.
        return new Dst(false, false, op.index() < 128 && op.index() != Special.NULL ? op.index() : -1, op.dwords());
      default: return new Dst(false, false, -1, op.dwords());
    }
  }

  /** Index into the unified vector register file of the first register, for this wave. */
  int base(Wave w) {
    return (agpr ? w.accOffset + index : index) * Wave.LANES;
  }

  /** Writes 32-bit values to the lanes set in {@code mask}. */
  void write32(Wave w, int[] values, long mask) {
    int base = base(w);
    int[] v = w.v;
    if (mask == -1L) {
      System.arraycopy(values, 0, v, base, Wave.LANES);
      return;
    }
    for (long m = mask; m != 0; m &= m - 1) {
      int l = Long.numberOfTrailingZeros(m);
      v[base + l] = values[l];
    }
  }

  /** Writes 64-bit values (a register pair) to the lanes set in {@code mask}. */
  void write64(Wave w, long[] values, long mask) {
    int lo = base(w);
    int hi = lo + Wave.LANES;
    int[] v = w.v;
    for (long m = mask; m != 0; m &= m - 1) {
      int l = Long.numberOfTrailingZeros(m);
      long x = values[l];
      v[lo + l] = (int) x;
      v[hi + l] = (int) (x >>> 32);
    }
  }

  /** Writes one lane's dword {@code k} of a multi-dword destination. */
  void writeDword(Wave w, int k, int lane, int value) {
    w.v[base(w) + k * Wave.LANES + lane] = value;
  }

  void writeScalar32(Wave w, int value) {
    if (index >= 0) w.s[index] = value;
  }

  void writeScalar64(Wave w, long value) {
    if (index >= 0) {
      w.s[index] = (int) value;
      w.s[index + 1] = (int) (value >>> 32);
    }
  }
}
