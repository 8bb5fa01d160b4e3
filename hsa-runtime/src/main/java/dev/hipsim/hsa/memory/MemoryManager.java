package dev.hipsim.hsa.memory;

import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.HsaStatus;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;
import dev.hipsim.kfd.AllocFlags;
import dev.hipsim.kfd.AllocRequest;
import dev.hipsim.kfd.Errno;
import dev.hipsim.kfd.KfdException;
import dev.hipsim.kfd.KfdProcess;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The runtime's memory: places allocations in the process's GPU virtual address range, allocates and maps them
 * through the KFD driver (as libhsakmt's fmm does), and copies, fills, reads and writes them. Copies that touch VRAM
 * go through the SDMA engine of the GPU owning it; system memory is read and written through the CPU mapping.
 *
 * <p>Thread-safe.
 */
public final class MemoryManager {
  /** Allocations of at least this size are 2 MiB aligned, so the driver can map them with 2 MiB pages. */
  private static final long HUGE = 2L << 20;
  private static final int CHUNK = 1 << 20;

  private final KfdProcess process;
  private final List<Integer> gpuIds;
  private final RangeAllocator va;
  private final TreeMap<Long, Allocation> byAddress = new TreeMap<>();

  public MemoryManager(KfdProcess process, List<Integer> gpuIds, long vaBase, long vaSize) {
    if (gpuIds.isEmpty()) throw new IllegalArgumentException("no GPU");
    this.process = process;
    this.gpuIds = List.copyOf(gpuIds);
    this.va = new RangeAllocator(vaBase, vaSize);
  }

  /** The CPU's view of host-accessible memory (system memory, and doorbells), by virtual address. */
  public GpuMemory hostView() {
    return process.hostMemory();
  }

  // ---------------------------------------------------------------- allocation

  /** Allocates from a pool: VRAM of its GPU, or system memory mapped on every GPU. Contents are zero. */
  public Allocation allocate(MemoryPool pool, long bytes) throws HsaException {
    if (!pool.runtimeAllocAllowed()) {
      throw new HsaException(HsaStatus.INVALID_MEMORY_POOL, "the " + pool + " does not allow allocation");
    }
    if (bytes <= 0) throw new HsaException(HsaStatus.INVALID_ARGUMENT, "allocation size must be positive: " + bytes);
    if (bytes > pool.size()) {
      throw new HsaException(HsaStatus.INVALID_ALLOCATION, String.format("%d bytes requested from the %s of %d bytes",
          bytes, pool, pool.size()));
    }
    switch (pool.placement()) {
      case VRAM: {
        int gpu = ((dev.hipsim.hsa.GpuAgent) pool.owner()).gpuId();
        // Large-BAR parts (MI210, MI300X): VRAM is host-visible, as ROCr allocates it there.
        int flags = AllocFlags.VRAM | AllocFlags.WRITABLE | AllocFlags.EXECUTABLE | AllocFlags.PUBLIC
            | AllocFlags.NO_SUBSTITUTE;
        return allocate(pool, bytes, 1, flags, gpu, List.of(gpu));
      }
      case SYSTEM: {
        int flags = AllocFlags.GTT | AllocFlags.WRITABLE | AllocFlags.EXECUTABLE | AllocFlags.NO_SUBSTITUTE
            | (pool.isFineGrained() ? AllocFlags.COHERENT : 0);
        return allocate(pool, bytes, 1, flags, gpuIds.get(0), gpuIds);
      }
      default:
        throw new AssertionError(pool.placement());
    }
  }

  /**
   * Allocates with explicit driver flags: what the runtime needs for itself (AQL rings, whose span is twice their
   * backing; doorbell pages; the event page). {@code spanFactor} is 2 for {@link AllocFlags#AQL_QUEUE_MEM}.
   */
  public Allocation allocate(MemoryPool pool, long bytes, int spanFactor, int kfdFlags, int allocGpu,
      List<Integer> mapOn) throws HsaException {
    long size = (bytes + MemoryPool.GRANULE - 1) & -MemoryPool.GRANULE;
    long span = size * spanFactor;
    long address = va.allocate(span, span >= HUGE ? HUGE : MemoryPool.GRANULE);
    if (address < 0) {
      throw new HsaException(HsaStatus.OUT_OF_RESOURCES, String.format("no 0x%x bytes of GPU virtual address left in "
          + "[0x%x, 0x%x) (0x%x free, fragmented)", span, va.base(), va.limit(), va.freeBytes()));
    }
    long handle;
    try {
      handle = process.allocMemoryOfGpu(AllocRequest.of(address, span, allocGpu, kfdFlags)).handle();
    } catch (KfdException e) {
      va.release(address);
      HsaStatus s = e.errno() == Errno.ENOMEM ? HsaStatus.OUT_OF_RESOURCES : HsaStatus.ERROR;
      throw new HsaException(s, String.format("allocating %d bytes from the %s: %s", bytes, pool, e.getMessage()), e);
    }
    List<Integer> mapped = new ArrayList<>();
    try {
      for (int gpu : mapOn) {
        process.mapMemoryToGpu(handle, gpu);
        mapped.add(gpu);
      }
    } catch (KfdException e) {
      release(handle, address, mapped);
      throw new HsaException(HsaStatus.OUT_OF_RESOURCES, "mapping " + size + " bytes from the " + pool + ": "
          + e.getMessage(), e);
    }
    Allocation a = new Allocation(address, size, span, pool, handle, kfdFlags, allocGpu, mapped);
    synchronized (this) {
      byAddress.put(address, a);
    }
    return a;
  }

  /**
   * Makes host memory the program allocated visible to every GPU at the same address (hsa_amd_memory_lock with SVM,
   * as CLR does for hipHostMalloc): a USERPTR buffer over {@code memory}, shared, not copied. {@code address} and the
   * size must be page-aligned and outside the runtime's own VA range.
   */
  public Allocation registerHostMemory(MemoryPool pool, long address, ByteBuffer memory) throws HsaException {
    long size = memory.capacity();
    if ((address & (MemoryPool.GRANULE - 1)) != 0 || (size & (MemoryPool.GRANULE - 1)) != 0 || size == 0) {
      throw new HsaException(HsaStatus.INVALID_ARGUMENT, String.format(
          "host memory at 0x%x of %d bytes is not page-aligned", address, size));
    }
    if (address < va.limit() && address + size > va.base()) {
      throw new HsaException(HsaStatus.INVALID_ARGUMENT, String.format(
          "host memory at 0x%x overlaps the runtime's GPU address range [0x%x, 0x%x)", address, va.base(), va.limit()));
    }
    int flags = AllocFlags.WRITABLE | AllocFlags.EXECUTABLE | AllocFlags.COHERENT | AllocFlags.NO_SUBSTITUTE;
    long handle;
    try {
      handle = process.allocMemoryOfGpu(AllocRequest.userptr(address, size, gpuIds.get(0), flags, address, memory))
          .handle();
    } catch (KfdException e) {
      throw new HsaException(HsaStatus.ERROR, String.format("registering host memory at 0x%x: %s", address,
          e.getMessage()), e);
    }
    List<Integer> mapped = new ArrayList<>();
    try {
      for (int gpu : gpuIds) {
        process.mapMemoryToGpu(handle, gpu);
        mapped.add(gpu);
      }
    } catch (KfdException e) {
      try {
        for (int gpu : mapped) process.unmapMemoryFromGpu(handle, gpu);
        process.freeMemoryOfGpu(handle);
      } catch (KfdException ignored) {
        // Undoing a half-done registration: the first error is the one to report.
      }
      throw new HsaException(HsaStatus.OUT_OF_RESOURCES, "mapping host memory: " + e.getMessage(), e);
    }
    Allocation a = new Allocation(address, size, size, pool, handle, flags | AllocFlags.USERPTR, gpuIds.get(0),
        mapped);
    synchronized (this) {
      byAddress.put(address, a);
    }
    return a;
  }

  /** Undoes {@link #registerHostMemory}; the host memory itself stays the program's. */
  public void unregisterHostMemory(long address) throws HsaException {
    Allocation a;
    synchronized (this) {
      a = byAddress.get(address);
      if (a == null || (a.kfdFlags() & AllocFlags.USERPTR) == 0) {
        throw new HsaException(HsaStatus.INVALID_ARGUMENT, String.format("0x%x is not registered host memory",
            address));
      }
      byAddress.remove(address);
    }
    try {
      for (int gpu : a.mappedOn()) process.unmapMemoryFromGpu(a.handle(), gpu);
      process.freeMemoryOfGpu(a.handle());
    } catch (KfdException e) {
      throw new IllegalStateException("KFD refused to release registered host memory: " + e.getMessage(), e);
    }
  }

  /** {@code hsa_amd_memory_pool_free}: {@code address} must be what an allocation returned. */
  public void free(long address) throws HsaException {
    Allocation a;
    synchronized (this) {
      a = byAddress.get(address);
      if (a == null) {
        Allocation inside = findLocked(address);
        throw new HsaException(HsaStatus.INVALID_ARGUMENT, String.format("0x%x is not the start of an allocation%s",
            address, inside == null ? "" : " (it lies in " + inside + ")"));
      }
      byAddress.remove(address);
    }
    release(a.handle(), a.address(), a.mappedOn());
  }

  private void release(long handle, long address, List<Integer> mapped) {
    try {
      for (int gpu : mapped) process.unmapMemoryFromGpu(handle, gpu);
      process.freeMemoryOfGpu(handle);
    } catch (KfdException e) {
      // The buffer is ours and mapped exactly where we mapped it; a failure here is a driver-simulation bug.
      throw new IllegalStateException("KFD refused to release a runtime buffer: " + e.getMessage(), e);
    }
    va.release(address);
  }

  /** The allocation containing {@code address}, if any ({@code hsa_amd_pointer_info}). */
  public synchronized Optional<Allocation> find(long address) {
    return Optional.ofNullable(findLocked(address));
  }

  private Allocation findLocked(long address) {
    Map.Entry<Long, Allocation> e = byAddress.floorEntry(address);
    return e != null && e.getValue().contains(address) ? e.getValue() : null;
  }

  public synchronized int allocationCount() {
    return byAddress.size();
  }

  /** The allocation holding all of {@code [address, address + length)}, or an error naming the range. */
  public Allocation require(long address, long length, String what) throws HsaException {
    Allocation a = find(address).orElse(null);
    if (a == null) {
      throw new HsaException(HsaStatus.INVALID_ARGUMENT, String.format("%s 0x%x is not in memory the runtime allocated",
          what, address));
    }
    if (!a.contains(address, length)) {
      throw new HsaException(HsaStatus.INVALID_ARGUMENT, String.format("%s [0x%x, +0x%x) runs past the end of %s",
          what, address, length, a));
    }
    return a;
  }

  // ---------------------------------------------------------------- copies

  /**
   * {@code hsa_memory_copy}: copies {@code bytes} from {@code src} to {@code dst}, both runtime allocations, with the
   * SDMA engine of the GPU owning the VRAM involved (of the first GPU for system-to-system copies). A copy between
   * two GPUs' VRAM is staged through the host, as peer access is not simulated.
   */
  public void copy(long dst, long src, long bytes) throws HsaException {
    if (bytes == 0) return;
    if (bytes < 0) throw new HsaException(HsaStatus.INVALID_ARGUMENT, "negative copy size " + bytes);
    Allocation d = require(dst, bytes, "copy destination");
    Allocation s = require(src, bytes, "copy source");
    try {
      if (d.isVram() && s.isVram() && d.gpuId() != s.gpuId()) {
        byte[] staging = new byte[(int) Math.min(bytes, CHUNK)];
        for (long done = 0; done < bytes; done += staging.length) {
          int n = (int) Math.min(staging.length, bytes - done);
          process.sdmaRead(s.gpuId(), src + done, staging, 0, n);
          process.sdmaWrite(d.gpuId(), dst + done, staging, 0, n);
        }
        return;
      }
      int gpu = d.isVram() ? d.gpuId() : s.isVram() ? s.gpuId() : gpuIds.get(0);
      process.sdmaCopy(gpu, dst, src, bytes, 0);
    } catch (KfdException e) {
      throw new HsaException(HsaStatus.ERROR, String.format("SDMA copy 0x%x -> 0x%x (%d bytes): %s", src, dst, bytes,
          e.getMessage()), e);
    } catch (GpuMemoryFault f) {
      throw fault("SDMA copy", f);
    }
  }

  /** {@code hsa_amd_memory_fill}: sets {@code count} dwords from {@code address} (dword-aligned) to {@code value}. */
  public void fill(long address, int value, long count) throws HsaException {
    if (count == 0) return;
    if ((address & 3) != 0 || count < 0) {
      throw new HsaException(HsaStatus.INVALID_ARGUMENT, String.format("fill of %d dwords at 0x%x: the address must be "
          + "dword-aligned and the count not negative", count, address));
    }
    Allocation a = require(address, count * 4, "fill destination");
    try {
      process.sdmaFill(a.isVram() ? a.gpuId() : gpuIds.get(0), address, value, count * 4, 0);
    } catch (KfdException e) {
      throw new HsaException(HsaStatus.ERROR, "SDMA fill: " + e.getMessage(), e);
    } catch (GpuMemoryFault f) {
      throw fault("SDMA fill", f);
    }
  }

  /** Copies host bytes into runtime memory: SDMA for VRAM (what the loader uses), the CPU mapping otherwise. */
  public void write(long dst, byte[] src, int offset, int length) throws HsaException {
    if (length == 0) return;
    Allocation a = require(dst, length, "write destination");
    try {
      if (a.isVram()) process.sdmaWrite(a.gpuId(), dst, src, offset, length);
      else hostView().write(dst, src, offset, length);
    } catch (KfdException e) {
      throw new HsaException(HsaStatus.ERROR, "SDMA write: " + e.getMessage(), e);
    } catch (GpuMemoryFault f) {
      throw fault("write", f);
    }
  }

  /** Copies runtime memory into host bytes (SDMA from VRAM, the CPU mapping otherwise). */
  public void read(long src, byte[] dst, int offset, int length) throws HsaException {
    if (length == 0) return;
    Allocation a = require(src, length, "read source");
    try {
      if (a.isVram()) process.sdmaRead(a.gpuId(), src, dst, offset, length);
      else hostView().read(src, dst, offset, length);
    } catch (KfdException e) {
      throw new HsaException(HsaStatus.ERROR, "SDMA read: " + e.getMessage(), e);
    } catch (GpuMemoryFault f) {
      throw fault("read", f);
    }
  }

  /** Copies a host buffer (from its position, all remaining bytes) into runtime memory; the position advances. */
  public void write(long dst, ByteBuffer src) throws HsaException {
    int total = src.remaining();
    require(dst, total, "write destination");
    byte[] staging = new byte[Math.min(total, CHUNK)];
    for (int done = 0; done < total; done += staging.length) {
      int n = Math.min(staging.length, total - done);
      src.get(staging, 0, n);
      write(dst + done, staging, 0, n);
    }
  }

  /** Fills a host buffer (from its position, all remaining bytes) from runtime memory; the position advances. */
  public void read(long src, ByteBuffer dst) throws HsaException {
    int total = dst.remaining();
    require(src, total, "read source");
    byte[] staging = new byte[Math.min(total, CHUNK)];
    for (int done = 0; done < total; done += staging.length) {
      int n = Math.min(staging.length, total - done);
      read(src + done, staging, 0, n);
      dst.put(staging, 0, n);
    }
  }

  private static HsaException fault(String what, GpuMemoryFault f) {
    return new HsaException(HsaStatus.MEMORY_APERTURE_VIOLATION, what + ": " + f.getMessage(), f);
  }

  /** Frees everything (runtime shutdown; the process close releases the driver side). */
  public synchronized void clear() {
    for (Allocation a : byAddress.values()) va.release(a.address());
    byAddress.clear();
  }
}
