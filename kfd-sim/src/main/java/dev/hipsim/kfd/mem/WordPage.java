package dev.hipsim.kfd.mem;

import dev.hipsim.isa.mem.AtomicOp;

/** A RAM page (VRAM or system memory) held as {@code long[512]}. */
public final class WordPage implements PageBacking {
  private final long[] words;

  public WordPage(long[] words) {
    this.words = words;
  }

  @Override
  public long[] words() {
    return words;
  }

  @Override
  public long load(int offset, int size) {
    return PageWords.load(words, offset, size);
  }

  @Override
  public void store(int offset, long value, int size) {
    PageWords.store(words, offset, value, size);
  }

  @Override
  public int atomic32(int offset, AtomicOp op, int value, int compare) {
    return PageWords.atomic32(words, offset, op, value, compare);
  }

  @Override
  public long atomic64(int offset, AtomicOp op, long value, long compare) {
    return PageWords.atomic64(words, offset, op, value, compare);
  }

  @Override
  public void read(int offset, byte[] dst, int dstOffset, int length) {
    PageWords.read(words, offset, dst, dstOffset, length);
  }

  @Override
  public void write(int offset, byte[] src, int srcOffset, int length) {
    PageWords.write(words, offset, src, srcOffset, length);
  }
}
