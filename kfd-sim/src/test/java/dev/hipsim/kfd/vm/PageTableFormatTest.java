package dev.hipsim.kfd.vm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.kfd.mem.BuddyAllocator;
import dev.hipsim.kfd.mem.FrameStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The words the driver writes are GFX9's, in translate-further mode, and the walker reads them back. */
class PageTableFormatTest {
  private static final long RW = Pte.VALID | Pte.READABLE | Pte.WRITEABLE | Pte.mtype(Pte.MTYPE_RW);
  private FrameStore vram;
  private BuddyAllocator frames;
  private PageTables tables;

  @BeforeEach
  void setUp() throws Exception {
    vram = new FrameStore(64L << 20);
    frames = new BuddyAllocator(vram.frames());
    tables = new PageTables(vram, frames);
  }

  private long entry(long table, long va, int level) {
    return vram.loadWord(table + 8L * Pte.index(va, level));
  }

  @Test
  void twoMegabytePageIsAPdb0Pte() throws Exception {
    long va = 0x7f12_3440_0000L;
    long pa = 0x0060_0000L;
    tables.map(va, pa, 2L << 20, RW, true);
    long root = tables.rootAddress();
    long pdb2e = entry(root, va, 0);
    assertThat(pdb2e & Pte.VALID).isEqualTo(1);
    assertThat(pdb2e & (Pte.PDE_PTE | Pte.TRANSLATE_FURTHER | Pte.SYSTEM)).isZero();
    long pdb1e = entry(pdb2e & Pte.PDE_ADDRESS_MASK, va, 1);
    assertThat(Pte.blockFragmentSizeOf(pdb1e)).as("PDB1 entries carry BFS 9").isEqualTo(9);
    long pdb0e = entry(pdb1e & Pte.PDE_ADDRESS_MASK, va, 2);
    assertThat(pdb0e & Pte.TRANSLATE_FURTHER).as("a leaf, not a pointer to a PTB").isZero();
    assertThat(pdb0e & Pte.PDE_PTE).as("P is cleared at PDB0 in translate-further mode").isZero();
    assertThat(pdb0e & Pte.ADDRESS_MASK).isEqualTo(pa);
    assertThat(Pte.fragmentOf(pdb0e)).isEqualTo(9);
    assertThat(pdb0e & ~Pte.ADDRESS_MASK & ~Pte.FRAGMENT_MASK).isEqualTo(RW);
    assertThat(tables.tableFrames()).isEqualTo(3); // root, PDB1, PDB0: no PTB

    long inside = va + 0x12_3456;
    long pte = PageWalker.walk(vram, root, inside);
    assertThat(pte & Pte.ADDRESS_MASK).isEqualTo(pa + 0x12_3000);
    assertThat(pte & Pte.WRITEABLE).isNotZero();
  }

  @Test
  void fourKilobytePagesHangOffAPtbWithFragments() throws Exception {
    long va = 0x1000_0001_0000L; // 64 KiB aligned
    long pa = 0x0001_0000L;
    tables.map(va, pa, 64 << 10, RW | Pte.EXECUTABLE, true);
    long pdb0 = PageWalker.tableAddress(vram, tables.rootAddress(), va, 2);
    long pdb0e = entry(pdb0, va, 2);
    assertThat(pdb0e & Pte.TRANSLATE_FURTHER).as("F bit: translate further into a PTB").isNotZero();
    long ptb = pdb0e & Pte.PDE_ADDRESS_MASK;
    for (int i = 0; i < 16; i++) {
      long pte = entry(ptb, va + i * 4096L, 3);
      assertThat(pte & Pte.ADDRESS_MASK).isEqualTo(pa + i * 4096L);
      assertThat(Pte.fragmentOf(pte)).as("64 KiB aligned and contiguous: fragment 4").isEqualTo(4);
      assertThat(pte & Pte.EXECUTABLE).isNotZero();
    }
    assertThat(PageWalker.walk(vram, tables.rootAddress(), va + 16 * 4096L)).as("past the run").isZero();
  }

  @Test
  void misalignedRunsGetSmallerFragmentsAndNoHugePages() throws Exception {
    long va = 0x2000_0020_1000L; // not 2 MiB aligned
    tables.map(va, 0x0020_0000L, 2L << 20, RW, true);
    long root = tables.rootAddress();
    assertThat(Pte.fragmentOf(PageWalker.walk(vram, root, va))).isEqualTo(0);
    for (long off = 0; off < (2L << 20); off += 4096) {
      assertThat(PageWalker.walk(vram, root, va + off) & Pte.ADDRESS_MASK).isEqualTo(0x0020_0000L + off);
    }
    tables.map(0x3000_0000_0000L, 0x0090_0000L, 4096, RW | Pte.SYSTEM, false);
    assertThat(PageWalker.walk(vram, root, 0x3000_0000_0000L) & Pte.SYSTEM).isNotZero();
  }

  @Test
  void unmapClearsEntriesAndFreesEmptyTables() throws Exception {
    long before = frames.freeFrames();
    long va = 0x0000_7000_0000_0000L;
    tables.map(va, 0x10_0000, 5 * 4096, RW, true);
    tables.map(va + (2L << 20), 0x40_0000, 2L << 20, RW, true);
    assertThat(tables.tableFrames()).isEqualTo(4);
    long ptb = PageWalker.tableAddress(vram, tables.rootAddress(), va, 3);

    tables.unmap(va, 4096);
    assertThat(vram.loadWord(ptb + 8L * Pte.index(va, 3))).as("cleared PTEs keep X (GMC9 workaround)")
        .isEqualTo(Pte.INVALID_PTE);
    assertThat(PageWalker.walk(vram, tables.rootAddress(), va)).isZero();
    assertThat(PageWalker.walk(vram, tables.rootAddress(), va + 4096)).isNotZero();

    tables.unmap(va + 4096, 4 * 4096);
    assertThat(tables.tableFrames()).as("the empty PTB is freed").isEqualTo(3);
    tables.unmap(va + (2L << 20), 2L << 20);
    assertThat(tables.tableFrames()).isEqualTo(1);
    assertThat(frames.freeFrames()).isEqualTo(before);
    assertThat(vram.backedPages()).as("only the root stays backed").isEqualTo(1);
    tables.destroy();
    assertThat(vram.backedPages()).isZero();
  }

  @Test
  void runningOutOfVramForTablesIsReported() throws Exception {
    FrameStore tiny = new FrameStore(4 << 12);
    BuddyAllocator few = new BuddyAllocator(tiny.frames());
    PageTables t = new PageTables(tiny, few);
    few.allocBlock(1); // two of the remaining three frames
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> t.map(0x1000_0000L, 0, 4096, RW, false))
        .isInstanceOf(PageTables.OutOfVramException.class);
    t.unmap(0x1000_0000L, 4096);
    assertThat(t.tableFrames()).as("the half-built path is torn down").isEqualTo(1);
  }
}
