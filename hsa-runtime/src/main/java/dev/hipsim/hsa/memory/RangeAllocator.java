package dev.hipsim.hsa.memory;

import java.util.Map;
import java.util.TreeMap;

/**
 * First-fit allocation of aligned ranges in {@code [base, base + size)}, with free ranges coalesced on release. The
 * runtime places GPU virtual addresses with it (as libhsakmt's fmm reserves VA in the SVM aperture) and carves
 * kernarg blocks into per-dispatch segments.
 *
 * <p>Thread-safe.
 */
public final class RangeAllocator {
  private final long base;
  private final long end;
  /** Free ranges: start to end (exclusive), never adjacent to one another. */
  private final TreeMap<Long, Long> free = new TreeMap<>();
  /** Allocated ranges: start to size. */
  private final TreeMap<Long, Long> used = new TreeMap<>();
  private long freeBytes;

  public RangeAllocator(long base, long size) {
    if (size <= 0 || base + size < base) throw new IllegalArgumentException("bad range " + base + " +" + size);
    this.base = base;
    this.end = base + size;
    free.put(base, end);
    freeBytes = size;
  }

  /**
   * Allocates {@code size} bytes at a multiple of {@code alignment} (a power of two); returns the start, or -1 when no
   * free range is large enough.
   */
  public synchronized long allocate(long size, long alignment) {
    if (size <= 0) throw new IllegalArgumentException("size must be positive: " + size);
    if (alignment <= 0 || Long.bitCount(alignment) != 1) {
      throw new IllegalArgumentException("alignment must be a power of two: " + alignment);
    }
    for (Map.Entry<Long, Long> e : free.entrySet()) {
      long start = e.getKey();
      long stop = e.getValue();
      long at = (start + alignment - 1) & -alignment;
      if (at < start || at > stop || stop - at < size) continue;
      free.remove(start);
      if (at > start) free.put(start, at);
      if (at + size < stop) free.put(at + size, stop);
      used.put(at, size);
      freeBytes -= size;
      return at;
    }
    return -1;
  }

  /** Releases the range that starts at {@code start}; returns its size, or -1 if no allocation starts there. */
  public synchronized long release(long start) {
    Long size = used.remove(start);
    if (size == null) return -1;
    long lo = start;
    long hi = start + size;
    Map.Entry<Long, Long> below = free.floorEntry(lo);
    if (below != null && below.getValue() == lo) {
      lo = below.getKey();
      free.remove(lo);
    }
    Long aboveEnd = free.remove(hi);
    if (aboveEnd != null) hi = aboveEnd;
    free.put(lo, hi);
    freeBytes += size;
    return size;
  }

  /** The size of the allocation starting at {@code start}, or -1. */
  public synchronized long sizeAt(long start) {
    Long size = used.get(start);
    return size == null ? -1 : size;
  }

  public synchronized long freeBytes() {
    return freeBytes;
  }

  /** Number of separate free ranges (1 when everything is free). */
  public synchronized int freeRanges() {
    return free.size();
  }

  public synchronized int allocations() {
    return used.size();
  }

  public long base() {
    return base;
  }

  public long limit() {
    return end;
  }
}
