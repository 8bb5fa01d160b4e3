package dev.hipsim.isa.decode;

/**
 * Addressing and cache controls of a memory instruction (SMEM, DS, MUBUF, MTBUF, FLAT, GLOBAL, SCRATCH).
 *
 * @param offset the immediate offset in bytes: SMEM 21-bit signed, DS 16-bit (or offset0 when two offsets), MUBUF/
 *     MTBUF 12-bit, FLAT 13-bit unsigned, GLOBAL/SCRATCH 13-bit signed
 * @param offset1 DS: the second 8-bit offset of the two-address forms, else 0
 * @param cachePolicy the cache bits as {@link #GLC} (sc0 on gfx940), {@link #SLC} (nt), {@link #SCC} (sc1)
 * @param flags {@link #OFFEN}, {@link #IDXEN}, {@link #LDS}, {@link #GDS}, {@link #IMMEDIATE_OFFSET}
 * @param dataFormat MTBUF: dfmt
 * @param numberFormat MTBUF: nfmt
 */
public record MemoryFields(int offset, int offset1, int cachePolicy, int flags, int dataFormat, int numberFormat) {
  /** glc (gfx90a) / sc0 (gfx940): return pre-op value for atomics, coherence for loads. */
  public static final int GLC = 1;
  /** slc (gfx90a) / nt (gfx940): streaming, non-temporal. */
  public static final int SLC = 2;
  /** scc (gfx90a) / sc1 (gfx940): system coherence. */
  public static final int SCC = 4;

  /** MUBUF/MTBUF: vaddr supplies an offset. */
  public static final int OFFEN = 1;
  /** MUBUF/MTBUF: vaddr supplies an index. */
  public static final int IDXEN = 2;
  /** MUBUF (and FLAT on gfx90a): the data moves between memory and LDS instead of VGPRs. */
  public static final int LDS = 4;
  /** DS: the global data share (ds_gws_*). */
  public static final int GDS = 8;
  /** The immediate offset applies (SMEM encodes forms without one). */
  public static final int IMMEDIATE_OFFSET = 16;

  public boolean glc() {
    return (cachePolicy & GLC) != 0;
  }

  public boolean slc() {
    return (cachePolicy & SLC) != 0;
  }

  public boolean scc() {
    return (cachePolicy & SCC) != 0;
  }

  public boolean offen() {
    return (flags & OFFEN) != 0;
  }

  public boolean idxen() {
    return (flags & IDXEN) != 0;
  }

  public boolean lds() {
    return (flags & LDS) != 0;
  }

  public boolean gds() {
    return (flags & GDS) != 0;
  }

  public boolean immediateOffset() {
    return (flags & IMMEDIATE_OFFSET) != 0;
  }
}
