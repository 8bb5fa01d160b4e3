package dev.hipsim.isa.interp;

import dev.hipsim.isa.alu.IntOps;
import dev.hipsim.isa.decode.Operation;
import java.util.EnumMap;
import org.objectweb.asm.Opcodes;
import java.util.Map;

/**
 * How generated code computes one lane of a VALU operation that {@link LaneFusion} may fuse: by calling the static
 * method of {@link IntOps} that the operation's lane function in {@link ValuTable} calls (so each operation's
 * semantics stay in one place, and C1 inlines these small methods), or, for moves, bitwise operations, selects and
 * compares, by a JVM instruction or two.
 *
 * <p>Integer operations ignore MODE, and with the clamp bit clear (the only form fused) their results depend on
 * nothing but their operands. The f32 operations are fused for the default float mode ({@link
 * dev.hipsim.isa.alu.F32Ops#fast}: round to nearest even, denormals kept), where a lane whose operands are all
 * finite gets what the JVM's float arithmetic gives, as in {@link F32WaveOps}; a lane with an infinity or a NaN
 * calls the operation's {@link dev.hipsim.isa.alu.F32Ops} method.
 */
record FusibleOp(Shape shape, String method, boolean swap, int jvmOpcode, int predicate, boolean unsigned) {

  /** The form of the computation, which fixes the operand and result types. */
  enum Shape {
    /** The 32-bit source a. */
    COPY,
    /** ~a. */
    NOT,
    /** a (op) b with a JVM int instruction (and, or, xor). */
    BITWISE,
    /** {@code int f(int a, int b)}. */
    INT2,
    /** {@code int f(int a, int b, boolean clamp)}, clamp false. */
    INT2_CLAMP,
    /** {@code int f(int a, int b, int c)}. */
    INT3,
    /**
     * a + b or a - b (the JVM long instruction) on the zero-extended operands: the value, and in bit 32 the carry
     * or borrow, as {@link IntOps#addCo} and {@link IntOps#subCo} pack them (computed here rather than called:
     * C1 does not inline their 61 bytes).
     */
    CARRY,
    /** As CARRY, then plus or minus the lane's mask bit (the carry or borrow in): {@link IntOps#addc}, {@link IntOps#subb}. */
    CARRY_IN,
    /** {@code long f(int shift, long value)}: a 64-bit result. */
    SHIFT64,
    /** The lane's mask bit ? b : a. */
    SELECT,
    /** A compare of two 32-bit values: one mask bit. */
    COMPARE,
    /** An f32 a (op) b with a JVM float instruction, else {@code int F32Ops.f(int a, int b, int mode)}. */
    F32_2,
    /** An f32 fused multiply-add a * b + c ({@link Math#fma}), else {@code int F32Ops.fma(a, b, c, mode)}. */
    F32_FMA,
    /** Dwords read from the workgroup's LDS ({@link LaneFusion.LdsRead}). */
    LDS_READ,
    /** Dwords loaded from global memory ({@link LaneFusion.GlobalLoad}). */
    GLOBAL_LOAD,
    /** A lane's address and dwords for a global store made after the lane loop ({@link LaneFusion.GlobalStore}). */
    GLOBAL_STORE,
    /** A lane's LDS word index and dwords for a write made after the lane loop ({@link LaneFusion.LdsWrite}). */
    LDS_WRITE;

    /** An f32 operation: fused only in the default float mode. */
    boolean isFloat() {
      return this == F32_2 || this == F32_FMA;
    }

    /** The result is a lane mask bit (compares) rather than a register value. */
    boolean masksOnly() {
      return this == COMPARE;
    }

    /** The result also carries a lane mask bit (carry or borrow). */
    boolean carries() {
      return this == CARRY || this == CARRY_IN;
    }

    /** Source 2 is a lane mask. */
    boolean readsMask() {
      return this == CARRY_IN || this == SELECT;
    }
  }

