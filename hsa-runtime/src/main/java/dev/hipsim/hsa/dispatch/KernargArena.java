package dev.hipsim.hsa.dispatch;

import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.HsaStatus;
import dev.hipsim.hsa.memory.MemoryPool;
import dev.hipsim.hsa.memory.RangeAllocator;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kernarg segments carved from blocks of the kernarg pool, so that a launch does not cost a driver allocation (CLR
 * keeps a kernarg ring per queue for the same reason). Blocks are allocated as needed and kept.
 *
 * <p>Thread-safe.
 */
public final class KernargArena {
  /** Bytes per block taken from the pool. */
  public static final long BLOCK = 1L << 20;

  private final MemoryPool pool;
  private final TreeMap<Long, RangeAllocator> blocks = new TreeMap<>();

  public KernargArena(MemoryPool pool) {
    if (!pool.isKernargInit()) throw new IllegalArgumentException(pool + " is not a kernarg pool");
    this.pool = pool;
  }

  /** A segment of {@code bytes} at a multiple of {@code alignment} (a power of two, at most 4096). */
  public synchronized long allocate(long bytes, long alignment) throws HsaException {
    long size = Math.max(bytes, 1);
    for (RangeAllocator b : blocks.values()) {
      long at = b.allocate(size, alignment);
      if (at >= 0) return at;
    }
    long blockSize = Math.max(BLOCK, (size + MemoryPool.GRANULE - 1) & -MemoryPool.GRANULE);
    long base = pool.allocate(blockSize);
    RangeAllocator b = new RangeAllocator(base, blockSize);
    blocks.put(base, b);
    return b.allocate(size, alignment);
  }

  /**
   * Takes a block from the pool now if the arena has none, as CLR sets up its kernarg pool when it initialises a
   * device: the first launch then does not wait for a driver allocation (1-2 ms of a cold process), and the block
   * lies with the runtime's other memory rather than after the program's first buffers.
   */
  public synchronized void reserve() throws HsaException {
    if (!blocks.isEmpty()) return;
    long base = pool.allocate(BLOCK);
    blocks.put(base, new RangeAllocator(base, BLOCK));
  }

  /** Returns a segment {@link #allocate} gave. */
  public synchronized void release(long address) throws HsaException {
    Map.Entry<Long, RangeAllocator> e = blocks.floorEntry(address);
    if (e == null || e.getValue().release(address) < 0) {
      throw new HsaException(HsaStatus.INVALID_ARGUMENT, String.format("0x%x is not a kernarg segment", address));
    }
  }

  /** Segments currently handed out. */
  public synchronized int liveSegments() {
    return blocks.values().stream().mapToInt(RangeAllocator::allocations).sum();
  }
}
