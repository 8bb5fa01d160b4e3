package dev.hipsim.kfd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.mem.AtomicOp;
import dev.hipsim.isa.mem.GpuMemory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

/**
 * Threads standing in for waves hammer the same addresses with every atomic, while others store plainly into the
 * other half of the same 64-bit words; the totals come out exact, so no update is lost.
 */
class AtomicsConcurrencyTest {
  private static final int THREADS = 4;
  private static final int ROUNDS = 20_000;

  interface Body {
    void run(int thread, int round) throws Exception;
  }

  private static void hammer(Body body) throws Exception {
    CyclicBarrier start = new CyclicBarrier(THREADS);
    List<Throwable> errors = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int id = t;
      Thread th = new Thread(() -> {
        try {
          start.await();
          for (int r = 0; r < ROUNDS; r++) body.run(id, r);
        } catch (Throwable e) {
          synchronized (errors) {
            errors.add(e);
          }
        }
      });
      threads.add(th);
      th.start();
    }
    for (Thread th : threads) th.join();
    if (!errors.isEmpty()) throw new AssertionError(errors.get(0));
  }

  @Test
  void vramAtomicsAreExact() throws Exception {
    try (Rig rig = new Rig(16L << 20)) {
      long base = 0x40_0000_0000L;
      rig.mapped(base, 1 << 16, AllocFlags.VRAM | AllocFlags.WRITABLE);
      checkAll(rig.vm, base);
    }
  }

  @Test
  void userptrAtomicsAreExactOnDirectAndHeapBuffers() throws Exception {
    for (ByteBuffer user : new ByteBuffer[] {ByteBuffer.allocateDirect(1 << 16), ByteBuffer.allocate(1 << 16)}) {
      try (Rig rig = new Rig(16L << 20)) {
        long base = 0x40_0000_0000L;
        long h = rig.process.allocMemoryOfGpu(AllocRequest.userptr(base, 1 << 16, rig.gpu, AllocFlags.WRITABLE,
            0x7000_0000_0000L, user)).handle();
        rig.process.mapMemoryToGpu(h, rig.gpu);
        checkAll(rig.vm, base);
      }
    }
  }

  private static void checkAll(GpuMemory m, long base) throws Exception {
    long add32Low = base;         // 32-bit adds on the low half of a word ...
    long plainHigh = base + 4;    // ... while its high half is stored plainly
    long add32High = base + 8 + 4;
    long add64 = base + 16;
    long sub64 = base + 24;
    long inc = base + 32;
    long dec = base + 36;
    long cas = base + 40;
    long fadd = base + 48;
    long dadd = base + 56;
    long or = base + 64;
    long xor64 = base + 72;
    long max = base + 80;
    long min = base + 84;
    long xchg = base + 88;
    long bytes = base + 96;       // byte stores to neighbouring bytes of one word
    m.atomic32(AtomicOp.SWAP, dec, 1_000_000, 0);
    m.atomic32(AtomicOp.SWAP, min, Integer.MAX_VALUE, 0);
    hammer((t, r) -> {
      m.atomic32(AtomicOp.ADD, add32Low, 3, 0);
      m.store32(plainHigh, r);
      m.atomic32(AtomicOp.ADD, add32High, 1, 0);
      m.atomic64(AtomicOp.ADD, add64, 1L << 33, 0);
      m.atomic64(AtomicOp.SUB, sub64, 5, 0);
      m.atomic32(AtomicOp.INC, inc, 999, 0);
      m.atomic32(AtomicOp.DEC, dec, 2_000_000, 0);
      while (true) {
        int old = m.load32(cas);
        if (m.atomic32(AtomicOp.CMPSWAP, cas, old + 2, old) == old) break;
      }
      m.atomic32(AtomicOp.FADD, fadd, Float.floatToRawIntBits(1f), 0);
      m.atomic64(AtomicOp.FADD, dadd, Double.doubleToRawLongBits(0.5), 0);
      m.atomic32(AtomicOp.OR, or, 1 << (r % 32), 0);
      m.atomic64(AtomicOp.XOR, xor64, 1L << (t * 8 + r % 8), 0);
      m.atomic32(AtomicOp.SMAX, max, t * ROUNDS + r, 0);
      m.atomic32(AtomicOp.UMIN, min, t * ROUNDS + r + 7, 0);
      m.atomic32(AtomicOp.SWAP, xchg, t + 1, 0);
      m.store8(bytes + t, (byte) r);
    });
    long n = (long) THREADS * ROUNDS;
    assertThat(m.load32(add32Low)).isEqualTo((int) (3 * n));
    assertThat(m.load32(plainHigh)).isEqualTo(ROUNDS - 1);
    assertThat(m.load32(add32High)).isEqualTo((int) n);
    assertThat(m.load32(base + 8)).as("the low half of the word beside the 32-bit adds is untouched").isZero();
    assertThat(m.load64(add64)).isEqualTo(n << 33);
    assertThat(m.load64(sub64)).isEqualTo(-5 * n);
    assertThat(m.load32(inc)).as("INC wraps at 999").isEqualTo((int) (n % 1000));
    assertThat(m.load32(dec)).isEqualTo((int) (1_000_000 - n));
    assertThat(m.load32(cas)).isEqualTo((int) (2 * n));
    assertThat(Float.intBitsToFloat(m.load32(fadd))).isEqualTo((float) n);
    assertThat(Double.longBitsToDouble(m.load64(dadd))).isEqualTo(n * 0.5);
    assertThat(m.load32(or)).isEqualTo(-1);
    assertThat(m.load64(xor64)).as("each bit flipped an even number of times").isZero();
    assertThat(m.load32(max)).isEqualTo((THREADS - 1) * ROUNDS + ROUNDS - 1);
    assertThat(m.load32(min)).isEqualTo(7);
    assertThat(m.load32(xchg)).isBetween(1, THREADS);
    for (int t = 0; t < THREADS; t++) assertThat(m.load8(bytes + t)).isEqualTo((byte) (ROUNDS - 1));
  }
}