  private static final Map<Operation, FusibleOp> TABLE = build();

  /** The step of a dword LDS read (LdsOps decides which reads qualify, not this table). */
  static final FusibleOp LDS_READ = shape(Shape.LDS_READ);

  /** The step of a global load (FlatOps decides which loads qualify). */
  static final FusibleOp GLOBAL_LOAD = shape(Shape.GLOBAL_LOAD);

  /** The step of a global store (FlatOps decides which stores qualify). */
  static final FusibleOp GLOBAL_STORE = shape(Shape.GLOBAL_STORE);

  /** The step of an LDS write (LdsOps decides which writes qualify). */
  static final FusibleOp LDS_WRITE = shape(Shape.LDS_WRITE);

  /** The fused form of {@code op}, or null when it is not fused. */
  static FusibleOp of(Operation op) {
    return TABLE.get(op);
  }

  /** Every operation that may be fused. */
  static java.util.Set<Operation> operations() {
    return java.util.Collections.unmodifiableSet(TABLE.keySet());
  }

  private static FusibleOp shape(Shape s) {
    return new FusibleOp(s, null, false, 0, 0, false);
  }

  private static FusibleOp call(Shape s, String method) {
    return new FusibleOp(s, method, false, 0, 0, false);
  }

  private static FusibleOp swapped(Shape s, String method) {
    return new FusibleOp(s, method, true, 0, 0, false);
  }

  private static FusibleOp carry(Shape s, int jvmOpcode, boolean swap) {
    return new FusibleOp(s, null, swap, jvmOpcode, 0, false);
  }

  private static FusibleOp bitwise(int jvmOpcode) {
    return new FusibleOp(Shape.BITWISE, null, false, jvmOpcode, 0, false);
  }

  private static final int LADD = Opcodes.LADD;
  private static final int LSUB = Opcodes.LSUB;

