package dev.hipsim.isa.interp;

import dev.hipsim.isa.exec.Wave;
import java.util.Arrays;

/**
 * Scalar operands spread over the 64 lanes, as the whole-wave VALU loops read them, kept for reuse. A kernel
 * broadcasts the same few values over and over (kernel-argument pointers and sizes, inline constants, a
 * workgroup's base index for each of its waves), and filling 64 lanes costs a VALU instruction as much as its own
 * loop. Each source slot of an instruction has its own cache, so one instruction's broadcasts never evict each
 * other. Lanes 0..63 hold the low dwords, 64..127 the high dwords of a 64-bit value.
 *
 * <p>The arrays it returns are read-only for their users: the next broadcast of the same value returns them as
 * they are. One per worker thread ({@link Ctx}); never shared.
 */
final class BroadcastCache {
  /**
   * Direct-mapped: a power of two, indexed by a hash of the value. A vector add broadcasts about ten values per wave,
   * most of them through source slot 0: with 8 entries the lookups took 4.9% of a warm C1 profile of vadd 4M, 3.0%
   * with 16, 1.4% with 32 (16 KB per slot).
   */
  private static final int ENTRIES = 32;
  private static final int INDEX_SHIFT = Long.SIZE - Integer.numberOfTrailingZeros(ENTRIES);

  /** Each entry's lanes, allocated on first use: an interpreter, and so a cache, is made per worker per dispatch. */
  private final int[][] lanes = new int[ENTRIES][];
  private final long[] values = new long[ENTRIES];
  /** The width each entry was filled at, 0 for an empty entry. */
  private final int[] widths = new int[ENTRIES];

  /** The 64 lanes of a 32-bit value. */
  int[] of32(int value) {
    long key = value & 0xffff_ffffL;
    int e = index(key);
    if (widths[e] == 32 && values[e] == key) return lanes[e];
    int[] out = refill(e, key, 32);
    Arrays.fill(out, 0, Wave.LANES, value);
    return out;
  }

  /** The 64 lanes of a 64-bit value, low dwords then high dwords. */
  int[] of64(long value) {
    int e = index(value);
    if (widths[e] == 64 && values[e] == value) return lanes[e];
    int[] out = refill(e, value, 64);
    Arrays.fill(out, 0, Wave.LANES, (int) value);
    Arrays.fill(out, Wave.LANES, 2 * Wave.LANES, (int) (value >>> 32));
    return out;
  }

  /** Entry {@code e}'s array, now to hold {@code value} at {@code width}. */
  private int[] refill(int e, long value, int width) {
    int[] out = lanes[e];
    if (out == null) {
      out = new int[2 * Wave.LANES];
      lanes[e] = out;
    }
    values[e] = value;
    widths[e] = width;
    return out;
  }

  /** Fibonacci hashing: pointers and small constants alike spread over the entries by their high product bits. */
  private static int index(long key) {
    return (int) ((key * 0x9E37_79B9_7F4A_7C15L) >>> INDEX_SHIFT);
  }
}
