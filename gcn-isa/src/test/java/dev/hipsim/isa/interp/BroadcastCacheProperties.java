package dev.hipsim.isa.interp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.exec.Wave;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * {@link BroadcastCache} always hands back the value asked for in every lane, whatever came before it: values
 * repeated (hits), values sharing an entry (evictions), the same low dword at both widths.
 */
class BroadcastCacheProperties {
  @Property(tries = 300)
  void everyBroadcastHoldsItsValueInEveryLane(@ForAll long seed) {
    Random r = new Random(seed);
    // A small pool, so that values come back and collide; some share their low dword with a 64-bit value.
    long[] pool = new long[2 + r.nextInt(24)];
    for (int i = 0; i < pool.length; i++) {
      pool[i] = switch (r.nextInt(4)) {
        case 0 -> r.nextInt(65) - 16; // inline constants
        case 1 -> 0x7f00_0000_0000L + ((long) r.nextInt(1 << 16) << 12); // pointers
        case 2 -> i > 0 ? (pool[i - 1] & 0xffff_ffffL) | ((long) r.nextInt() << 32) : r.nextLong();
        default -> r.nextLong();
      };
    }
    BroadcastCache cache = new BroadcastCache();
    for (int step = 0; step < 200; step++) {
      long value = pool[r.nextInt(pool.length)];
      if (r.nextBoolean()) {
        int[] lanes = cache.of64(value);
        for (int l = 0; l < Wave.LANES; l++) {
          assertThat(lanes[l]).as("low dword, lane %d, step %d", l, step).isEqualTo((int) value);
          assertThat(lanes[Wave.LANES + l]).as("high dword, lane %d, step %d", l, step)
              .isEqualTo((int) (value >>> 32));
        }
      } else {
        int[] lanes = cache.of32((int) value);
        for (int l = 0; l < Wave.LANES; l++) {
          assertThat(lanes[l]).as("lane %d, step %d", l, step).isEqualTo((int) value);
        }
      }
    }
  }
}
