package dev.hipsim.isa.exec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A workgroup's local data share: a little-endian byte array. All waves of a workgroup run on one thread, so LDS
 * needs no synchronisation; atomics are plain read-modify-write.
 *
 * <p>Not final only so that the debugger can observe accesses (LDS watchpoints) with a subclass it loads when it
 * debugs a dispatch; until then the class has no subclass and its calls stay monomorphic.
 */
public class Lds {
  private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);

  private final byte[] bytes;
  /** Bytes the current workgroup may address (static plus dynamic group segment). */
  private int size;

  public Lds(int capacity) {
    this.bytes = new byte[capacity];
  }

  public int capacity() {
    return bytes.length;
  }

  public int size() {
    return size;
  }

  /** Prepares for a new workgroup using {@code size} bytes; contents start zeroed for determinism. */
  public void reset(int newSize) {
    Arrays.fill(bytes, 0, Math.max(size, newSize), (byte) 0);
    size = newSize;
  }

  /** Whether {@code [address, address + length)} is inside the workgroup's allocation. */
  public boolean inBounds(long address, int length) {
    return address >= 0 && address <= size - length;
  }

  public int load8(int address) { return bytes[address]; }

  public int load16(int address) { return (short) SHORT.get(bytes, address); }

  public int load32(int address) { return (int) INT.get(bytes, address); }

  public long load64(int address) { return (long) LONG.get(bytes, address); }

  public void store8(int address, int value) { bytes[address] = (byte) value; }

  public void store16(int address, int value) { SHORT.set(bytes, address, (short) value); }

  public void store32(int address, int value) { INT.set(bytes, address, value); }

  public void store64(int address, long value) { LONG.set(bytes, address, value); }

  /** Raw access for debuggers and tests. */
  public byte[] bytes() {
    return bytes;
  }
}
