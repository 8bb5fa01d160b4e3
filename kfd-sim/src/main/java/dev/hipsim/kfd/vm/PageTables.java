package dev.hipsim.kfd.vm;

import dev.hipsim.kfd.mem.BuddyAllocator;
import dev.hipsim.kfd.mem.FrameStore;
import org.eclipse.collections.impl.map.mutable.primitive.IntIntHashMap;

/**
 * The driver's side of one GPUVM (amdgpu_vm_pt.c): writes PDE/PTE words into page-table frames it allocates from
 * VRAM, and frees a table when its last entry goes. The PDB2 root lives as long as the VM.
 *
 * <p>Entries are written the way gmc_v9_0 formats them in translate-further mode: PDB1 entries carry block fragment
 * size 9, a PDB0 entry is either a 2 MiB PTE (P cleared) or a PDE with the F bit pointing to a PTB, and cleared
 * PTB entries keep the X bit. Not thread-safe: {@link GpuVm} serialises updates.
 */
public final class PageTables {
  private static final int ROOT = 0;
  private static final int PDB0 = 2;
  private static final int PTB = 3;
  private static final int MAX_FRAGMENT = 9;

  private final FrameStore vram;
  private final BuddyAllocator frames;
  private final int rootFrame;
  /** Valid entries per table frame, so empty tables can be freed. */
  private final IntIntHashMap validEntries = new IntIntHashMap();

  /** Allocates the root; throws if VRAM is exhausted. */
  public PageTables(FrameStore vram, BuddyAllocator frames) throws OutOfVramException {
    this.vram = vram;
    this.frames = frames;
    int root = frames.allocBlock(0);
    if (root < 0) throw new OutOfVramException();
    this.rootFrame = root;
  }

  public long rootAddress() {
    return (long) rootFrame << FrameStore.PAGE_SHIFT;
  }

  /** Page-table frames in use, the root included. */
  public int tableFrames() {
    return 1 + validEntries.size() - (validEntries.containsKey(rootFrame) ? 1 : 0);
  }

  /**
   * Maps {@code [va, va + bytes)} to the physically contiguous {@code [pa, pa + bytes)}, page-aligned. Uses 2 MiB
   * pages where VA and PA are both 2 MiB-aligned over a whole 2 MiB, 4 KiB pages elsewhere; with
   * {@code fragments} (VRAM) the 4 KiB PTEs carry the fragment of their aligned contiguous block. {@code flags} are
   * the leaf flags (V, S, R, W, X, snoop, MTYPE). On VRAM exhaustion the part already mapped stays mapped and an
   * exception is thrown; the caller unmaps it.
   */
  public void map(long va, long pa, long bytes, long flags, boolean fragments) throws OutOfVramException {
    long end = va + bytes;
    long v = va;
    while (v < end) {
      long p = pa + (v - va);
      long pdb0 = table(v, PDB0);
      int i0 = Pte.index(v, PDB0);
      long regionEnd = Math.min(end, (v | (Pte.HUGE_SIZE - 1)) + 1);
      if (((v | p) & (Pte.HUGE_SIZE - 1)) == 0 && regionEnd - v == Pte.HUGE_SIZE
          && !Pte.isValid(vram.loadWord(pdb0 + 8L * i0))) {
        setEntry(pdb0, i0, flags | Pte.fragment(MAX_FRAGMENT) | (p & Pte.ADDRESS_MASK));
        v = regionEnd;
        continue;
      }
      long ptb = table(v, PTB);
      while (v < regionEnd) {
        long pfnV = v >>> Pte.PAGE_SHIFT;
        long pfnP = (pa + (v - va)) >>> Pte.PAGE_SHIFT;
        int fragment = 0;
        if (fragments) {
          long pages = (regionEnd - v) >>> Pte.PAGE_SHIFT;
          int aligned = Math.min(Long.numberOfTrailingZeros(pfnV), Long.numberOfTrailingZeros(pfnP));
          fragment = Math.min(MAX_FRAGMENT, Math.min(aligned, 63 - Long.numberOfLeadingZeros(pages)));
        }
        long blockEnd = v + (Pte.PAGE_SIZE << fragment);
        for (; v < blockEnd; v += Pte.PAGE_SIZE) {
          long phys = pa + (v - va);
          setEntry(ptb, Pte.index(v, PTB), flags | Pte.fragment(fragment) | (phys & Pte.ADDRESS_MASK));
        }
      }
    }
  }

