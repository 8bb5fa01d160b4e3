package dev.hipsim.hip.api;

import dev.hipsim.hip.abi.AbiKind;
import dev.hipsim.hip.abi.ApiFunction;
import dev.hipsim.hip.abi.CType;
import dev.hipsim.hip.abi.Param;

/**
 * The arguments of one call, read by parameter index (the order of the C prototype in hip-api.tsv). Each accessor
 * checks that the parameter has the ABI kind it reads, so a mismatch between an implementation and the table fails
 * loudly (as an internal error naming the function) instead of reading garbage.
 */
public final class Args {
  private final ApiFunction function;
  private final long[] slots;
  private final HostMemory memory;

  public Args(ApiFunction function, long[] slots, HostMemory memory) {
    if (slots.length != function.slotCount()) {
      throw new IllegalArgumentException(function.symbol() + " expects " + function.slotCount() + " argument slots, got " + slots.length);
    }
    this.function = function;
    this.slots = slots;
    this.memory = memory;
  }

  public ApiFunction function() {
    return function;
  }

  public HostMemory memory() {
    return memory;
  }

  private Param param(int index, AbiKind... kinds) {
    if (index < 0 || index >= function.params().size()) {
      throw new IllegalArgumentException(function.symbol() + " has no parameter #" + index);
    }
    Param p = function.params().get(index);
    for (AbiKind k : kinds) {
      if (p.type().kind() == k) return p;
    }
    throw new IllegalArgumentException(function.symbol() + " parameter #" + index + " (" + p.type().spelling() + " "
        + p.name() + ") is not " + java.util.Arrays.toString(kinds));
  }

  /** A pointer (or handle) argument. */
  public long pointer(int index) {
    return slots[param(index, AbiKind.PTR).firstSlot()];
  }

  /** A signed or unsigned 32-bit argument (enums included), as the C int bits. */
  public int i32(int index) {
    return (int) slots[param(index, AbiKind.I32, AbiKind.U32).firstSlot()];
  }

  /** An unsigned 32-bit argument, zero-extended. */
  public long u32(int index) {
    return Integer.toUnsignedLong((int) slots[param(index, AbiKind.U32, AbiKind.I32).firstSlot()]);
  }

  /** A 64-bit integer argument ({@code size_t}, {@code uint64_t}, …). */
  public long i64(int index) {
    return slots[param(index, AbiKind.I64, AbiKind.U64).firstSlot()];
  }

  /** An 8- or 16-bit integer argument, zero-extended (they are unsigned in the HIP API). */
  public int small(int index) {
    Param p = param(index, AbiKind.U8, AbiKind.U16, AbiKind.I8, AbiKind.I16);
    long v = slots[p.firstSlot()];
    return switch (p.type().kind()) {
      case U8 -> (int) (v & 0xff);
      case U16 -> (int) (v & 0xffff);
      case I8 -> (byte) v;
      default -> (short) v;
    };
  }

  public boolean bool(int index) {
    return slots[param(index, AbiKind.BOOL).firstSlot()] != 0;
  }

  public float f32(int index) {
    return Float.intBitsToFloat((int) slots[param(index, AbiKind.F32).firstSlot()]);
  }

  public double f64(int index) {
    return Double.longBitsToDouble(slots[param(index, AbiKind.F64).firstSlot()]);
  }

  /** A by-value {@code dim3}. */
  public Dim3 dim3(int index) {
    Param p = param(index, AbiKind.STRUCT);
    if (p.type().size() != 12) throw new IllegalArgumentException(function.symbol() + " parameter #" + index + " is not a dim3");
    return Dim3.fromSlots(slots[p.firstSlot()], slots[p.firstSlot() + 1]);
  }

  /**
   * The raw bytes of a by-value struct of at most 16 bytes, as the slots carry them (little-endian, padded with
   * zeros).
   */
  public long[] structSlots(int index) {
    Param p = param(index, AbiKind.STRUCT);
    if (p.type().isPassedByAddress()) throw new IllegalArgumentException(function.symbol() + " parameter #" + index + " is passed by address");
    long[] out = new long[p.slotCount()];
    System.arraycopy(slots, p.firstSlot(), out, 0, out.length);
    return out;
  }

  /** Address of the caller's copy of a by-value struct larger than 16 bytes (valid during the call only). */
  public long structAddress(int index) {
    Param p = param(index, AbiKind.STRUCT);
    if (!p.type().isPassedByAddress()) throw new IllegalArgumentException(function.symbol() + " parameter #" + index + " travels in slots");
    return slots[p.firstSlot()];
  }

  /** Where a struct-returning function writes its result. */
  public long resultAddress() {
    CType r = function.returnType();
    if (!r.isStruct()) throw new IllegalStateException(function.symbol() + " does not return a struct");
    return slots[function.parameterSlots()];
  }

  /** A {@code const char*} argument read as a string (null for a null pointer). */
  public String string(int index) {
    return memory.readString(pointer(index), 1 << 20);
  }

  /** The raw slot of parameter {@code index} (for logging). */
  public long raw(int index) {
    return slots[function.params().get(index).firstSlot()];
  }
}
