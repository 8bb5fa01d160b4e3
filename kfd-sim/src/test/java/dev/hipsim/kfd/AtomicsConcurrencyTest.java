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
  private static final int ROUNDS = 10_000;

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
    long bytes = base + 16;       // byte stores to neighbouring bytes of one word
    long w32 = base + 64;         // one 32-bit location per op from here
    long w64 = base + 256;        // one 64-bit location per op from here
    AtomicOp[] ops = {AtomicOp.ADD, AtomicOp.SUB, AtomicOp.SMIN, AtomicOp.UMIN, AtomicOp.SMAX, AtomicOp.UMAX,
        AtomicOp.AND, AtomicOp.OR, AtomicOp.XOR, AtomicOp.SWAP, AtomicOp.CMPSWAP, AtomicOp.INC, AtomicOp.DEC,
        AtomicOp.FADD};
    for (int i = 0; i < ops.length; i++) {
      boolean allOnes = ops[i] == AtomicOp.AND || ops[i] == AtomicOp.SMIN || ops[i] == AtomicOp.UMIN;
      m.store32(w32 + 4L * i, ops[i] == AtomicOp.DEC ? 1_000_000 : allOnes ? (ops[i] == AtomicOp.SMIN
          ? Integer.MAX_VALUE : -1) : 0);
      m.store64(w64 + 8L * i, ops[i] == AtomicOp.DEC ? 1_000_000 : allOnes ? (ops[i] == AtomicOp.SMIN
          ? Long.MAX_VALUE : -1L) : 0);
    }
    hammer((t, r) -> {
      m.atomic32(AtomicOp.ADD, add32Low, 3, 0);
      m.store32(plainHigh, r);
      m.atomic32(AtomicOp.ADD, add32High, 1, 0);
      m.store8(bytes + t, (byte) r);
      int v = t * ROUNDS + r;                    // distinct per thread and round
      int bit = t * 8 + r % 8;                   // each thread owns 8 bits
      for (int i = 0; i < ops.length; i++) {
        long a32 = w32 + 4L * i;
        long a64 = w64 + 8L * i;
        switch (ops[i]) {
          case ADD: m.atomic32(ops[i], a32, 2, 0); m.atomic64(ops[i], a64, 1L << 33, 0); break;
          case SUB: m.atomic32(ops[i], a32, 5, 0); m.atomic64(ops[i], a64, 5, 0); break;
          case SMIN: case UMIN: m.atomic32(ops[i], a32, v + 7, 0); m.atomic64(ops[i], a64, v + 7L, 0); break;
          case SMAX: case UMAX: m.atomic32(ops[i], a32, v, 0); m.atomic64(ops[i], a64, v, 0); break;
          case AND: m.atomic32(ops[i], a32, ~(1 << bit), 0); m.atomic64(ops[i], a64, ~(1L << (bit + 32)), 0); break;
          case OR: m.atomic32(ops[i], a32, 1 << bit, 0); m.atomic64(ops[i], a64, 1L << (bit + 32), 0); break;
          case XOR: m.atomic32(ops[i], a32, 1 << bit, 0); m.atomic64(ops[i], a64, 1L << (bit + 24), 0); break;
          case SWAP: m.atomic32(ops[i], a32, t + 1, 0); m.atomic64(ops[i], a64, t + 1L << 40, 0); break;
          case CMPSWAP:
            while (true) {
              int old = m.load32(a32);
              if (m.atomic32(ops[i], a32, old + 2, old) == old) break;
            }
            while (true) {
              long old = m.load64(a64);
              if (m.atomic64(ops[i], a64, old + (1L << 35), old) == old) break;
            }
            break;
          case INC: m.atomic32(ops[i], a32, 999, 0); m.atomic64(ops[i], a64, 999, 0); break;
          case DEC: m.atomic32(ops[i], a32, 2_000_000, 0); m.atomic64(ops[i], a64, 2_000_000, 0); break;
          default: // FADD
            m.atomic32(ops[i], a32, Float.floatToRawIntBits(1f), 0);
            m.atomic64(ops[i], a64, Double.doubleToRawLongBits(0.5), 0);
            break;
        }
      }
    });
    long n = (long) THREADS * ROUNDS;
    int max = (THREADS - 1) * ROUNDS + ROUNDS - 1;
    assertThat(m.load32(add32Low)).isEqualTo((int) (3 * n));
    assertThat(m.load32(plainHigh)).isEqualTo(ROUNDS - 1);
    assertThat(m.load32(add32High)).isEqualTo((int) n);
    assertThat(m.load32(base + 8)).as("the low half of the word beside the 32-bit adds is untouched").isZero();
    for (int t = 0; t < THREADS; t++) assertThat(m.load8(bytes + t)).isEqualTo((byte) (ROUNDS - 1));
    int ownBits = (int) ((1L << (8 * THREADS)) - 1);
    for (int i = 0; i < ops.length; i++) {
      long a32 = w32 + 4L * i;
      long a64 = w64 + 8L * i;
      int v32 = m.load32(a32);
      long v64 = m.load64(a64);
      switch (ops[i]) {
        case ADD: assertThat(v32).isEqualTo((int) (2 * n)); assertThat(v64).isEqualTo(n << 33); break;
        case SUB: assertThat(v32).isEqualTo((int) (-5 * n)); assertThat(v64).isEqualTo(-5 * n); break;
        case SMIN: case UMIN: assertThat(v32).isEqualTo(7); assertThat(v64).isEqualTo(7); break;
        case SMAX: case UMAX: assertThat(v32).isEqualTo(max); assertThat(v64).isEqualTo(max); break;
        case AND: assertThat(v32).isEqualTo(~ownBits); assertThat(v64).isEqualTo(~((long) ownBits << 32)); break;
        case OR: assertThat(v32).isEqualTo(ownBits); assertThat(v64).isEqualTo((ownBits & 0xffff_ffffL) << 32); break;
        case XOR: assertThat(v32).as("even flips").isZero(); assertThat(v64).isZero(); break;
        case SWAP:
          assertThat(v32).isBetween(1, THREADS);
          assertThat(v64 >>> 40).isBetween(1L, (long) THREADS);
          break;
        case CMPSWAP: assertThat(v32).isEqualTo((int) (2 * n)); assertThat(v64).isEqualTo(n << 35); break;
        case INC: assertThat(v32).as("INC wraps at 999").isEqualTo((int) (n % 1000));
          assertThat(v64).isEqualTo(n % 1000);
          break;
        case DEC: assertThat(v32).isEqualTo((int) (1_000_000 - n)); assertThat(v64).isEqualTo(1_000_000 - n); break;
        default:
          assertThat(Float.intBitsToFloat(v32)).isEqualTo((float) n);
          assertThat(Double.longBitsToDouble(v64)).isEqualTo(n * 0.5);
          break;
      }
    }
  }
}
