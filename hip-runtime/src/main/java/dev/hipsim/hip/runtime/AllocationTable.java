package dev.hipsim.hip.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The memory the program allocated or registered through HIP, by address range: what hipPointerGetAttributes
 * describes, hipFree accepts and hipDeviceReset releases.
 */
final class AllocationTable {
  enum Kind {
    /** hipMalloc: simulated VRAM. */
    DEVICE,
    /** hipHostMalloc: pinned host memory, mapped for the GPU at the same address. */
    HOST,
    /** hipMallocManaged, managed variables: host memory mapped for the GPU, also at the same address. */
    MANAGED,
    /** hipHostRegister: the program's own memory, mapped for the GPU. */
    REGISTERED
  }

  /** One block: [base, base + size) and the flags it was made with. */
  record Block(long base, long size, Kind kind, int flags) {
    boolean contains(long address) {
      return address >= base && address - base < Math.max(1, size);
    }
  }

  private final TreeMap<Long, Block> blocks = new TreeMap<>();

  synchronized void add(Block b) {
    blocks.put(b.base(), b);
  }

  /** The block starting at {@code base}, removed; null if none starts there. */
  synchronized Block remove(long base) {
    return blocks.remove(base);
  }

  /** The block containing {@code address}, or null. */
  synchronized Block find(long address) {
    Map.Entry<Long, Block> e = blocks.floorEntry(address);
    return e != null && e.getValue().contains(address) ? e.getValue() : null;
  }

  /** The block starting exactly at {@code base}, or null. */
  synchronized Block at(long base) {
    return blocks.get(base);
  }

  /** Removes and returns every block. */
  synchronized List<Block> clear() {
    List<Block> all = new ArrayList<>(blocks.values());
    blocks.clear();
    return all;
  }
}
