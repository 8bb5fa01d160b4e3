package dev.hipsim.isa.exec;

import java.util.Arrays;

/**
 * A workgroup's local data share: little-endian bytes kept as an array of dwords. Dwords rather than bytes because
 * almost every LDS access is an aligned dword (or a pair of them), which is then a plain array element in every JIT
 * tier; a byte view through a VarHandle costs a guard chain in the interpreter and C1 code a cold dispatch runs in.
 * All waves of a workgroup run on one thread, so LDS needs no synchronisation; atomics are plain read-modify-write.
 *
 * <p>Not final only so that the debugger can observe accesses (LDS watchpoints) with a subclass it loads when it
 * debugs a dispatch; until then the class has no subclass and its calls stay monomorphic.
 */
public class Lds {
  private final int[] words;
  private final int capacity;
  /** Whether this is a plain LDS (not the debugger's, which must see each access). */
  private final boolean plain = getClass() == Lds.class;
  /** Bytes the current workgroup may address (static plus dynamic group segment). */
  private int size;

  public Lds(int capacity) {
    this.capacity = capacity;
    this.words = new int[(capacity + 3) >>> 2];
  }

  public int capacity() {
    return capacity;
  }

  public int size() {
    return size;
  }

  /** Prepares for a new workgroup using {@code size} bytes; contents start zeroed for determinism. */
  public void reset(int newSize) {
    Arrays.fill(words, 0, (Math.max(size, newSize) + 3) >>> 2, 0);
    size = newSize;
  }

  /** Whether {@code [address, address + length)} is inside the workgroup's allocation. */
  public boolean inBounds(long address, int length) {
    return address >= 0 && address <= size - length;
  }

  // The public accessors delegate to private ones so that a subclass (the debugger's) sees each access once.

  public int load8(int address) {
    return get8(address);
  }

  public int load16(int address) {
    if ((address & 3) != 3) return (short) (words[address >>> 2] >>> ((address & 3) << 3));
    return (short) (get8(address) & 0xff | get8(address + 1) << 8);
  }

  public int load32(int address) {
    return get32(address);
  }

  public long load64(int address) {
    return get32(address) & 0xffff_ffffL | (long) get32(address + 4) << 32;
  }

  public void store8(int address, int value) {
    put8(address, value);
  }

  public void store16(int address, int value) {
    if ((address & 3) == 3) {
      put8(address, value);
      put8(address + 1, value >>> 8);
      return;
    }
    int shift = (address & 3) << 3;
    int i = address >>> 2;
    words[i] = words[i] & ~(0xffff << shift) | (value & 0xffff) << shift;
  }

  public void store32(int address, int value) {
    put32(address, value);
  }

  public void store64(int address, long value) {
    put32(address, (int) value);
    put32(address + 4, (int) (value >>> 32));
  }

  private int get8(int address) {
    return (byte) (words[address >>> 2] >>> ((address & 3) << 3));
  }

  private int get32(int address) {
    int shift = (address & 3) << 3;
    int i = address >>> 2;
    if (shift == 0) return words[i];
    return words[i] >>> shift | words[i + 1] << (32 - shift);
  }

  private void put8(int address, int value) {
    int shift = (address & 3) << 3;
    int i = address >>> 2;
    words[i] = words[i] & ~(0xff << shift) | (value & 0xff) << shift;
  }

  private void put32(int address, int value) {
    int shift = (address & 3) << 3;
    int i = address >>> 2;
    if (shift == 0) {
      words[i] = value;
      return;
    }
    words[i] = words[i] & ~(-1 << shift) | value << shift;
    words[i + 1] = words[i + 1] & (-1 << shift) | value >>> (32 - shift);
  }

  /**
   * The dwords themselves, for the interpreter's whole-wave paths, or null when accesses must go through the
   * methods (the debugger's LDS watches them).
   */
  public int[] wordsIfPlain() {
    return plain ? words : null;
  }

  /** A copy of {@code length} bytes from {@code address} (debuggers and tests). */
  public byte[] read(int address, int length) {
    byte[] out = new byte[length];
    for (int k = 0; k < length; k++) out[k] = (byte) get8(address + k);
    return out;
  }

  /** Writes {@code data} at {@code address} (debuggers and tests). */
  public void write(int address, byte[] data) {
    for (int k = 0; k < data.length; k++) put8(address + k, data[k]);
  }
}
