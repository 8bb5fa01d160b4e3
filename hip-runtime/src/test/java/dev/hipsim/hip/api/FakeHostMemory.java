package dev.hipsim.hip.api;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** A simulated host address space for tests: one buffer mapped at {@link #BASE}, with a bump allocator. */
public final class FakeHostMemory implements HostMemory {
  public static final long BASE = 0x7f00_0000_0000L;
  private final ByteBuffer bytes;
  private final Map<String, Long> strings = new HashMap<>();
  private long next = BASE;

  public FakeHostMemory(int size) {
    bytes = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
  }

  private int index(long address, long length) {
    if (address < BASE || address + length > BASE + bytes.capacity() || length < 0) {
      throw new IllegalArgumentException(String.format("address 0x%x+%d outside the fake host memory", address, length));
    }
    return (int) (address - BASE);
  }

  @Override
  public ByteBuffer map(long address, long length) {
    int i = index(address, length);
    return bytes.duplicate().position(i).limit(i + (int) length).slice().order(ByteOrder.LITTLE_ENDIAN);
  }

  @Override
  public void read(long address, byte[] dst, int offset, int length) {
    bytes.get(index(address, length), dst, offset, length);
  }

  @Override
  public void write(long address, byte[] src, int offset, int length) {
    bytes.put(index(address, length), src, offset, length);
  }

  @Override
  public void copy(long dst, long src, long length) {
    byte[] tmp = new byte[(int) length];
    read(src, tmp, 0, tmp.length);
    write(dst, tmp, 0, tmp.length);
  }

  @Override
  public void fill(long address, int value, long length) {
    int i = index(address, length);
    for (int k = 0; k < length; k++) bytes.put(i + k, (byte) value);
  }

  @Override
  public long stringLength(long address, long max) {
    int i = index(address, 0);
    long n = 0;
    while (n < max && i + n < bytes.capacity() && bytes.get((int) (i + n)) != 0) n++;
    return n;
  }

  @Override
  public synchronized long internString(String s) {
    return strings.computeIfAbsent(s, k -> {
      byte[] b = k.getBytes(StandardCharsets.UTF_8);
      long p = allocate(b.length + 1, 1);
      write(p, b, 0, b.length);
      return p;
    });
  }

  @Override
  public synchronized long allocate(long size, long alignment) {
    long p = (next + alignment - 1) / alignment * alignment;
    if (p + size > BASE + bytes.capacity()) return 0;
    next = p + size;
    fill(p, 0, size);
    return p;
  }

  @Override
  public void free(long address) {
    index(address, 0);
  }
}
