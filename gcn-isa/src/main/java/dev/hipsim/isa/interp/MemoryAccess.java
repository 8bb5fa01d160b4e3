package dev.hipsim.isa.interp;

import dev.hipsim.isa.mem.AtomicOp;

/**
 * What a vector memory instruction does to each lane, derived from its operation name: load, store or atomic; the
 * element size; how many dwords; sign extension; which half a 16-bit (d16) access uses.
 */
record MemoryAccess(Kind kind, int bytes, int dwords, boolean signed, boolean d16, boolean d16High, AtomicOp atomic,
    boolean atomic64) {

  enum Kind { LOAD, STORE, ATOMIC }

  /** Parses names such as GLOBAL_LOAD_SSHORT, FLAT_STORE_DWORDX4, SCRATCH_LOAD_UBYTE_D16_HI, GLOBAL_ATOMIC_ADD_X2. */
  static MemoryAccess of(String operation) {
    String n = operation.substring(operation.indexOf('_') + 1); // drop FLAT_/GLOBAL_/SCRATCH_/BUFFER_
    boolean d16 = n.contains("_D16");
    boolean hi = n.endsWith("_D16_HI");
    String base = n.replace("_D16_HI", "").replace("_D16", "");
    if (base.startsWith("ATOMIC_")) {
      String op = base.substring(7);
      boolean wide = op.endsWith("_X2") || op.endsWith("_F64");
      op = op.replace("_X2", "");
      AtomicOp a;
      switch (op) {
        case "ADD_F32": case "ADD_F64": a = AtomicOp.FADD; break;
        case "MIN_F64": case "FMIN": case "FMIN_X2": a = AtomicOp.FMIN; break;
        case "MAX_F64": case "FMAX": case "FMAX_X2": a = AtomicOp.FMAX; break;
        case "PK_ADD_F16": a = AtomicOp.PK_FADD_F16; break;
        case "PK_ADD_BF16": a = AtomicOp.PK_FADD_BF16; break;
        default: a = AtomicOp.valueOf(op);
      }
      return new MemoryAccess(Kind.ATOMIC, wide ? 8 : 4, wide ? 2 : 1, false, false, false, a, wide);
    }
    Kind kind = base.startsWith("LOAD_") ? Kind.LOAD : base.startsWith("STORE_") ? Kind.STORE : null;
    if (kind == null) return null;
    String type = base.substring(kind == Kind.LOAD ? 5 : 6);
    switch (type) {
      case "UBYTE": return new MemoryAccess(kind, 1, 1, false, d16, hi, null, false);
      case "SBYTE": return new MemoryAccess(kind, 1, 1, true, d16, hi, null, false);
      case "BYTE": return new MemoryAccess(kind, 1, 1, false, d16, hi, null, false);
      case "USHORT": return new MemoryAccess(kind, 2, 1, false, false, false, null, false);
      case "SSHORT": return new MemoryAccess(kind, 2, 1, true, false, false, null, false);
      case "SHORT": return new MemoryAccess(kind, 2, 1, false, d16, hi, null, false);
      case "DWORD": return new MemoryAccess(kind, 4, 1, false, false, false, null, false);
      case "DWORDX2": return new MemoryAccess(kind, 4, 2, false, false, false, null, false);
      case "DWORDX3": return new MemoryAccess(kind, 4, 3, false, false, false, null, false);
      case "DWORDX4": return new MemoryAccess(kind, 4, 4, false, false, false, null, false);
      default: return null;
    }
  }

  /** Merges a loaded element into the old register value as the access requires (d16 halves, sign). */
  int loadedValue(int raw, int old) {
    int v = bytes == 1 ? (signed ? (byte) raw : raw & 0xff) : bytes == 2 ? (signed ? (short) raw : raw & 0xffff) : raw;
    if (!d16) return v;
    v &= 0xffff;
    return d16High ? (old & 0xffff) | (v << 16) : (old & 0xffff0000) | v;
  }

  /** The element a store writes from a register value. */
  int storedValue(int reg) {
    return d16High ? reg >>> 16 : reg;
  }
}
