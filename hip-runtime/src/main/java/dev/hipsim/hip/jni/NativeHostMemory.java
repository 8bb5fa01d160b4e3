package dev.hipsim.hip.jni;

import dev.hipsim.hip.api.HostMemory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;

/** The host process's own memory, through {@link NativeHost}. */
final class NativeHostMemory implements HostMemory {
  private final ConcurrentHashMap<String, Long> strings = new ConcurrentHashMap<>();

  @Override
  public ByteBuffer map(long address, long length) {
    return NativeHost.wrap(address, length).order(ByteOrder.LITTLE_ENDIAN);
  }

  @Override
  public void read(long address, byte[] dst, int offset, int length) {
    NativeHost.read(address, dst, offset, length);
  }

  @Override
  public void write(long address, byte[] src, int offset, int length) {
    NativeHost.write(address, src, offset, length);
  }

  @Override
  public void copy(long dst, long src, long length) {
    NativeHost.copy(dst, src, length);
  }

  @Override
  public void fill(long address, int value, long length) {
    NativeHost.fill(address, value, length);
  }

  @Override
  public int readInt(long address) {
    return NativeHost.getInt(address);
  }

  @Override
  public void writeInt(long address, int value) {
    NativeHost.putInt(address, value);
  }

  @Override
  public long readLong(long address) {
    return NativeHost.getLong(address);
  }

  @Override
  public void writeLong(long address, long value) {
    NativeHost.putLong(address, value);
  }

  @Override
  public long stringLength(long address, long max) {
    return NativeHost.stringLength(address, max);
  }

  @Override
  public long internString(String s) {
    return strings.computeIfAbsent(s, k -> {
      byte[] utf8 = k.getBytes(StandardCharsets.UTF_8);
      long p = NativeHost.allocate(utf8.length + 1, 1);
      if (p == 0) throw new OutOfMemoryError("no host memory for a " + utf8.length + "-byte string");
      NativeHost.write(p, utf8, 0, utf8.length);
      NativeHost.fill(p + utf8.length, 0, 1);
      return p;
    });
  }

  @Override
  public long allocate(long size, long alignment) {
    return NativeHost.allocate(size, alignment);
  }

  @Override
  public void free(long address) {
    NativeHost.free(address);
  }
}
