package dev.hipsim.kfd.mem;

import dev.hipsim.isa.mem.AtomicMath;
import dev.hipsim.isa.mem.AtomicOp;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Byte-addressed, little-endian access to one 4 KiB page held as {@code long[512]}.
 *
 * <p>Pages are {@code long[]} rather than {@code byte[]} because the JDK only guarantees lock-free 64-bit atomics on
 * {@code long[]} elements (byte-array views lose atomic access modes on newer JDKs). The price is that a store
 * narrower than 8 bytes must merge into its word with a compare-and-set, so that two waves writing neighbouring
 * bytes of one word never lose each other's data. Loads are plain reads. Offsets are byte offsets in the page; the
 * caller guarantees {@code offset + size <= 4096}.
 */
public final class PageWords {
  private PageWords() {}

  public static final int PAGE_SIZE = 4096;
  public static final int WORDS = PAGE_SIZE / 8;

  private static final VarHandle WORD = MethodHandles.arrayElementVarHandle(long[].class);

  public static long[] newPage() {
    return new long[WORDS];
  }

  /** Reads {@code size} (1..8) bytes at {@code offset}, zero-extended. */
  public static long load(long[] page, int offset, int size) {
    int i = offset >>> 3;
    int shift = (offset & 7) << 3;
    long value = page[i] >>> shift;
    if (shift + (size << 3) > 64) value |= page[i + 1] << (64 - shift);
    return size == 8 ? value : value & ((1L << (size << 3)) - 1);
  }

  public static int load32(long[] page, int offset) {
    return (int) load(page, offset, 4);
  }

  public static long load64(long[] page, int offset) {
    return (offset & 7) == 0 ? page[offset >>> 3] : load(page, offset, 8);
  }

  /** Writes the low {@code size} (1..8) bytes of {@code value} at {@code offset}. */
  public static void store(long[] page, int offset, long value, int size) {
    int i = offset >>> 3;
    int byteInWord = offset & 7;
    long mask = size == 8 ? -1L : (1L << (size << 3)) - 1;
    long bits = value & mask;
    merge(page, i, mask << (byteInWord << 3), bits << (byteInWord << 3));
    int first = 8 - byteInWord;
    if (first < size) {
      int rest = size - first;
      merge(page, i + 1, (1L << (rest << 3)) - 1, bits >>> (first << 3));
    }
  }

  private static void merge(long[] page, int i, long mask, long bits) {
    if (mask == -1L) {
      page[i] = bits;
      return;
    }
    long old = page[i];
    while (true) {
      long witness = (long) WORD.compareAndExchange(page, i, old, (old & ~mask) | bits);
      if (witness == old) return;
      old = witness;
    }
  }

  /** A 32-bit atomic at a 4-byte aligned offset; returns the old value. */
  public static int atomic32(long[] page, int offset, AtomicOp op, int value, int compare) {
    int i = offset >>> 3;
    int shift = (offset & 4) << 3;
    long lane = 0xffff_ffffL << shift;
    switch (op) {
      case AND:
        return (int) ((long) WORD.getAndBitwiseAnd(page, i, ((value & 0xffff_ffffL) << shift) | ~lane) >>> shift);
      case OR:
        return (int) ((long) WORD.getAndBitwiseOr(page, i, (value & 0xffff_ffffL) << shift) >>> shift);
      case XOR:
        return (int) ((long) WORD.getAndBitwiseXor(page, i, (value & 0xffff_ffffL) << shift) >>> shift);
      default:
        break;
    }
    long old = (long) WORD.getVolatile(page, i);
    while (true) {
      int oldValue = (int) (old >>> shift);
      int newValue = AtomicMath.apply32(op, oldValue, value, compare);
      long updated = (old & ~lane) | ((newValue & 0xffff_ffffL) << shift);
      long witness = (long) WORD.compareAndExchange(page, i, old, updated);
      if (witness == old) return oldValue;
      old = witness;
    }
  }

