package dev.hipsim.isa.decode;

/**
 * Addressing and cache controls of a memory instruction (SMEM, DS, MUBUF, MTBUF, FLAT, GLOBAL, SCRATCH).
 *
 * @param offset the immediate offset in bytes: SMEM 21-bit signed, DS 16-bit (or offset0 when two offsets), MUBUF/
 *     MTBUF 12-bit, FLAT 12-bit unsigned, GLOBAL/SCRATCH 13-bit signed
 * @param offset1 DS: the second 8-bit offset of the two-address forms, else 0
 * @param cachePolicy the cache bits as {@link #GLC} (sc0 on gfx940), {@link #SLC} (nt), {@link #SCC} (sc1)
 * @param offen MUBUF/MTBUF: vaddr supplies an offset
 * @param idxen MUBUF/MTBUF: vaddr supplies an index
 * @param lds MUBUF: the data goes to LDS rather than VGPRs; FLAT on gfx940 (scratch/global *_lds_*) likewise
 * @param dataFormat MTBUF: dfmt
 * @param numberFormat MTBUF: nfmt
 * @param immediateOffset whether {@code offset} applies: false for SMEM forms without an immediate offset
 */
public record MemoryFields(int offset, int offset1, int cachePolicy, boolean offen, boolean idxen, boolean lds,
    int dataFormat, int numberFormat, boolean immediateOffset) {
  /** glc (gfx90a) / sc0 (gfx940): return pre-op value for atomics, coherence for loads. */
  public static final int GLC = 1;
  /** slc (gfx90a) / nt (gfx940): streaming, non-temporal. */
  public static final int SLC = 2;
  /** scc (gfx90a) / sc1 (gfx940): system coherence. */
  public static final int SCC = 4;

  public boolean glc() {
    return (cachePolicy & GLC) != 0;
  }

  public boolean slc() {
    return (cachePolicy & SLC) != 0;
  }

  public boolean scc() {
    return (cachePolicy & SCC) != 0;
  }
}
