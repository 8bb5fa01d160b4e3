package dev.hipsim.isa.interp;

import dev.hipsim.isa.mem.AccessKind;
import dev.hipsim.isa.mem.AtomicMath;
import dev.hipsim.isa.mem.AtomicOp;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;

/**
 * Pages of 64-bit words at {@code [base, base + 4096 * pages)}, as the simulated KFD's memory keeps them, with both
 * answers of {@link GpuMemory#readableWords}: the words for the pages marked cached, null for the others (whose
 * loads then go through {@link #load32}); pages marked unmapped fault. Addresses outside the range go to the
 * memory underneath (the test machine's code and scratch). Single-threaded, for tests.
 */
final class WordPagesMemory implements GpuMemory {
  private final GpuMemory below;
  private final long base;
  private final long[][] words;
  private final boolean[] cached;

  /** {@code kind[p]}: 0 unmapped, 1 mapped but not cached, 2 cached. */
  WordPagesMemory(GpuMemory below, long base, int[] kind) {
    this.below = below;
    this.base = base;
    this.words = new long[kind.length][];
    this.cached = new boolean[kind.length];
    for (int p = 0; p < kind.length; p++) {
      if (kind[p] > 0) words[p] = new long[512];
      cached[p] = kind[p] == 2;
    }
  }

  /** The words of every page (null for the unmapped ones): what a test compares. */
  long[][] contents() {
    long[][] copy = new long[words.length][];
    for (int p = 0; p < words.length; p++) copy[p] = words[p] == null ? null : words[p].clone();
    return copy;
  }

  /** Byte offset {@code a - base} when {@code a} is in the range, else -1. */
  private long inRange(long a) {
    long o = a - base;
    return o >= 0 && o < 4096L * words.length ? o : -1;
  }

  private long[] page(long a, AccessKind kind) throws GpuMemoryFault {
    long[] w = words[(int) ((a - base) >>> 12)];
    if (w == null) throw new GpuMemoryFault(a, kind, GpuMemoryFault.PAGE_NOT_PRESENT);
    return w;
  }

  @Override
  public long[] readableWords(long address) {
    long o = inRange(address);
    if (o < 0) return below.readableWords(address);
    int p = (int) (o >>> 12);
    return cached[p] ? words[p] : null;
  }

  /** {@code size} bytes, little-endian, byte by byte (each byte's page checked). */
  private long load(long a, int size) throws GpuMemoryFault {
    long v = 0;
    for (int i = 0; i < size; i++) {
      long b = a + i;
      long[] w = page(b, AccessKind.READ);
      v |= ((w[(int) ((b - base) >>> 3) & 511] >>> (8 * ((b - base) & 7))) & 0xff) << (8 * i);
    }
    return v;
  }

  private void store(long a, long value, int size) throws GpuMemoryFault {
    for (int i = 0; i < size; i++) page(a + i, AccessKind.WRITE); // fault before writing anything
    for (int i = 0; i < size; i++) {
      long b = a + i;
      long[] w = page(b, AccessKind.WRITE);
      int word = (int) ((b - base) >>> 3) & 511;
      int shift = (int) (8 * ((b - base) & 7));
      w[word] = (w[word] & ~(0xffL << shift)) | (((value >>> (8 * i)) & 0xff) << shift);
    }
  }

  @Override
  public byte load8(long address) throws GpuMemoryFault {
    return inRange(address) < 0 ? below.load8(address) : (byte) load(address, 1);
  }

  @Override
  public short load16(long address) throws GpuMemoryFault {
    return inRange(address) < 0 ? below.load16(address) : (short) load(address, 2);
  }

  @Override
  public int load32(long address) throws GpuMemoryFault {
    return inRange(address) < 0 ? below.load32(address) : (int) load(address, 4);
  }

  @Override
  public long load64(long address) throws GpuMemoryFault {
    return inRange(address) < 0 ? below.load64(address) : load(address, 8);
  }

  @Override
  public void store8(long address, byte value) throws GpuMemoryFault {
    if (inRange(address) < 0) below.store8(address, value); else store(address, value, 1);
  }

  @Override
  public void store16(long address, short value) throws GpuMemoryFault {
    if (inRange(address) < 0) below.store16(address, value); else store(address, value, 2);
  }

  @Override
  public void store32(long address, int value) throws GpuMemoryFault {
    if (inRange(address) < 0) below.store32(address, value); else store(address, value, 4);
  }

  @Override
  public void store64(long address, long value) throws GpuMemoryFault {
    if (inRange(address) < 0) below.store64(address, value); else store(address, value, 8);
  }

  @Override
  public void read(long address, byte[] dst, int offset, int length) throws GpuMemoryFault {
    if (inRange(address) < 0) {
      below.read(address, dst, offset, length);
      return;
    }
    for (int i = 0; i < length; i++) dst[offset + i] = (byte) load(address + i, 1);
  }

  @Override
  public void write(long address, byte[] src, int offset, int length) throws GpuMemoryFault {
    if (inRange(address) < 0) {
      below.write(address, src, offset, length);
      return;
    }
    for (int i = 0; i < length; i++) store(address + i, src[offset + i], 1);
  }

  @Override
  public void fetch(long address, byte[] dst, int offset, int length) throws GpuMemoryFault {
    if (inRange(address) < 0) {
      below.fetch(address, dst, offset, length);
      return;
    }
    read(address, dst, offset, length);
  }

  @Override
  public int atomic32(AtomicOp op, long address, int value, int compare) throws GpuMemoryFault {
    if (inRange(address) < 0) return below.atomic32(op, address, value, compare);
    int old = (int) load(address, 4);
    store(address, AtomicMath.apply32(op, old, value, compare), 4);
    return old;
  }

  @Override
  public long atomic64(AtomicOp op, long address, long value, long compare) throws GpuMemoryFault {
    if (inRange(address) < 0) return below.atomic64(op, address, value, compare);
    long old = load(address, 8);
    store(address, AtomicMath.apply64(op, old, value, compare), 8);
    return old;
  }
}
