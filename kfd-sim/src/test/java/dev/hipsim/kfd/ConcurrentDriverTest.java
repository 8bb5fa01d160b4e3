package dev.hipsim.kfd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.mem.GpuMemoryFault;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Several threads allocate, map, use, unmap and free buffers at once while another keeps reading a buffer that
 * stays mapped: every thread sees its own data, the long-lived mapping is never disturbed by the others' TLB
 * invalidations, and nothing leaks.
 */
class ConcurrentDriverTest {
  @Test
  void allocationsFromSeveralThreads() throws Exception {
    try (Rig rig = new Rig(64L << 20)) {
      long stable = 0x50_0000_0000L;
      rig.mapped(stable, 1 << 16, AllocFlags.VRAM | AllocFlags.WRITABLE);
      for (int i = 0; i < 1 << 16; i += 4) rig.vm.store32(stable + i, i);
      long freeBefore = rig.device.vramAllocator().freeFrames();
      List<Throwable> errors = new ArrayList<>();
      List<Thread> threads = new ArrayList<>();
      int[] reads = new int[1];
      Thread reader = new Thread(() -> {
        try {
          for (int k = 0; k < 200_000; k++) {
            int i = (k * 68) & 0xfffc;
            if (rig.vm.load32(stable + i) != i) throw new AssertionError("stable buffer changed at " + i);
            reads[0]++;
          }
        } catch (Throwable e) {
          synchronized (errors) {
            errors.add(e);
          }
        }
      });
      for (int t = 0; t < 3; t++) {
        int id = t;
        threads.add(new Thread(() -> {
          try {
            long va = 0x60_0000_0000L + id * (64L << 20);
            for (int round = 0; round < 150; round++) {
              long size = 4096L * (1 + (round * 37 + id) % 700);
              long h = rig.process.allocMemoryOfGpu(AllocRequest.of(va, size, rig.gpu,
                  AllocFlags.VRAM | AllocFlags.WRITABLE)).handle();
              rig.process.mapMemoryToGpu(h, rig.gpu);
              rig.vm.store64(va + size - 8, round * 1000L + id);
              rig.vm.store32(va, round);
              assertThat(rig.vm.load64(va + size - 8)).isEqualTo(round * 1000L + id);
              assertThat(rig.vm.load32(va)).isEqualTo(round);
              rig.process.unmapMemoryFromGpu(h, rig.gpu);
              rig.process.freeMemoryOfGpu(h);
              try {
                rig.vm.load32(va);
                throw new AssertionError("stale translation after unmap");
              } catch (GpuMemoryFault expected) {
                assertThat(expected.reason()).isEqualTo(GpuMemoryFault.PAGE_NOT_PRESENT);
              }
            }
          } catch (Throwable e) {
            synchronized (errors) {
              errors.add(e);
            }
          }
        }));
      }
      reader.start();
      threads.forEach(Thread::start);
      for (Thread t : threads) t.join();
      reader.join();
      if (!errors.isEmpty()) throw new AssertionError(errors.get(0));
      assertThat(reads[0]).isEqualTo(200_000);
      assertThat(rig.device.vramAllocator().freeFrames()).as("no frame leaked").isEqualTo(freeBefore);
      assertThat(rig.process.allocationCount()).isEqualTo(1);
    }
  }

  @Test
  void theTlbNeverServesAReplacedMapping() throws Exception {
    try (Rig rig = new Rig(16L << 20)) {
      long va = 0x70_0000_0000L;
      for (int round = 0; round < 50; round++) {
        long h = rig.mapped(va, 8192, AllocFlags.VRAM | AllocFlags.WRITABLE);
        assertThat(rig.vm.load32(va + 4)).as("a new buffer reads zero, not the last one's data").isZero();
        rig.vm.store32(va + 4, round + 1);
        rig.process.unmapMemoryFromGpu(h, rig.gpu);
        rig.process.freeMemoryOfGpu(h);
        // Same VA, other physical memory (GTT) next: a stale TLB entry would show the VRAM page.
        long g = rig.mapped(va, 8192, AllocFlags.GTT | AllocFlags.WRITABLE);
        assertThat(rig.vm.load32(va + 4)).isZero();
        rig.process.unmapMemoryFromGpu(g, rig.gpu);
        rig.process.freeMemoryOfGpu(g);
      }
      assertThat(rig.vm.walks()).as("each remap was walked again").isGreaterThanOrEqualTo(100);
    }
  }
}