  private static Map<Operation, FusibleOp> build() {
    Map<Operation, FusibleOp> t = new EnumMap<>(Operation.class);
    t.put(Operation.V_MOV_B32, shape(Shape.COPY));
    t.put(Operation.V_NOT_B32, shape(Shape.NOT));
    t.put(Operation.V_AND_B32, bitwise(Opcodes.IAND));
    t.put(Operation.V_OR_B32, bitwise(Opcodes.IOR));
    t.put(Operation.V_XOR_B32, bitwise(Opcodes.IXOR));
    t.put(Operation.V_ADD_U32, call(Shape.INT2_CLAMP, "addU32"));
    t.put(Operation.V_SUB_U32, call(Shape.INT2_CLAMP, "subU32"));
    t.put(Operation.V_SUBREV_U32, swapped(Shape.INT2_CLAMP, "subU32"));
    t.put(Operation.V_LSHLREV_B32, call(Shape.INT2, "lshlrevB32"));
    t.put(Operation.V_LSHRREV_B32, call(Shape.INT2, "lshrrevB32"));
    t.put(Operation.V_ASHRREV_I32, call(Shape.INT2, "ashrrevI32"));
    t.put(Operation.V_MUL_LO_U32, call(Shape.INT2, "mulLoU32"));
    t.put(Operation.V_MUL_HI_U32, call(Shape.INT2, "mulHiU32"));
    t.put(Operation.V_MUL_HI_I32, call(Shape.INT2, "mulHiI32"));
    t.put(Operation.V_MUL_U32_U24, call(Shape.INT2, "mulU32U24"));
    t.put(Operation.V_MUL_HI_U32_U24, call(Shape.INT2, "mulHiU32U24"));
    t.put(Operation.V_MUL_I32_I24, call(Shape.INT2, "mulI32I24"));
    t.put(Operation.V_MIN_I32, call(Shape.INT2, "minI32"));
    t.put(Operation.V_MAX_I32, call(Shape.INT2, "maxI32"));
    t.put(Operation.V_MIN_U32, call(Shape.INT2, "minU32"));
    t.put(Operation.V_MAX_U32, call(Shape.INT2, "maxU32"));
    t.put(Operation.V_MAD_U32_U24, call(Shape.INT3, "madU32U24"));
    t.put(Operation.V_MAD_I32_I24, call(Shape.INT3, "madI32I24"));
    t.put(Operation.V_LSHL_ADD_U32, call(Shape.INT3, "lshlAddU32"));
    t.put(Operation.V_ADD_LSHL_U32, call(Shape.INT3, "addLshlU32"));
    t.put(Operation.V_ADD3_U32, call(Shape.INT3, "add3U32"));
    t.put(Operation.V_LSHL_OR_B32, call(Shape.INT3, "lshlOrB32"));
    t.put(Operation.V_AND_OR_B32, call(Shape.INT3, "andOrB32"));
    t.put(Operation.V_OR3_B32, call(Shape.INT3, "or3B32"));
    t.put(Operation.V_BFE_U32, call(Shape.INT3, "bfeU32"));
    t.put(Operation.V_BFE_I32, call(Shape.INT3, "bfeI32"));
    t.put(Operation.V_BFI_B32, call(Shape.INT3, "bfiB32"));
    t.put(Operation.V_ADD_CO_U32, carry(Shape.CARRY, LADD, false));
    t.put(Operation.V_SUB_CO_U32, carry(Shape.CARRY, LSUB, false));
    t.put(Operation.V_SUBREV_CO_U32, carry(Shape.CARRY, LSUB, true));
    t.put(Operation.V_ADDC_CO_U32, carry(Shape.CARRY_IN, LADD, false));
    t.put(Operation.V_SUBB_CO_U32, carry(Shape.CARRY_IN, LSUB, false));
    t.put(Operation.V_SUBBREV_CO_U32, carry(Shape.CARRY_IN, LSUB, true));
    t.put(Operation.V_LSHLREV_B64, call(Shape.SHIFT64, "lshlrevB64"));
    t.put(Operation.V_LSHRREV_B64, call(Shape.SHIFT64, "lshrrevB64"));
    t.put(Operation.V_ASHRREV_I64, call(Shape.SHIFT64, "ashrrevI64"));
    t.put(Operation.V_CNDMASK_B32, shape(Shape.SELECT));
    t.put(Operation.V_ADD_F32, new FusibleOp(Shape.F32_2, "add", false, Opcodes.FADD, 0, false));
    t.put(Operation.V_SUB_F32, new FusibleOp(Shape.F32_2, "sub", false, Opcodes.FSUB, 0, false));
    t.put(Operation.V_SUBREV_F32, new FusibleOp(Shape.F32_2, "sub", true, Opcodes.FSUB, 0, false));
    t.put(Operation.V_MUL_F32, new FusibleOp(Shape.F32_2, "mul", false, Opcodes.FMUL, 0, false));
    t.put(Operation.V_FMA_F32, call(Shape.F32_FMA, "fma"));
    t.put(Operation.V_FMAC_F32, call(Shape.F32_FMA, "fma"));
    for (Operation op : Operation.values()) {
      FusibleOp cmp = compare(op.name());
      if (cmp != null) t.put(op, cmp);
    }
    return t;
  }

  /** V_CMP_{F,LT,EQ,LE,GT,NE,GE,T}_{I32,U32} (not V_CMPX, which writes EXEC). */
  private static FusibleOp compare(String name) {
    if (!name.startsWith("V_CMP_")) return null;
    boolean unsigned;
    if (name.endsWith("_U32")) {
      unsigned = true;
    } else if (name.endsWith("_I32")) {
      unsigned = false;
    } else {
      return null;
    }
    int p = ValuTable.intPredicate(name.substring(6, name.length() - 4));
    if (p < 0) return null;
    return new FusibleOp(Shape.COMPARE, null, false, 0, p, unsigned);
  }
}
