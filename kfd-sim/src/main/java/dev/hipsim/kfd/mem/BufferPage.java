package dev.hipsim.kfd.mem;

import dev.hipsim.isa.mem.AtomicMath;
import dev.hipsim.isa.mem.AtomicOp;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One page of a user buffer registered with {@code USERPTR}: the process's own memory, shared rather than copied,
 * so the host sees what the GPU writes. Direct buffers get lock-free atomics; heap buffers (the JDK offers no
 * atomic access to them) serialise atomics on the buffer, which keeps atomics atomic among themselves.
 */
public final class BufferPage implements PageBacking {
  private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final ByteBuffer buffer;
  private final int base;
  private final Object lock;

  /** @param buffer the whole registered buffer (little-endian view); @param base this page's first byte in it */
  public BufferPage(ByteBuffer buffer, int base, Object lock) {
    this.buffer = buffer;
    this.base = base;
    this.lock = lock;
  }

  private int at(int offset) {
    return base + offset;
  }

  private int limit(int offset, int size) {
    // A user range need not end on a page boundary: bytes past the buffer read as zero and ignore writes.
    return Math.max(0, Math.min(size, buffer.capacity() - at(offset)));
  }

  @Override
  public long load(int offset, int size) {
    int n = limit(offset, size);
    long value = 0;
    for (int k = n - 1; k >= 0; k--) value = (value << 8) | (buffer.get(at(offset) + k) & 0xff);
    return value;
  }

  @Override
  public void store(int offset, long value, int size) {
    int n = limit(offset, size);
    if (n == 4 && size == 4) {
      buffer.putInt(at(offset), (int) value);
    } else if (n == 8 && size == 8) {
      buffer.putLong(at(offset), value);
    } else {
      for (int k = 0; k < n; k++) buffer.put(at(offset) + k, (byte) (value >>> (8 * k)));
    }
  }

  @Override
  public int atomic32(int offset, AtomicOp op, int value, int compare) {
    if (limit(offset, 4) < 4) return 0;
    int i = at(offset);
    if (!lockFree(i, 4)) {
      synchronized (lock) {
        int old = buffer.getInt(i);
        buffer.putInt(i, AtomicMath.apply32(op, old, value, compare));
        return old;
      }
    }
    int old = (int) INT.getVolatile(buffer, i);
    while (true) {
      int witness = (int) INT.compareAndExchange(buffer, i, old, AtomicMath.apply32(op, old, value, compare));
      if (witness == old) return old;
      old = witness;
    }
  }

  @Override
  public long atomic64(int offset, AtomicOp op, long value, long compare) {
    if (limit(offset, 8) < 8) return 0;
    int i = at(offset);
    if (!lockFree(i, 8)) {
      synchronized (lock) {
        long old = buffer.getLong(i);
        buffer.putLong(i, AtomicMath.apply64(op, old, value, compare));
        return old;
      }
    }
    long old = (long) LONG.getVolatile(buffer, i);
    while (true) {
      long witness = (long) LONG.compareAndExchange(buffer, i, old, AtomicMath.apply64(op, old, value, compare));
      if (witness == old) return old;
      old = witness;
    }
  }

  private boolean lockFree(int index, int size) {
    return buffer.isDirect() && buffer.alignmentOffset(index, size) == 0;
  }

  @Override
  public void read(int offset, byte[] dst, int dstOffset, int length) {
    int n = limit(offset, length);
    buffer.get(at(offset), dst, dstOffset, n);
    java.util.Arrays.fill(dst, dstOffset + n, dstOffset + length, (byte) 0);
  }

  @Override
  public void write(int offset, byte[] src, int srcOffset, int length) {
    buffer.put(at(offset), src, srcOffset, limit(offset, length));
  }
}