  /** Clears the leaves mapping {@code [va, va + bytes)} (entries not mapped are skipped) and frees empty tables. */
  public void unmap(long va, long bytes) {
    long end = va + bytes;
    long v = va;
    while (v < end) {
      long regionEnd = Math.min(end, (v | (Pte.HUGE_SIZE - 1)) + 1);
      long pdb0 = PageWalker.tableAddress(vram, rootAddress(), v, PDB0);
      if (pdb0 >= 0) {
        int i0 = Pte.index(v, PDB0);
        long entry = vram.loadWord(pdb0 + 8L * i0);
        if (Pte.isValid(entry) && (entry & Pte.TRANSLATE_FURTHER) == 0) {
          clearEntry(pdb0, i0, 0);
        } else if (Pte.isValid(entry)) {
          long ptb = entry & Pte.PDE_ADDRESS_MASK;
          for (long p = v; p < regionEnd; p += Pte.PAGE_SIZE) {
            int i = Pte.index(p, PTB);
            if (Pte.isValid(vram.loadWord(ptb + 8L * i))) clearEntry(ptb, i, Pte.INVALID_PTE);
          }
          if (count(ptb) == 0) freeTable(v, PTB);
        }
        if (count(pdb0) == 0) freeTable(v, PDB0);
      }
      // Also catches a PDB1 left empty by a map that ran out of VRAM half-way down.
      long pdb1 = PageWalker.tableAddress(vram, rootAddress(), v, 1);
      if (pdb1 >= 0 && count(pdb1) == 0) freeTable(v, 1);
      v = regionEnd;
    }
  }

  /** Frees the root. Every mapping must be gone. */
  public void destroy() {
    if (tableFrames() != 1) throw new IllegalStateException("page tables still in use: " + tableFrames());
    vram.release(rootFrame);
    frames.freeBlock(rootFrame, 0);
  }

  // The table at `level` covering `va`, creating the missing ones on the way down.
  private long table(long va, int level) throws OutOfVramException {
    long table = rootAddress();
    for (int l = ROOT; l < level; l++) {
      int i = Pte.index(va, l);
      long entry = vram.loadWord(table + 8L * i);
      if (!Pte.isValid(entry)) {
        int frame = frames.allocBlock(0);
        if (frame < 0) throw new OutOfVramException();
        long child = (long) frame << FrameStore.PAGE_SHIFT;
        long pde = Pte.VALID | child;
        if (l == 1) pde |= Pte.blockFragmentSize(9);
        if (l == PDB0) pde |= Pte.TRANSLATE_FURTHER;
        setEntry(table, i, pde);
        entry = pde;
      } else if (l == PDB0 && (entry & Pte.TRANSLATE_FURTHER) == 0) {
        throw new IllegalStateException(String.format("VA 0x%x is inside a mapped 2 MiB page", va));
      }
      table = entry & Pte.PDE_ADDRESS_MASK;
    }
    return table;
  }

  private void freeTable(long va, int level) {
    long parent = PageWalker.tableAddress(vram, rootAddress(), va, level - 1);
    int i = Pte.index(va, level - 1);
    long entry = vram.loadWord(parent + 8L * i);
    int frame = PageWalker.frameOf(entry & Pte.PDE_ADDRESS_MASK);
    clearEntry(parent, i, 0);
    validEntries.remove(frame);
    vram.release(frame);
    frames.freeBlock(frame, 0);
  }

  private void setEntry(long table, int index, long value) {
    long address = table + 8L * index;
    if (Pte.isValid(vram.loadWord(address))) {
      throw new IllegalStateException(String.format("entry at 0x%x already valid", address));
    }
    vram.storeWord(address, value);
    validEntries.addToValue(PageWalker.frameOf(table), 1);
  }

  private void clearEntry(long table, int index, long invalidValue) {
    vram.storeWord(table + 8L * index, invalidValue);
    int frame = PageWalker.frameOf(table);
    if (validEntries.addToValue(frame, -1) == 0 && frame == rootFrame) validEntries.remove(frame);
  }

  private int count(long table) {
    return validEntries.get(PageWalker.frameOf(table));
  }

  /** VRAM ran out while allocating a page table. */
  public static final class OutOfVramException extends Exception {
    private static final long serialVersionUID = 1L;

    public OutOfVramException() {
      super("out of VRAM for page tables");
    }
  }
}
