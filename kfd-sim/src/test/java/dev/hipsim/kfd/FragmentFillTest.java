package dev.hipsim.kfd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.isa.mem.GpuMemoryFault;
import org.junit.jupiter.api.Test;

/**
 * A page-table walk caches the translations of the pages its PTE's fragment covers, up to an aligned group of
 * eight, whose frames hold data already: a kernel streaming through a buffer the host wrote walks once per group.
 * The translations it caches are as exact as walked ones, an unmap drops them with the rest, and a frame nothing
 * touched is never backed by a neighbour's walk.
 */
class FragmentFillTest {
  private static final int PAGE = 4096;
  private static final int FLAGS = AllocFlags.VRAM | AllocFlags.WRITABLE | AllocFlags.PUBLIC;

  private static final long VA = 0x50_0000_0000L;

  /**
   * Maps a buffer of {@code pages} at {@link #VA} and writes every page through the host's mapping (as hipMemcpy
   * does), which backs its frames; returns its handle.
   */
  private static long filled(Rig rig, int pages) throws Exception {
    long h = rig.mapped(VA, (long) pages * PAGE, FLAGS);
    for (int p = 0; p < pages; p++) rig.process.hostMemory().store32(VA + (long) p * PAGE + 8, -p);
    return h;
  }

  @Test
  void aWalkCachesTheRestOfItsAlignedGroupOfEightPages() throws Exception {
    try (Rig rig = new Rig(64L << 20)) {
      long va = VA;
      filled(rig, 64);
      long before = rig.vm.walks();
      for (int p = 0; p < 64; p++) rig.vm.store32(va + (long) p * PAGE + 12, p);
      assertThat(rig.vm.walks() - before).as("one walk per group of eight pages").isEqualTo(8);
      for (int p = 0; p < 64; p++) assertThat(rig.vm.load32(va + (long) p * PAGE + 12)).isEqualTo(p);
      assertThat(rig.vm.walks() - before).as("the loads hit").isEqualTo(8);
    }
  }

  @Test
  void aWalkInTheMiddleOfAGroupCachesThePagesBeforeItToo() throws Exception {
    try (Rig rig = new Rig(64L << 20)) {
      long va = VA;
      filled(rig, 16);
      long before = rig.vm.walks();
      for (int p = 13; p >= 0; p--) rig.vm.store64(va + (long) p * PAGE, p * 3L);
      assertThat(rig.vm.walks() - before).isEqualTo(2);
      for (int p = 0; p <= 13; p++) assertThat(rig.vm.load64(va + (long) p * PAGE)).isEqualTo(p * 3L);
    }
  }

  @Test
  void anUnmapDropsTheTranslationsAWalkCachedForPagesNeverTouched() throws Exception {
    try (Rig rig = new Rig(64L << 20)) {
      long va = VA;
      long h = filled(rig, 8);
      rig.vm.store32(va, 7); // caches the seven pages after it
      rig.process.unmapMemoryFromGpu(h, rig.gpu);
      for (int p = 0; p < 8; p++) {
        long a = va + (long) p * PAGE + 4;
        assertThatThrownBy(() -> rig.vm.load32(a)).as("page %d", p).isInstanceOf(GpuMemoryFault.class)
            .extracting(e -> ((GpuMemoryFault) e).reason()).isEqualTo(GpuMemoryFault.PAGE_NOT_PRESENT);
      }
    }
  }

  @Test
  void aGroupStopsAtTheEndOfTheFragmentItsPteNames() throws Exception {
    try (Rig rig = new Rig(64L << 20)) {
      // Three pages: fragments of two pages and one page, so a walk of the first covers the second only.
      long va = VA;
      filled(rig, 3);
      long before = rig.vm.walks();
      for (int p = 0; p < 3; p++) rig.vm.store32(va + (long) p * PAGE, p + 1);
      assertThat(rig.vm.walks() - before).isEqualTo(2);
      for (int p = 0; p < 3; p++) assertThat(rig.vm.load32(va + (long) p * PAGE)).isEqualTo(p + 1);
      // The page after the buffer is not mapped: no walk cached a translation for it.
      assertThatThrownBy(() -> rig.vm.load32(va + 3L * PAGE)).isInstanceOf(GpuMemoryFault.class);
    }
  }

  @Test
  void aWalkNeitherCachesNorBacksPagesNothingTouched() throws Exception {
    try (Rig rig = new Rig(64L << 20)) {
      long va = VA;
      rig.mapped(va, 64 * PAGE, FLAGS);
      long backed = rig.device.vram().backedPages();
      long before = rig.vm.walks();
      rig.vm.store32(va + 4 * PAGE, 1);
      assertThat(rig.device.vram().backedPages() - backed).as("the page stored to, alone").isEqualTo(1);
      for (int p = 0; p < 8; p++) rig.vm.store32(va + (long) p * PAGE, p);
      assertThat(rig.vm.walks() - before).as("one walk per page first touched").isEqualTo(8);
      for (int p = 0; p < 8; p++) assertThat(rig.vm.load32(va + (long) p * PAGE)).isEqualTo(p);
    }
  }
}
