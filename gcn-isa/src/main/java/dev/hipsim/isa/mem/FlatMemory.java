package dev.hipsim.isa.mem;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A simple {@link GpuMemory} for tests and tools: one contiguous range of addresses {@code [base, base + size)}
 * backed by a heap buffer. Atomics are serialised on the instance. Accesses outside the range fault like unmapped
 * pages.
 */
public final class FlatMemory implements GpuMemory {
  private final long base;
  private final ByteBuffer bytes;

  public FlatMemory(long base, int size) {
    this.base = base;
    this.bytes = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
  }

  public long base() {
    return base;
  }

  public int size() {
    return bytes.capacity();
  }

  private int at(long address, int length, AccessKind kind) throws GpuMemoryFault {
    long offset = address - base;
    if (offset < 0 || offset > bytes.capacity() - length) {
      throw new GpuMemoryFault(address < base ? address : Math.max(address, base + bytes.capacity()), kind,
          GpuMemoryFault.PAGE_NOT_PRESENT);
    }
    return (int) offset;
  }

  @Override
  public byte load8(long address) throws GpuMemoryFault {
    return bytes.get(at(address, 1, AccessKind.READ));
  }

  @Override
  public short load16(long address) throws GpuMemoryFault {
    return bytes.getShort(at(address, 2, AccessKind.READ));
  }

  @Override
  public int load32(long address) throws GpuMemoryFault {
    return bytes.getInt(at(address, 4, AccessKind.READ));
  }

  @Override
  public long load64(long address) throws GpuMemoryFault {
    return bytes.getLong(at(address, 8, AccessKind.READ));
  }

  @Override
  public void store8(long address, byte value) throws GpuMemoryFault {
    bytes.put(at(address, 1, AccessKind.WRITE), value);
  }

  @Override
  public void store16(long address, short value) throws GpuMemoryFault {
    bytes.putShort(at(address, 2, AccessKind.WRITE), value);
  }

  @Override
  public void store32(long address, int value) throws GpuMemoryFault {
    bytes.putInt(at(address, 4, AccessKind.WRITE), value);
  }

  @Override
  public void store64(long address, long value) throws GpuMemoryFault {
    bytes.putLong(at(address, 8, AccessKind.WRITE), value);
  }

  @Override
  public void read(long address, byte[] dst, int offset, int length) throws GpuMemoryFault {
    bytes.get(at(address, length, AccessKind.READ), dst, offset, length);
  }

  @Override
  public void write(long address, byte[] src, int offset, int length) throws GpuMemoryFault {
    bytes.put(at(address, length, AccessKind.WRITE), src, offset, length);
  }

  @Override
  public synchronized int atomic32(AtomicOp op, long address, int value, int compare) throws GpuMemoryFault {
    int i = at(address, 4, AccessKind.ATOMIC);
    int old = bytes.getInt(i);
    bytes.putInt(i, AtomicMath.apply32(op, old, value, compare));
    return old;
  }

  @Override
  public synchronized long atomic64(AtomicOp op, long address, long value, long compare) throws GpuMemoryFault {
    int i = at(address, 8, AccessKind.ATOMIC);
    long old = bytes.getLong(i);
    bytes.putLong(i, AtomicMath.apply64(op, old, value, compare));
    return old;
  }
}
