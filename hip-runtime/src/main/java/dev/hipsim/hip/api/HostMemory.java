package dev.hipsim.hip.api;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The calling program's memory, reached from Java. In a real run every address is a pointer in the host process
 * and {@link #map} wraps it without copying (a direct {@link ByteBuffer} over the program's bytes); tests supply a
 * simulated address space. Addresses are never checked: a bad pointer from the program faults like it would in the
 * real libamdhip64.
 */
public interface HostMemory {
  /** A little-endian view of {@code length} bytes at {@code address}, without copying. */
  ByteBuffer map(long address, long length);

  /** Copies {@code length} bytes from the program's memory into {@code dst}. */
  void read(long address, byte[] dst, int offset, int length);

  /** Copies {@code length} bytes from {@code src} into the program's memory. */
  void write(long address, byte[] src, int offset, int length);

  /** memmove within the program's memory. */
  void copy(long dst, long src, long length);

  /** memset. */
  void fill(long address, int value, long length);

  /** strnlen. */
  long stringLength(long address, long max);

  /**
   * A NUL-terminated copy of {@code s} (UTF-8) that lives as long as the process, for {@code const char*} results.
   * Equal strings share one copy.
   */
  long internString(String s);

  /** Heap memory for the program (posix_memalign); 0 if none is left. */
  long allocate(long size, long alignment);

  /** Releases memory from {@link #allocate}. */
  void free(long address);

  /** The NUL-terminated string at {@code address} (UTF-8), at most {@code max} bytes; null for a null pointer. */
  default String readString(long address, int max) {
    if (address == 0) return null;
    int n = (int) stringLength(address, max);
    byte[] b = new byte[n];
    read(address, b, 0, n);
    return new String(b, StandardCharsets.UTF_8);
  }

  default int readInt(long address) {
    return map(address, 4).getInt(0);
  }

  default void writeInt(long address, int value) {
    map(address, 4).putInt(0, value);
  }

  default long readLong(long address) {
    return map(address, 8).getLong(0);
  }

  default void writeLong(long address, long value) {
    map(address, 8).putLong(0, value);
  }
}
