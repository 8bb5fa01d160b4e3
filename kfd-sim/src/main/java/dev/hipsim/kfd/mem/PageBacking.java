package dev.hipsim.kfd.mem;

import dev.hipsim.isa.mem.AtomicOp;

/**
 * What backs one 4 KiB physical page: device or system RAM ({@link WordPage}), a user buffer the process registered
 * ({@link BufferPage}), or a device register page such as doorbells. Offsets are byte offsets in the page and the
 * caller guarantees the access stays inside it; atomics are at naturally aligned offsets.
 */
public interface PageBacking {
  long load(int offset, int size);

  void store(int offset, long value, int size);

  int atomic32(int offset, AtomicOp op, int value, int compare);

  long atomic64(int offset, AtomicOp op, long value, long compare);

  void read(int offset, byte[] dst, int dstOffset, int length);

  void write(int offset, byte[] src, int srcOffset, int length);

  /** The page's words when it is plain memory held as {@code long[]}, else {@code null} (slow path only). */
  default long[] words() {
    return null;
  }
}
