package dev.hipsim.kfd.mem;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.mem.AtomicMath;
import dev.hipsim.isa.mem.AtomicOp;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/** Byte-addressed access to a {@code long[512]} page behaves exactly like a little-endian byte array. */
class PageWordsProperties {
  /** One operation: 0 load, 1 store, 2 atomic32, 3 atomic64, 4 bulk write, 5 bulk read, 6 copy within. */
  record Op(int kind, int offset, int size, long value, int op, int length, int other) {}

  @Provide
  Arbitrary<Op> ops() {
    return Combinators.combine(Arbitraries.integers().between(0, 6), Arbitraries.integers().between(0, 4095),
        Arbitraries.of(1, 2, 4, 8), Arbitraries.longs(), Arbitraries.integers().between(0, AtomicOp.values().length - 1),
        Arbitraries.integers().between(0, 300), Arbitraries.integers().between(0, 4095)).as(Op::new);
  }

  @Property(tries = 1000)
  void pageMatchesByteModel(@ForAll @Size(min = 1, max = 40) List<@net.jqwik.api.From("ops") Op> ops) {
    long[] page = PageWords.newPage();
    ByteBuffer model = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
    for (Op o : ops) {
      int size = o.size();
      int offset = Math.min(o.offset(), 4096 - size);
      switch (o.kind()) {
        case 0:
          assertThat(PageWords.load(page, offset, size)).isEqualTo(modelLoad(model, offset, size));
          break;
        case 1:
          PageWords.store(page, offset, o.value(), size);
          for (int k = 0; k < size; k++) model.put(offset + k, (byte) (o.value() >>> (8 * k)));
          break;
        case 2: {
          AtomicOp op = AtomicOp.values()[o.op()];
          int at = offset & ~3;
          int old = model.getInt(at);
          assertThat(PageWords.atomic32(page, at, op, (int) o.value(), old)).isEqualTo(old);
          model.putInt(at, AtomicMath.apply32(op, old, (int) o.value(), old));
          break;
        }
        case 3: {
          AtomicOp op = AtomicOp.values()[o.op()];
          if (op == AtomicOp.PK_FADD_F16 || op == AtomicOp.PK_FADD_BF16) break;
          int at = offset & ~7;
          long old = model.getLong(at);
          long compare = (o.value() & 1) == 0 ? old : ~old;
          assertThat(PageWords.atomic64(page, at, op, o.value(), compare)).isEqualTo(old);
          model.putLong(at, AtomicMath.apply64(op, old, o.value(), compare));
          break;
        }
        case 4: {
          int length = Math.min(o.length(), 4096 - o.offset());
          byte[] src = new byte[length];
          for (int k = 0; k < length; k++) src[k] = (byte) (o.value() * (k + 1) >>> 3);
          PageWords.write(page, o.offset(), src, 0, length);
          model.put(o.offset(), src, 0, length);
          break;
        }
        case 5: {
          int length = Math.min(o.length(), 4096 - o.offset());
          byte[] got = new byte[length];
          byte[] want = new byte[length];
          PageWords.read(page, o.offset(), got, 0, length);
          model.get(o.offset(), want, 0, length);
          assertThat(got).isEqualTo(want);
          break;
        }
        default: {
          int length = Math.min(o.length(), 4096 - Math.max(o.offset(), o.other()));
          long[] copy = page.clone();
          PageWords.copy(page, o.other(), copy, o.offset(), length);
          byte[] chunk = new byte[length];
          model.get(o.offset(), chunk, 0, length);
          model.put(o.other(), chunk, 0, length);
          break;
        }
      }
    }
    for (int i = 0; i < 4096; i += 8) assertThat(PageWords.load64(page, i)).isEqualTo(model.getLong(i));
  }

  @Property(tries = 300)
  void fillRepeatsTheDword(@ForAll("dwordOffsets") int offset, @ForAll("dwordOffsets") int length, @ForAll int value) {
    int n = Math.min(length, 4096 - offset);
    long[] page = PageWords.newPage();
    PageWords.fill32(page, offset, value, n);
    for (int i = 0; i < 4096; i += 4) {
      int expected = i >= offset && i < offset + n ? value : 0;
      assertThat(PageWords.load32(page, i)).isEqualTo(expected);
    }
  }

  @Provide
  Arbitrary<Integer> dwordOffsets() {
    return Arbitraries.integers().between(0, 1024).map(i -> i * 4);
  }

  private static long modelLoad(ByteBuffer model, int offset, int size) {
    long v = 0;
    for (int k = size - 1; k >= 0; k--) v = (v << 8) | (model.get(offset + k) & 0xff);
    return v;
  }
}
