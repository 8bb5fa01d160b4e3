package dev.hipsim.hip.runtime;

import dev.hipsim.hip.api.HostMemory;
import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.memory.MemoryManager;
import dev.hipsim.hsa.memory.MemoryPool;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Host memory made visible to the GPU at its own address (hipHostRegister, and the host side of hipHostMalloc and
 * hipMallocManaged). The driver maps whole pages, but programs register any byte range, and two ranges may share a
 * page: pages are registered in runs, each counting the ranges that use it, and a run is unregistered when its last
 * range goes.
 */
final class HostRegistrations {
  static final long PAGE = 4096;

  private static final class Run {
    final long end;
    int users;

    Run(long end) {
      this.end = end;
    }
  }

  private final TreeMap<Long, Run> runs = new TreeMap<>();

  /** Makes [address, address + size) GPU-visible; pages already visible are shared. */
  synchronized void register(MemoryManager memory, MemoryPool pool, HostMemory host, long address, long size)
      throws HsaException {
    long start = address & -PAGE;
    long end = (address + size + PAGE - 1) & -PAGE;
    List<long[]> gaps = new ArrayList<>();
    long at = start;
    for (Map.Entry<Long, Run> e : runs.subMap(runs.floorKey(start) == null ? start : runs.floorKey(start), true,
        end, false).entrySet()) {
      long runStart = e.getKey();
      long runEnd = e.getValue().end;
      if (runEnd <= at) continue;
      if (runStart > at) gaps.add(new long[] {at, Math.min(runStart, end)});
      at = Math.max(at, runEnd);
      if (at >= end) break;
    }
    if (at < end) gaps.add(new long[] {at, end});
    List<Long> made = new ArrayList<>();
    try {
      for (long[] g : gaps) {
        memory.registerHostMemory(pool, g[0], host.map(g[0], g[1] - g[0]));
        made.add(g[0]);
      }
    } catch (HsaException e) {
      for (long s : made) {
        try {
          memory.unregisterHostMemory(s);
        } catch (HsaException ignored) {
          // undoing a partial registration; the first error is reported
        }
      }
      throw e;
    }
    for (long[] g : gaps) runs.put(g[0], new Run(g[1]));
    for (Run r : runs.subMap(start, true, end, false).values()) r.users++;
    Map.Entry<Long, Run> before = runs.lowerEntry(start);
    if (before != null && before.getValue().end > start) before.getValue().users++;
  }

  /** Undoes {@link #register} of the same range. */
  synchronized void unregister(MemoryManager memory, long address, long size) throws HsaException {
    long start = address & -PAGE;
    long end = (address + size + PAGE - 1) & -PAGE;
    List<Long> touched = new ArrayList<>(runs.subMap(start, true, end, false).keySet());
    Map.Entry<Long, Run> before = runs.lowerEntry(start);
    if (before != null && before.getValue().end > start) touched.add(before.getKey());
    for (long s : touched) {
      Run r = runs.get(s);
      if (--r.users == 0) {
        runs.remove(s);
        memory.unregisterHostMemory(s);
      }
    }
  }

  /** Whether every byte of the range is GPU-visible. */
  synchronized boolean covers(long address, long size) {
    long at = address;
    long end = address + Math.max(1, size);
    while (at < end) {
      Map.Entry<Long, Run> e = runs.floorEntry(at);
      if (e == null || e.getValue().end <= at) return false;
      at = e.getValue().end;
    }
    return true;
  }
}
