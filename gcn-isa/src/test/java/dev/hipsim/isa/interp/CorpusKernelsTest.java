package dev.hipsim.isa.interp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.decode.Target;
import java.nio.ByteBuffer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The corpus's hipcc-built kernels run by the interpreter on the flat test device, for the gfx90a (code object v4
 * and v5), gfx940 and gfx942 builds, each checked against a CPU reference that mirrors the program's own check in
 * {@code testdata/src/*.hip} (grids are smaller than the programs' so that the suite stays fast).
 */
class CorpusKernelsTest {
  static Stream<Arguments> builds() {
    return Stream.of(Arguments.of("gfx90a-v4", Target.GFX90A), Arguments.of("gfx90a-v5-xnack", Target.GFX90A),
        Arguments.of("gfx940-v5", Target.GFX940), Arguments.of("gfx942-v6-ccob3", Target.GFX942));
  }

  static final int MB = 1 << 20;

  @ParameterizedTest
  @MethodSource("builds")
  void matmulTiledUsesLdsAndBarriers(String variant, Target target) throws Exception {
    CorpusRun run = CorpusRun.load(variant, "matmul_tiled", target, 16 * MB);
    int m = 40;
    int n = 36;
    int k = 45;
    ByteBuffer a = CorpusRun.buffer(4 * m * k);
    ByteBuffer b = CorpusRun.buffer(4 * k * n);
    for (int i = 0; i < m * k; i++) a.putFloat(4 * i, (i % 7) - 3);
    for (int i = 0; i < k * n; i++) b.putFloat(4 * i, (i % 5) - 2);
    long da = run.upload(a);
    long db = run.upload(b);
    long dc = run.zeros(4L * m * n);
    run.launch("_Z6matmulPKfS0_Pfiii", new int[] {(n + 15) / 16, (m + 15) / 16}, new int[] {16, 16}, 0, 0, da, db, dc,
        m, n, k);
    ByteBuffer c = run.download(dc, 4 * m * n);
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < n; j++) {
        float r = 0;
        for (int q = 0; q < k; q++) r += a.getFloat(4 * (i * k + q)) * b.getFloat(4 * (q * n + j));
        assertThat(c.getFloat(4 * (i * n + j))).as("C[%d][%d]", i, j).isEqualTo(r);
      }
    }
  }

  @ParameterizedTest
  @MethodSource("builds")
  void reduceAtomicCombinesBlocksWithAtomics(String variant, Target target) throws Exception {
    CorpusRun run = CorpusRun.load(variant, "reduce_atomic", target, 16 * MB);
    int n = 20000;
    ByteBuffer h = CorpusRun.buffer(4 * n);
    long expect = 0;
    long expect64 = 0;
    int expectMax = 0;
    for (int i = 0; i < n; i++) {
      int v = (int) ((i * 2654435761L & 0xffffffffL) % 2001) - 1000;
      h.putInt(4 * i, v);
      expect += v;
      expect64 += (long) v * 1000003L;
      expectMax = Math.max(expectMax, v);
    }
    long din = run.upload(h);
    long dsum = run.zeros(4);
    long dmax = run.upload(CorpusRun.buffer(4).putInt(0, 0x80808080));
    long dsum64 = run.zeros(8);
    run.launch("_Z6reducePKiiPiS1_Py", new int[] {(n + 255) / 256}, new int[] {256}, 0, 0, din, n, dsum, dmax, dsum64);
    assertThat(run.download(dsum, 4).getInt(0)).isEqualTo((int) expect);
    assertThat(run.download(dmax, 4).getInt(0)).isEqualTo(expectMax);
    assertThat(run.download(dsum64, 8).getLong(0)).isEqualTo(expect64);
  }

  @ParameterizedTest
  @MethodSource("builds")
  void warpShuffleUsesPermutesDppAndBallots(String variant, Target target) throws Exception {
    CorpusRun run = CorpusRun.load(variant, "warp_shuffle", target, 16 * MB);
    int blocks = 8;
    int threads = 128;
    int n = blocks * threads;
    int w = 64;
    ByteBuffer in = CorpusRun.buffer(4 * n);
    for (int i = 0; i < n; i++) in.putInt(4 * i, (i * 37 + 11) % 101 - (i % 200 == 0 ? 300 : 0));
    long din = run.upload(in);
    long drot = run.zeros(4L * n);
    long dws = run.zeros(4L * n / w);
    long dxs = run.zeros(4L * n);
    long dball = run.zeros(8L * n / w);
    long dvotes = run.zeros(4L * n);
    run.launch("_Z8shufflesPKiPiS1_S1_PyS1_", new int[] {blocks}, new int[] {threads}, 0, 0, din, drot, dws, dxs,
        dball, dvotes);
    ByteBuffer rot = run.download(drot, 4 * n);
    ByteBuffer ws = run.download(dws, 4 * n / w);
    ByteBuffer xs = run.download(dxs, 4 * n);
    ByteBuffer ball = run.download(dball, 8 * n / w);
    ByteBuffer votes = run.download(dvotes, 4 * n);
    for (int wave = 0; wave < n / w; wave++) {
      int sum = 0;
      int any7 = 0;
      int allpos = 1;
      long bits = 0;
      for (int l = 0; l < w; l++) {
        int v = in.getInt(4 * (wave * w + l));
        sum += v;
        if (v % 3 == 0) bits |= 1L << l;
        any7 |= v == 7 ? 1 : 0;
        allpos &= v >= 0 ? 1 : 0;
      }
      assertThat(ws.getInt(4 * wave)).as("wave sum %d", wave).isEqualTo(sum);
      assertThat(ball.getLong(8 * wave)).as("ballot %d", wave).isEqualTo(bits);
      for (int l = 0; l < w; l++) {
        int i = wave * w + l;
        assertThat(rot.getInt(4 * i)).as("rotated %d", i).isEqualTo(in.getInt(4 * (wave * w + (l + 5) % w)));
        assertThat(xs.getInt(4 * i)).as("xor sum %d", i).isEqualTo(sum);
        assertThat(votes.getInt(4 * i)).as("votes %d", i).isEqualTo(any7 | allpos << 1 | 4);
      }
    }
  }

  @ParameterizedTest
  @MethodSource("builds")
  void int64MathDividesAndMultiplies(String variant, Target target) throws Exception {
    CorpusRun run = CorpusRun.load(variant, "int64_math", target, 16 * MB);
    int n = 512;
    ByteBuffer a = CorpusRun.buffer(8 * n);
    ByteBuffer b = CorpusRun.buffer(8 * n);
    long s = 0x9E3779B97F4A7C15L;
    for (int i = 0; i < n; i++) {
      s = s * 6364136223846793005L + 1442695040888963407L;
      a.putLong(8 * i, s >> (i % 40));
      s = s * 6364136223846793005L + 1442695040888963407L;
      long y = s >> (20 + i % 43);
      b.putLong(8 * i, y == 0 ? 3 : y);
    }
    long da = run.upload(a);
    long db = run.upload(b);
    long dout = run.zeros(64L * n);
    run.launch("_Z8int64opsPKlS0_Pli", new int[] {(n + 127) / 128}, new int[] {128}, 0, 0, da, db, dout, n);
    ByteBuffer out = run.download(dout, 64 * n);
    for (int i = 0; i < n; i++) {
      long x = a.getLong(8 * i);
      long y = b.getLong(8 * i);
      long[] r = {x * y, x / y, x % y, Long.divideUnsigned(x, y), Long.remainderUnsigned(x, y),
          (x << (i & 63)) ^ (x >> (y & 63)) ^ (x >>> (i % 61)), Math.multiplyHigh(x, y) + (x >> 63 & y) + (y >> 63 & x),
          Math.multiplyHigh(x, y) + (x < y ? 1 : -1)};
      for (int q = 0; q < 8; q++) assertThat(out.getLong(8 * (8 * i + q))).as("i=%d op=%d", i, q).isEqualTo(r[q]);
    }
  }

  /** The program's distance: ulps between two floats of the same sign, huge otherwise (or for one NaN). */
  static long ulps(double got, double want, boolean single) {
    if (Double.isNaN(got) || Double.isNaN(want)) return Double.isNaN(got) && Double.isNaN(want) ? 0 : 1L << 40;
    long ig = single ? Float.floatToRawIntBits((float) got) : Double.doubleToRawLongBits(got);
    long iw = single ? Float.floatToRawIntBits((float) want) : Double.doubleToRawLongBits(want);
    if ((ig < 0) != (iw < 0)) return got == want ? 0 : 1L << 40;
    return Math.abs(ig - iw);
  }

  @ParameterizedTest
  @MethodSource("builds")
  void floatMathThroughTheDeviceLibraries(String variant, Target target) throws Exception {
    CorpusRun run = CorpusRun.load(variant, "float_math", target, 16 * MB);
    int n = 512;
    ByteBuffer xf = CorpusRun.buffer(4 * n);
    ByteBuffer xd = CorpusRun.buffer(8 * n);
    for (int i = 0; i < n; i++) {
      // The program's inputs, sampled across its whole range (n = 2048 there).
      int j = 4 * i;
      xf.putFloat(4 * i, (j - 1024) * 0.0371f);
      xd.putDouble(8 * i, (j - 1024) * 0.0371);
    }
    long dxf = run.upload(xf);
    long dof = run.zeros(32L * n);
    long dxd = run.upload(xd);
    long dod = run.zeros(64L * n);
    run.launch("_Z5fmathPKfPfi", new int[] {n / 256}, new int[] {256}, 0, 0, dxf, dof, n);
    run.launch("_Z5dmathPKdPdi", new int[] {n / 256}, new int[] {256}, 0, 0, dxd, dod, n);
    ByteBuffer of = run.download(dof, 32 * n);
    ByteBuffer od = run.download(dod, 64 * n);
    long errors = 0;
    for (int i = 0; i < n; i++) {
      float v = xf.getFloat(4 * i);
      float av = Math.abs(v);
      float[] rf = {(float) Math.sin(v), (float) Math.cos(v), (float) Math.exp(v * 0.1f), (float) Math.log(av + 1.0f),
          (float) Math.sqrt(av), (float) Math.pow(av + 0.5f, 1.7f), (float) Math.atan2(v, 3.0f), v / (v * v + 1.0f)};
      double w = xd.getDouble(8 * i);
      double aw = Math.abs(w);
      double[] rd = {Math.sin(w), Math.cos(w), Math.exp(w * 0.1), Math.log(aw + 1.0), Math.sqrt(aw),
          Math.pow(aw + 0.5, 1.7), Math.atan2(w, 3.0), w / (w * w + 1.0)};
      for (int q = 0; q < 8; q++) {
        float gf = of.getFloat(4 * (8 * i + q));
        double gd = od.getDouble(8 * (8 * i + q));
        boolean nearZeroF = Math.abs(rf[q]) < 1e-6f && Math.abs(gf - rf[q]) < 1e-6f;
        boolean nearZeroD = Math.abs(rd[q]) < 1e-14 && Math.abs(gd - rd[q]) < 1e-14;
        if (ulps(gf, rf[q], true) > 4 && !nearZeroF) errors++;
        if (ulps(gd, rd[q], false) > 4 && !nearZeroD) errors++;
      }
    }
    assertThat(errors).as("results more than 4 ulps from the host's").isZero();
  }

  static int fib(int k) {
    return k < 2 ? k : fib(k - 1) + fib(k - 2);
  }

  static long ackermannish(int depth, long acc) {
    return depth == 0 ? acc : ackermannish(depth - 1, acc * 3 + depth) ^ depth;
  }

  @ParameterizedTest
  @MethodSource("builds")
  void scratchRecursionUsesPrivateMemoryAndCalls(String variant, Target target) throws Exception {
    CorpusRun run = CorpusRun.load(variant, "scratch_recursion", target, 48 * MB);
    int n = 192;
    ByteBuffer idx = CorpusRun.buffer(4 * n);
    for (int i = 0; i < n; i++) idx.putInt(4 * i, (i * 13) % 97);
    long didx = run.upload(idx);
    long dout = run.zeros(4L * n);
    long dout2 = run.zeros(8L * n);
    run.launch("_Z8scratchyPKiPiPli", new int[] {(n + 63) / 64}, new int[] {64}, 0, 0, didx, dout, dout2, n);
    ByteBuffer out = run.download(dout, 4 * n);
    ByteBuffer out2 = run.download(dout2, 8 * n);
    for (int i = 0; i < n; i++) {
      int sum = 0;
      for (int q = 0; q < 10; q++) {
        int j = (idx.getInt(4 * i) + 7 * q) % 40;
        sum += j * j + i;
      }
      assertThat(out.getInt(4 * i)).as("out[%d]", i).isEqualTo(sum + fib(i % 15));
      assertThat(out2.getLong(8 * i)).as("out2[%d]", i).isEqualTo(ackermannish(i % 20, i));
    }
  }

  /** IEEE binary16 round-to-nearest-even of a double (as the program computes it on the host), as a float. */
  static float roundHalf(double x) {
    if (x == 0 || Double.isInfinite(x) || Double.isNaN(x)) return (float) x;
    int exp = Math.max(Math.getExponent(x), -14);
    double ulp = Math.scalb(1.0, exp - 10);
    double r = Math.rint(x / ulp) * ulp;
    if (Math.abs(r) > 65504.0) return x > 0 ? Float.POSITIVE_INFINITY : Float.NEGATIVE_INFINITY;
    return (float) r;
  }

  @ParameterizedTest
  @MethodSource("builds")
  void halfPrecisionArithmetic(String variant, Target target) throws Exception {
    CorpusRun run = CorpusRun.load(variant, "half_precision", target, 16 * MB);
    int n = 1024;
    ByteBuffer a = CorpusRun.buffer(4 * n);
    ByteBuffer b = CorpusRun.buffer(4 * n);
    for (int i = 0; i < n; i++) {
      a.putFloat(4 * i, roundHalf((i % 300) * 0.173f - 20.0f));
      b.putFloat(4 * i, roundHalf(((i * 7) % 211) * 0.041f - 3.0f));
    }
    long da = run.upload(a);
    long db = run.upload(b);
    long dout = run.zeros(16L * n);
    run.launch("_Z6halvesPKfS0_Pfi", new int[] {n / 128}, new int[] {128}, 0, 0, da, db, dout, n);
    ByteBuffer out = run.download(dout, 16 * n);
    for (int i = 0; i < n; i++) {
      double x = a.getFloat(4 * i);
      double y = b.getFloat(4 * i);
      float s = roundHalf(x + y);
      float p = roundHalf(x * y);
      float f = roundHalf(x * y + s);
      float w = roundHalf(x * x) + roundHalf(y * y);
      assertThat(new float[] {out.getFloat(16 * i), out.getFloat(16 * i + 4), out.getFloat(16 * i + 8),
          out.getFloat(16 * i + 12)}).as("i=%d", i).containsExactly(s, p, f, w);
    }
  }

  @ParameterizedTest
  @MethodSource("builds")
  void mfmaTiles(String variant, Target target) throws Exception {
    CorpusRun run = CorpusRun.load(variant, "mfma", target, 16 * MB);
    int k = 32;
    ByteBuffer a = CorpusRun.buffer(2 * 32 * k);
    ByteBuffer b = CorpusRun.buffer(2 * k * 32);
    for (int i = 0; i < 32 * k; i++) a.putShort(2 * i, (short) dev.hipsim.isa.fp.Half.fromFloat((i % 9) - 4));
    for (int i = 0; i < k * 32; i++) b.putShort(2 * i, (short) dev.hipsim.isa.fp.Half.fromFloat((i % 7) - 3));
    long da = run.upload(a);
    long db = run.upload(b);
    long dd = run.zeros(4 * 32 * 32);
    run.launch("_Z6mfma32PKDF16_S0_Pfi", new int[] {1}, new int[] {64}, 0, 0, da, db, dd, k);
    ByteBuffer d = run.download(dd, 4 * 32 * 32);
    for (int i = 0; i < 32; i++) {
      for (int j = 0; j < 32; j++) {
        float r = 1.0f;
        for (int q = 0; q < k; q++) r += (float) ((i * k + q) % 9 - 4) * ((q * 32 + j) % 7 - 3);
        assertThat(d.getFloat(4 * (i * 32 + j))).as("D[%d][%d]", i, j).isEqualTo(r);
      }
    }
    ByteBuffer a2 = CorpusRun.buffer(256);
    ByteBuffer b2 = CorpusRun.buffer(256);
    for (int i = 0; i < 64; i++) {
      a2.putFloat(4 * i, (i % 5) - 2);
      b2.putFloat(4 * i, (i % 3) + 0.5f);
    }
    long da2 = run.upload(a2);
    long db2 = run.upload(b2);
    long dd2 = run.zeros(1024);
    run.launch("_Z6mfma16PKfS0_Pf", new int[] {1}, new int[] {64}, 0, 0, da2, db2, dd2);
    ByteBuffer d2 = run.download(dd2, 1024);
    for (int i = 0; i < 16; i++) {
      for (int j = 0; j < 16; j++) {
        float r = 0;
        for (int q = 0; q < 4; q++) r += a2.getFloat(4 * (i * 4 + q)) * b2.getFloat(4 * (q * 16 + j));
        assertThat(d2.getFloat(4 * (i * 16 + j))).as("D2[%d][%d]", i, j).isEqualTo(r);
      }
    }
  }

  @ParameterizedTest
  @MethodSource("builds")
  void dynamicSharedMemoryIn3d(String variant, Target target) throws Exception {
    CorpusRun run = CorpusRun.load(variant, "dynamic_shared_3d", target, 16 * MB);
    int x = 19;
    int y = 9;
    int z = 5;
    int n = x * y * z;
    ByteBuffer in = CorpusRun.buffer(4 * n);
    for (int i = 0; i < n; i++) in.putInt(4 * i, i % 997);
    long din = run.upload(in);
    long dout = run.zeros(4L * n);
    int[] block = {8, 4, 2};
    int[] grid = {(x + 7) / 8, (y + 3) / 4, (z + 1) / 2};
    int shmem = 2 * 8 * 4 * 2 * 4;
    run.launch("_Z9stencil3dPKiPiiii", grid, block, shmem, 0, din, dout, x, y, z);
    ByteBuffer out = run.download(dout, 4 * n);
    int nt = 64;
    for (int zz = 0; zz < z; zz++) {
      for (int yy = 0; yy < y; yy++) {
        for (int xx = 0; xx < x; xx++) {
          int bx = xx / 8;
          int by = yy / 4;
          int bz = zz / 2;
          int t = (zz % 2 * 4 + yy % 4) * 8 + xx % 8;
          int mm = nt - 1 - t;
          int mx = bx * 8 + mm % 8;
          int my = by * 4 + (mm / 8) % 4;
          int mz = bz * 2 + mm / 32;
          int mv = mx < x && my < y && mz < z ? in.getInt(4 * ((mz * y + my) * x + mx)) : 0;
          assertThat(out.getInt(4 * ((zz * y + yy) * x + xx))).as("(%d,%d,%d)", xx, yy, zz)
              .isEqualTo(mv * 1000 + bx + 10 * by + 100 * bz);
        }
      }
    }
  }
}
