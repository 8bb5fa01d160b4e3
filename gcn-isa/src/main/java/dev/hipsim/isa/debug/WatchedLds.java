package dev.hipsim.isa.debug;

import dev.hipsim.isa.exec.Lds;

/** A workgroup's LDS that reports accesses to watched offsets (LDS watchpoints apply to every workgroup). */
final class WatchedLds extends Lds {
  private final WatchSink sink;

  WatchedLds(int capacity, WatchSink sink) {
    super(capacity);
    this.sink = sink;
  }

  private void reportRead(int a, int size, long value) {
    if (sink.watched(AddressSpace.LDS, a, size)) sink.accessed(AddressSpace.LDS, a, size, false, value, value, true);
  }

  @Override
  public int load8(int address) {
    int v = super.load8(address);
    reportRead(address, 1, v & 0xff);
    return v;
  }

  @Override
  public int load16(int address) {
    int v = super.load16(address);
    reportRead(address, 2, v & 0xffff);
    return v;
  }

  @Override
  public int load32(int address) {
    int v = super.load32(address);
    reportRead(address, 4, v & 0xffff_ffffL);
    return v;
  }

  @Override
  public long load64(int address) {
    long v = super.load64(address);
    reportRead(address, 8, v);
    return v;
  }

  @Override
  public void store8(int address, int value) {
    if (!sink.watched(AddressSpace.LDS, address, 1)) {
      super.store8(address, value);
      return;
    }
    long old = super.load8(address) & 0xff;
    super.store8(address, value);
    sink.accessed(AddressSpace.LDS, address, 1, true, old, value & 0xff, true);
  }

  @Override
  public void store16(int address, int value) {
    if (!sink.watched(AddressSpace.LDS, address, 2)) {
      super.store16(address, value);
      return;
    }
    long old = super.load16(address) & 0xffff;
    super.store16(address, value);
    sink.accessed(AddressSpace.LDS, address, 2, true, old, value & 0xffff, true);
  }

  @Override
  public void store32(int address, int value) {
    if (!sink.watched(AddressSpace.LDS, address, 4)) {
      super.store32(address, value);
      return;
    }
    long old = super.load32(address) & 0xffff_ffffL;
    super.store32(address, value);
    sink.accessed(AddressSpace.LDS, address, 4, true, old, value & 0xffff_ffffL, true);
  }

  @Override
  public void store64(int address, long value) {
    if (!sink.watched(AddressSpace.LDS, address, 8)) {
      super.store64(address, value);
      return;
    }
    long old = super.load64(address);
    super.store64(address, value);
    sink.accessed(AddressSpace.LDS, address, 8, true, old, value, true);
  }
}
