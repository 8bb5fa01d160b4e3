package dev.hipsim.isa.debug;

import dev.hipsim.isa.mem.AtomicOp;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;

/**
 * Global memory as a debugged dispatch sees it: every access is checked against the global watchpoints, writes
 * remember the old value. Instruction fetches and the debugger's own reads use the memory underneath.
 */
final class WatchedMemory implements GpuMemory {
  private final GpuMemory memory;
  private final WatchSink sink;

  WatchedMemory(GpuMemory memory, WatchSink sink) {
    this.memory = memory;
    this.sink = sink;
  }

  private void read(long a, int size, long value) {
    if (sink.watched(AddressSpace.GLOBAL, a, size)) sink.accessed(AddressSpace.GLOBAL, a, size, false, value, value, true);
  }

  @Override
  public byte load8(long address) throws GpuMemoryFault {
    byte v = memory.load8(address);
    read(address, 1, v & 0xff);
    return v;
  }

  @Override
  public short load16(long address) throws GpuMemoryFault {
    short v = memory.load16(address);
    read(address, 2, v & 0xffff);
    return v;
  }

  @Override
  public int load32(long address) throws GpuMemoryFault {
    int v = memory.load32(address);
    read(address, 4, v & 0xffff_ffffL);
    return v;
  }

  @Override
  public long load64(long address) throws GpuMemoryFault {
    long v = memory.load64(address);
    read(address, 8, v);
    return v;
  }

  @Override
  public void store8(long address, byte value) throws GpuMemoryFault {
    if (!sink.watched(AddressSpace.GLOBAL, address, 1)) {
      memory.store8(address, value);
      return;
    }
    long old = memory.load8(address) & 0xff;
    memory.store8(address, value);
    sink.accessed(AddressSpace.GLOBAL, address, 1, true, old, value & 0xff, true);
  }

  @Override
  public void store16(long address, short value) throws GpuMemoryFault {
    if (!sink.watched(AddressSpace.GLOBAL, address, 2)) {
      memory.store16(address, value);
      return;
    }
    long old = memory.load16(address) & 0xffff;
    memory.store16(address, value);
    sink.accessed(AddressSpace.GLOBAL, address, 2, true, old, value & 0xffff, true);
  }

  @Override
  public void store32(long address, int value) throws GpuMemoryFault {
    if (!sink.watched(AddressSpace.GLOBAL, address, 4)) {
      memory.store32(address, value);
      return;
    }
    long old = memory.load32(address) & 0xffff_ffffL;
    memory.store32(address, value);
    sink.accessed(AddressSpace.GLOBAL, address, 4, true, old, value & 0xffff_ffffL, true);
  }

  @Override
  public void store64(long address, long value) throws GpuMemoryFault {
    if (!sink.watched(AddressSpace.GLOBAL, address, 8)) {
      memory.store64(address, value);
      return;
    }
    long old = memory.load64(address);
    memory.store64(address, value);
    sink.accessed(AddressSpace.GLOBAL, address, 8, true, old, value, true);
  }

  @Override
  public void read(long address, byte[] dst, int offset, int length) throws GpuMemoryFault {
    memory.read(address, dst, offset, length);
    if (sink.watched(AddressSpace.GLOBAL, address, length)) {
      sink.accessed(AddressSpace.GLOBAL, address, length, false, 0, 0, false);
    }
  }

  @Override
  public void write(long address, byte[] src, int offset, int length) throws GpuMemoryFault {
    memory.write(address, src, offset, length);
    if (sink.watched(AddressSpace.GLOBAL, address, length)) {
      sink.accessed(AddressSpace.GLOBAL, address, length, true, 0, 0, false);
    }
  }

  @Override
  public void fetch(long address, byte[] dst, int offset, int length) throws GpuMemoryFault {
    memory.fetch(address, dst, offset, length);
  }

  @Override
  public int atomic32(AtomicOp op, long address, int value, int compare) throws GpuMemoryFault {
    int old = memory.atomic32(op, address, value, compare);
    if (sink.watched(AddressSpace.GLOBAL, address, 4)) {
      long now = memory.load32(address) & 0xffff_ffffL;
      sink.accessed(AddressSpace.GLOBAL, address, 4, true, old & 0xffff_ffffL, now, true);
    }
    return old;
  }

  @Override
  public long atomic64(AtomicOp op, long address, long value, long compare) throws GpuMemoryFault {
    long old = memory.atomic64(op, address, value, compare);
    if (sink.watched(AddressSpace.GLOBAL, address, 8)) {
      sink.accessed(AddressSpace.GLOBAL, address, 8, true, old, memory.load64(address), true);
    }
    return old;
  }
}
