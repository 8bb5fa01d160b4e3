package dev.hipsim.kfd.queue;

import dev.hipsim.isa.mem.AtomicOp;
import dev.hipsim.kfd.mem.PageBacking;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A process's doorbells on one device: 1024 doorbells of 8 bytes (GFX9+), two pages of the doorbell BAR. A store to
 * a doorbell (by the host through its mapping, or by the GPU) records the value and rings the queue that owns it.
 */
public final class DoorbellSlice {
  public static final int DOORBELLS = 1024;
  public static final int DOORBELL_SIZE = 8;
  public static final int BYTES = DOORBELLS * DOORBELL_SIZE;
  private static final int PER_PAGE = 4096 / DOORBELL_SIZE;

  private final AtomicLongArray values = new AtomicLongArray(DOORBELLS);
  private final AqlQueue[] owners = new AqlQueue[DOORBELLS];
  private final PageBacking[] pages = {new Page(0), new Page(1)};

  /** Assigns a free doorbell to {@code queue}; returns its index, or -1 if all are taken. */
  public synchronized int allocate(AqlQueue queue) {
    for (int i = 0; i < DOORBELLS; i++) {
      if (owners[i] == null) {
        owners[i] = queue;
        queue.doorbell(i);
        values.set(i, 0);
        return i;
      }
    }
    return -1;
  }

  public synchronized void release(int index) {
    owners[index] = null;
  }

  private synchronized AqlQueue owner(int index) {
    return owners[index];
  }

  /** The two register pages, for mapping into the GPU and host address spaces. */
  public PageBacking[] pages() {
    return pages.clone();
  }

  /** A doorbell write: records the value and rings the owning queue, if any. */
  public void write(int index, long value) {
    values.set(index, value);
    AqlQueue q = owner(index);
    if (q != null) q.ring(value);
  }

  public long read(int index) {
    return values.get(index);
  }

  /** One doorbell page as register space: 8-byte doorbells, writes ring, reads return the last value. */
  private final class Page implements PageBacking {
    private final int first;

    Page(int page) {
      this.first = page * PER_PAGE;
    }

    private int doorbell(int offset) {
      return first + offset / DOORBELL_SIZE;
    }

    @Override
    public long load(int offset, int size) {
      long v = DoorbellSlice.this.read(doorbell(offset)) >>> (8 * (offset % DOORBELL_SIZE));
      return size == 8 ? v : v & ((1L << (8 * size)) - 1);
    }

    @Override
    public void store(int offset, long value, int size) {
      // Doorbells take 32- or 64-bit writes of the whole register; anything narrower is ignored, as by the BAR.
      if (offset % DOORBELL_SIZE == 0 && (size == 8 || size == 4)) {
        DoorbellSlice.this.write(doorbell(offset), size == 8 ? value : value & 0xffff_ffffL);
      }
    }

    @Override
    public int atomic32(int offset, AtomicOp op, int value, int compare) {
      return (int) load(offset, 4); // register space has no atomics
    }

    @Override
    public long atomic64(int offset, AtomicOp op, long value, long compare) {
      return load(offset, 8);
    }

    @Override
    public void read(int offset, byte[] dst, int dstOffset, int length) {
      for (int k = 0; k < length; k++) dst[dstOffset + k] = (byte) load(offset + k, 1);
    }

    @Override
    public void write(int offset, byte[] src, int srcOffset, int length) {
      for (int k = 0; k + 8 <= length; k += 8) {
        if ((offset + k) % DOORBELL_SIZE != 0) continue;
        long v = 0;
        for (int b = 7; b >= 0; b--) v = (v << 8) | (src[srcOffset + k + b] & 0xff);
        store(offset + k, v, 8);
      }
    }
  }
}
