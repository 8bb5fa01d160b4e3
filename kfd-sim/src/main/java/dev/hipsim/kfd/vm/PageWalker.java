package dev.hipsim.kfd.vm;

import dev.hipsim.kfd.mem.FrameStore;

/**
 * The hardware's page-table walk (UTCL2): reads the PDB2 → PDB1 → PDB0 [→ PTB] words from VRAM. The words are the
 * truth; nothing here consults the driver's bookkeeping. Huge (P-bit) entries above PDB0 are not produced by the
 * driver and are treated as not present.
 */
public final class PageWalker {
  private PageWalker() {}

  /**
   * Translates {@code va} (below {@link Pte#VA_LIMIT}) through the tables rooted at VRAM address {@code root}.
   * Returns the leaf's PTE rewritten to describe the 4 KiB page holding {@code va} (its flags, and the physical
   * address of that 4 KiB page in bits 47:12), or 0 if no valid leaf maps it.
   */
  public static long walk(FrameStore vram, long root, long va) {
    long pdb1 = vram.loadWord(root + 8L * Pte.index(va, 0));
    if (!Pte.isValid(pdb1) || (pdb1 & Pte.PDE_PTE) != 0) return 0;
    long pdb0 = vram.loadWord((pdb1 & Pte.PDE_ADDRESS_MASK) + 8L * Pte.index(va, 1));
    if (!Pte.isValid(pdb0) || (pdb0 & Pte.PDE_PTE) != 0) return 0;
    long entry = vram.loadWord((pdb0 & Pte.PDE_ADDRESS_MASK) + 8L * Pte.index(va, 2));
    if (!Pte.isValid(entry)) return 0;
    if ((entry & Pte.TRANSLATE_FURTHER) == 0) {
      // A 2 MiB page: the PDB1 entry's block fragment size (9) makes PDB0 a table of 2 MiB PTEs.
      long base = entry & Pte.ADDRESS_MASK & ~(Pte.HUGE_SIZE - 1);
      return (entry & ~Pte.ADDRESS_MASK) | base | (va & (Pte.HUGE_SIZE - 1) & ~(Pte.PAGE_SIZE - 1));
    }
    long pte = vram.loadWord((entry & Pte.PDE_ADDRESS_MASK) + 8L * Pte.index(va, 3));
    return Pte.isValid(pte) ? pte : 0;
  }

  /** The physical address of the table at {@code level} that maps {@code va}, or -1 if the walk stops earlier. */
  public static long tableAddress(FrameStore vram, long root, long va, int level) {
    long table = root;
    for (int l = 0; l < level; l++) {
      long entry = vram.loadWord(table + 8L * Pte.index(va, l));
      if (!Pte.isValid(entry) || (l == 2 && (entry & Pte.TRANSLATE_FURTHER) == 0)) return -1;
      table = entry & Pte.PDE_ADDRESS_MASK;
    }
    return table;
  }

  static int frameOf(long tableAddress) {
    return (int) (tableAddress >>> FrameStore.PAGE_SHIFT);
  }
}
