package dev.hipsim.kfd.mem;

import dev.hipsim.isa.mem.AtomicOp;

/** Reads of a RAM frame nobody has touched yet: all zero. Only ever handed out for reads. */
public final class ZeroPage implements PageBacking {
  public static final ZeroPage INSTANCE = new ZeroPage();

  private ZeroPage() {}

  @Override
  public long load(int offset, int size) {
    return 0;
  }

  @Override
  public void store(int offset, long value, int size) {
    throw new IllegalStateException("the zero page is read-only");
  }

  @Override
  public int atomic32(int offset, AtomicOp op, int value, int compare) {
    throw new IllegalStateException("the zero page is read-only");
  }

  @Override
  public long atomic64(int offset, AtomicOp op, long value, long compare) {
    throw new IllegalStateException("the zero page is read-only");
  }

  @Override
  public void read(int offset, byte[] dst, int dstOffset, int length) {
    java.util.Arrays.fill(dst, dstOffset, dstOffset + length, (byte) 0);
  }

  @Override
  public void write(int offset, byte[] src, int srcOffset, int length) {
    throw new IllegalStateException("the zero page is read-only");
  }
}
