package dev.hipsim.hip.jni;

import java.nio.ByteBuffer;

/**
 * The C side of the bridge: raw access to the host process, implemented in {@code src/main/native/hipsim_natives.c}
 * and registered by libamdhip64 right after it starts the JVM ({@code RegisterNatives}, so no library is looked up
 * by name). Only usable in a JVM started by libamdhip64.
 */
final class NativeHost {
  private NativeHost() {}

  /** C stdio streams for {@link #write}. */
  static final int STDOUT = 1;
  static final int STDERR = 2;

  /** NewDirectByteBuffer over host memory (big-endian until the caller sets the order). */
  static native ByteBuffer wrap(long address, long length);

  /** memmove. */
  static native void copy(long dst, long src, long length);

  /** Host memory to a Java array. */
  static native void read(long address, byte[] dst, int offset, int length);

  /** A Java array to host memory. */
  static native void write(long address, byte[] src, int offset, int length);

  /** memset. */
  static native void fill(long address, int value, long length);

  /** The 32-bit word at an address (unaligned allowed). */
  static native int getInt(long address);

  static native void putInt(long address, int value);

  /** The 64-bit word at an address (unaligned allowed). */
  static native long getLong(long address);

  static native void putLong(long address, long value);

  /** strnlen. */
  static native long stringLength(long address, long max);

  /** posix_memalign; 0 on failure. */
  static native long allocate(long size, long alignment);

  /** free. */
  static native void free(long address);

  /** fwrite to the C library's stdout or stderr FILE (buffered as the program configured it). */
  static native void stdioWrite(int stream, byte[] data, int offset, int length);

  /** fflush of stdout or stderr. */
  static native void stdioFlush(int stream);

  /** isatty. */
  static native boolean isTerminal(int fd);

  /** fflush both streams, then abort(): how ROCr ends a process after a fatal device error. */
  static native void abortProcess();
}
