package dev.hipsim.kfd;

import dev.hipsim.isa.mem.AccessKind;
import dev.hipsim.isa.mem.AtomicOp;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;
import dev.hipsim.kfd.mem.PageBacking;
import dev.hipsim.kfd.mem.SystemBus;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The process's CPU mappings of its buffers (what libhsakmt mmaps at the same address as the GPU VA): host loads,
 * stores and atomics by virtual address, whether or not the buffer is mapped to a GPU. Doorbell buffers are
 * register space: a store rings the queue. VRAM is host-visible only when allocated {@code PUBLIC}.
 */
final class HostView implements GpuMemory {
  /** hipsim's wording: the CPU touched VRAM that was not allocated host-visible. */
  static final String NOT_HOST_VISIBLE = "Host access to VRAM not allocated PUBLIC";

  private final ConcurrentSkipListMap<Long, Allocation> byVa;
  private final SystemBus bus;

  HostView(ConcurrentSkipListMap<Long, Allocation> byVa, SystemBus bus) {
    this.byVa = byVa;
    this.bus = bus;
  }

  private PageBacking page(long address, AccessKind kind) throws GpuMemoryFault {
    Map.Entry<Long, Allocation> e = byVa.floorEntry(address);
    Allocation a = e == null ? null : e.getValue();
    if (a == null || !a.contains(address)) throw new GpuMemoryFault(address, kind, GpuMemoryFault.PAGE_NOT_PRESENT);
    if (a.kind == Allocation.Kind.VRAM && (a.flags & AllocFlags.PUBLIC) == 0) {
      throw new GpuMemoryFault(address, kind, NOT_HOST_VISIBLE);
    }
    return a.page(address - a.va, kind != AccessKind.READ, bus);
  }

  private long load(long address, int size) throws GpuMemoryFault {
    int off = (int) address & 4095;
    if (off + size <= 4096) return page(address, AccessKind.READ).load(off, size);
    long v = 0;
    for (int k = 0; k < size; k++) v |= (load(address + k, 1) & 0xff) << (8 * k);
    return v;
  }

  private void store(long address, long value, int size) throws GpuMemoryFault {
    int off = (int) address & 4095;
    if (off + size <= 4096) {
      page(address, AccessKind.WRITE).store(off, value, size);
      return;
    }
    for (int k = 0; k < size; k++) store(address + k, value >>> (8 * k), 1);
  }

  @Override
  public byte load8(long address) throws GpuMemoryFault {
    return (byte) load(address, 1);
  }

  @Override
  public short load16(long address) throws GpuMemoryFault {
    return (short) load(address, 2);
  }

  @Override
  public int load32(long address) throws GpuMemoryFault {
    return (int) load(address, 4);
  }

  @Override
  public long load64(long address) throws GpuMemoryFault {
    return load(address, 8);
  }

  @Override
  public void store8(long address, byte value) throws GpuMemoryFault {
    store(address, value, 1);
  }

  @Override
  public void store16(long address, short value) throws GpuMemoryFault {
    store(address, value, 2);
  }

  @Override
  public void store32(long address, int value) throws GpuMemoryFault {
    store(address, value, 4);
  }

  @Override
  public void store64(long address, long value) throws GpuMemoryFault {
    store(address, value, 8);
  }

  @Override
  public void read(long address, byte[] dst, int offset, int length) throws GpuMemoryFault {
    int done = 0;
    while (done < length) {
      long a = address + done;
      int in = (int) a & 4095;
      int n = Math.min(length - done, 4096 - in);
      page(a, AccessKind.READ).read(in, dst, offset + done, n);
      done += n;
    }
  }

  @Override
  public void write(long address, byte[] src, int offset, int length) throws GpuMemoryFault {
    int done = 0;
    while (done < length) {
      long a = address + done;
      int in = (int) a & 4095;
      int n = Math.min(length - done, 4096 - in);
      page(a, AccessKind.WRITE).write(in, src, offset + done, n);
      done += n;
    }
  }

  @Override
  public int atomic32(AtomicOp op, long address, int value, int compare) throws GpuMemoryFault {
    if ((address & 3) != 0) throw new GpuMemoryFault(address, AccessKind.ATOMIC, "Misaligned atomic access");
    return page(address, AccessKind.ATOMIC).atomic32((int) address & 4095, op, value, compare);
  }

  @Override
  public long atomic64(AtomicOp op, long address, long value, long compare) throws GpuMemoryFault {
    if ((address & 7) != 0) throw new GpuMemoryFault(address, AccessKind.ATOMIC, "Misaligned atomic access");
    return page(address, AccessKind.ATOMIC).atomic64((int) address & 4095, op, value, compare);
  }
}
