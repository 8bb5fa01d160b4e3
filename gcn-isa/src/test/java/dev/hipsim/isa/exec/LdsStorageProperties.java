package dev.hipsim.isa.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/** The dword-backed LDS behaves as little-endian bytes for every width and alignment. */
class LdsStorageProperties {
  private static final int SIZE = 256;

  @Property(tries = 300)
  void loadsAndStoresOfEveryWidthMatchAByteModel(@ForAll long seed) {
    Random r = new Random(seed);
    Lds lds = new Lds(SIZE);
    lds.reset(SIZE);
    ByteBuffer model = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
    for (int step = 0; step < 200; step++) {
      int width = 1 << r.nextInt(4);
      // Mostly aligned, as kernels access LDS, but every misalignment too.
      int address = r.nextInt(SIZE - width + 1);
      if (r.nextBoolean()) address &= -width;
      long value = r.nextLong();
      if (r.nextBoolean()) {
        switch (width) {
          case 1 -> { lds.store8(address, (int) value); model.put(address, (byte) value); }
          case 2 -> { lds.store16(address, (int) value); model.putShort(address, (short) value); }
          case 4 -> { lds.store32(address, (int) value); model.putInt(address, (int) value); }
          default -> { lds.store64(address, value); model.putLong(address, value); }
        }
      } else {
        long got = switch (width) {
          case 1 -> lds.load8(address);
          case 2 -> lds.load16(address);
          case 4 -> lds.load32(address);
          default -> lds.load64(address);
        };
        long want = switch (width) {
          case 1 -> model.get(address);
          case 2 -> model.getShort(address);
          case 4 -> model.getInt(address);
          default -> model.getLong(address);
        };
        assertThat(got).as("load of %d bytes at %d", width, address).isEqualTo(want);
      }
    }
    assertThat(lds.read(0, SIZE)).isEqualTo(model.array());
  }

  @Property(tries = 100)
  void resetZeroesWhatTheLastWorkgroupUsedAndWriteReadRoundTrips(@ForAll long seed) {
    Random r = new Random(seed);
    Lds lds = new Lds(SIZE);
    int used = 1 + r.nextInt(SIZE);
    lds.reset(used);
    byte[] data = new byte[used];
    r.nextBytes(data);
    lds.write(0, data);
    assertThat(lds.read(0, used)).isEqualTo(data);
    lds.reset(1 + r.nextInt(SIZE));
    assertThat(lds.read(0, SIZE)).isEqualTo(new byte[SIZE]);
  }
}
