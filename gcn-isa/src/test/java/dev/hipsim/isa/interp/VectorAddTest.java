package dev.hipsim.isa.interp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.exec.DispatchStats;
import dev.hipsim.testing.Corpus;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The hipcc-built vector_add kernel, run by the interpreter on a flat test device. */
class VectorAddTest {

  @ParameterizedTest
  @CsvSource({"gfx90a-v4, 0-gfx90a, GFX90A", "gfx90a-v5-xnack, 0-gfx90a_xnack-, GFX90A", "gfx940-v5, 0-gfx940, GFX940",
      "gfx942-v6-ccob3, 0-gfx942, GFX942"})
  void addsTwoVectors(String variant, String co, String target) throws Exception {
    TestDevice dev = new TestDevice(Target.valueOf(target), 16 << 20);
    byte[] image = Corpus.read(Corpus.root().resolve(variant).resolve("vector_add.co").resolve(co + ".hsaco"));
    TestDevice.Loaded loaded = dev.load(image);
    int n = 10_000;
    long a = dev.alloc(4L * n);
    long b = dev.alloc(4L * n);
    long c = dev.alloc(4L * n);
    ByteBuffer av = ByteBuffer.allocate(4 * n).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer bv = ByteBuffer.allocate(4 * n).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < n; i++) {
      av.putFloat(4 * i, 0.5f * i);
      bv.putFloat(4 * i, 1.0f - 0.25f * i);
    }
    dev.write(a, av.array());
    dev.write(b, bv.array());
    byte[] kernargs = kernargs(variant, a, b, c, n, (n + 255) / 256, 256);
    DispatchStats stats = dev.dispatch("vadd", loaded.kernel("_Z4vaddPKfS0_Pfi"), new int[] {((n + 255) / 256) * 256},
        new int[] {256}, kernargs, 0, 2);
    ByteBuffer cv = ByteBuffer.wrap(dev.read(c, 4 * n)).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < n; i++) {
      assertThat(cv.getFloat(4 * i)).as("c[%d]", i).isEqualTo(0.5f * i + (1.0f - 0.25f * i));
    }
    assertThat(stats.waves()).isEqualTo(40 * 4);
  }

  /** Explicit arguments, then the hidden ones of code object v4 or v5/v6 the way CLR fills them. */
  static byte[] kernargs(String variant, long a, long b, long c, int n, int blocks, int block) {
    ByteBuffer k = ByteBuffer.allocate(512).order(ByteOrder.LITTLE_ENDIAN);
    k.putLong(0, a).putLong(8, b).putLong(16, c).putInt(24, n);
    if (!variant.contains("v4")) {
      int h = 32;
      k.putInt(h, blocks).putInt(h + 4, 1).putInt(h + 8, 1);
      k.putShort(h + 12, (short) block).putShort(h + 14, (short) 1).putShort(h + 16, (short) 1);
      k.putShort(h + 64, (short) 1); // grid dims
    }
    return k.array();
  }
}