  /** A 64-bit atomic at an 8-byte aligned offset; returns the old value. */
  public static long atomic64(long[] page, int offset, AtomicOp op, long value, long compare) {
    int i = offset >>> 3;
    switch (op) {
      case ADD: return (long) WORD.getAndAdd(page, i, value);
      case SUB: return (long) WORD.getAndAdd(page, i, -value);
      case SWAP: return (long) WORD.getAndSet(page, i, value);
      case AND: return (long) WORD.getAndBitwiseAnd(page, i, value);
      case OR: return (long) WORD.getAndBitwiseOr(page, i, value);
      case XOR: return (long) WORD.getAndBitwiseXor(page, i, value);
      case CMPSWAP: return (long) WORD.compareAndExchange(page, i, compare, value);
      default: break;
    }
    long old = (long) WORD.getVolatile(page, i);
    while (true) {
      long witness = (long) WORD.compareAndExchange(page, i, old, AtomicMath.apply64(op, old, value, compare));
      if (witness == old) return old;
      old = witness;
    }
  }

  /** A 64-bit load with acquire semantics, for words other agents update (page-table entries, signals). */
  public static long loadVolatile64(long[] page, int offset) {
    return (long) WORD.getVolatile(page, offset >>> 3);
  }

  /** A 64-bit store with release semantics at an 8-byte aligned offset. */
  public static void storeVolatile64(long[] page, int offset, long value) {
    WORD.setVolatile(page, offset >>> 3, value);
  }

  /** Copies {@code length} bytes of the page starting at {@code offset} into {@code dst}. */
  public static void read(long[] page, int offset, byte[] dst, int dstOffset, int length) {
    int pos = offset;
    int out = dstOffset;
    int end = offset + length;
    while (pos < end && (pos & 7) != 0) dst[out++] = (byte) load(page, pos++, 1);
    int words = (end - pos) >>> 3;
    if (words > 0) {
      // A little-endian long view of the byte array: the JDK copies whole runs of words at once.
      ByteBuffer.wrap(dst, out, words << 3).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().put(page, pos >>> 3, words);
      pos += words << 3;
      out += words << 3;
    }
    while (pos < end) dst[out++] = (byte) load(page, pos++, 1);
  }

  /** Copies {@code length} bytes from {@code src} into the page at {@code offset}. */
  public static void write(long[] page, int offset, byte[] src, int srcOffset, int length) {
    int pos = offset;
    int in = srcOffset;
    int end = offset + length;
    while (pos < end && (pos & 7) != 0) store(page, pos++, src[in++], 1);
    int words = (end - pos) >>> 3;
    if (words > 0) {
      ByteBuffer.wrap(src, in, words << 3).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(page, pos >>> 3, words);
      pos += words << 3;
      in += words << 3;
    }
    while (pos < end) store(page, pos++, src[in++], 1);
  }

  /** Copies bytes between pages (or within one page, forwards); word-at-a-time when both sides are aligned. */
  public static void copy(long[] dst, int dstOffset, long[] src, int srcOffset, int length) {
    if (((dstOffset | srcOffset | length) & 7) == 0) {
      System.arraycopy(src, srcOffset >>> 3, dst, dstOffset >>> 3, length >>> 3);
      return;
    }
    int done = 0;
    while (length - done >= 8) {
      store(dst, dstOffset + done, load(src, srcOffset + done, 8), 8);
      done += 8;
    }
    while (done < length) {
      store(dst, dstOffset + done, load(src, srcOffset + done, 1), 1);
      done++;
    }
  }

  /** Fills {@code length} bytes at {@code offset} with the repeating 32-bit pattern {@code value}. */
  public static void fill32(long[] page, int offset, int value, int length) {
    long word = (value & 0xffff_ffffL) | ((long) value << 32);
    int pos = offset;
    int end = offset + length;
    while (pos < end && (pos & 7) != 0) {
      store(page, pos, word >>> ((pos & 3) << 3), 1);
      pos++;
    }
    while (end - pos >= 8) {
      page[pos >>> 3] = word;
      pos += 8;
    }
    while (pos < end) {
      store(page, pos, word >>> ((pos & 3) << 3), 1);
      pos++;
    }
  }
}
