package dev.hipsim.kfd.vm;

import dev.hipsim.isa.mem.AccessKind;
import dev.hipsim.isa.mem.AtomicOp;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;
import dev.hipsim.kfd.mem.BuddyAllocator;
import dev.hipsim.kfd.mem.FrameStore;
import dev.hipsim.kfd.mem.PageBacking;
import dev.hipsim.kfd.mem.PageWords;
import dev.hipsim.kfd.mem.SystemBus;
import dev.hipsim.kfd.mem.WordPage;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One process's GPU virtual address space on one device (an amdgpu VM / VMID), as the shader sees it through the
 * {@link GpuMemory} SPI: accesses are translated by a TLB that is refilled by walking the page tables in VRAM.
 *
 * <p>The hot path (naturally aligned 1/2/4/8-byte loads, stores and atomics on a page whose translation is cached)
 * is one array read, two compares and the access, with no allocation. Everything else — misses, unaligned or
 * page-crossing accesses, user-buffer and doorbell pages, faults — goes through {@link #translate}.
 *
 * <p>Thread-safe: any number of threads may access memory while the driver maps and unmaps. An unmap invalidates
 * the TLB before it returns; an access already in flight on another thread may still complete on the old page,
 * as on hardware.
 */
public final class GpuVm implements GpuMemory {
  /** hipsim's wording (ROCm has none): an atomic whose address is not naturally aligned. */
  public static final String MISALIGNED_ATOMIC = "Misaligned atomic access";

  private static final int TLB_BITS = 12;
  /** Pages a walk caches at most when the PTE's fragment covers them ({@link #fillFragment}): an aligned 32 KiB. */
  static final int FRAGMENT_FILL_PAGES = 8;
  private static final int OFFSET_MASK = (int) Pte.PAGE_SIZE - 1;
  private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(TlbEntry[].class);

  private final FrameStore vram;
  private final SystemBus bus;
  private final PageTables tables;
  private final TlbEntry[] tlb = new TlbEntry[1 << TLB_BITS];
  private final AtomicLong generation = new AtomicLong();
  private final AtomicLong walks = new AtomicLong();

  public GpuVm(FrameStore vram, BuddyAllocator vramFrames, SystemBus bus) throws PageTables.OutOfVramException {
    this.vram = vram;
    this.bus = bus;
    this.tables = new PageTables(vram, vramFrames);
  }

  public PageTables tables() {
    return tables;
  }

  /** Physical VRAM address of the PDB2 root (what the driver programs as the VMID's page-table base). */
  public long rootAddress() {
    return tables.rootAddress();
  }

  /** Page-table walks so far (TLB misses that reached the tables). */
  public long walks() {
    return walks.get();
  }

  /**
   * Counts unmaps so far. The shader engine's instruction cache compares it between dispatches: code at an address
   * can only change meaning after the address was unmapped (the loader maps fresh memory for each code object).
   */
  public long unmapGeneration() {
    return generation.get();
  }

  // ---------------------------------------------------------------- driver side

  /** Maps a physically contiguous run; see {@link PageTables#map}. */
  public synchronized void map(long va, long pa, long bytes, long flags, boolean fragments)
      throws PageTables.OutOfVramException {
    tables.map(va, pa, bytes, flags, fragments);
  }

  /** Unmaps a range and invalidates its translations (the driver's TLB flush after a PTE update). */
  public synchronized void unmap(long va, long bytes) {
    tables.unmap(va, bytes);
    invalidate(va, bytes);
  }

  /** Frees the page-table root; every mapping must be gone. */
  public synchronized void destroy() {
    tables.destroy();
    invalidate(0, Pte.VA_LIMIT);
  }

  private void invalidate(long va, long bytes) {
    generation.incrementAndGet();
    long first = va >>> Pte.PAGE_SHIFT;
    long last = (va + bytes - 1) >>> Pte.PAGE_SHIFT;
    if (last - first < tlb.length) {
      // Each page can only be cached in its own slot: look at those, not the whole TLB.
      for (long vpn = first; vpn <= last; vpn++) drop(slot(vpn), first, last);
    } else {
      for (int slot = 0; slot < tlb.length; slot++) drop(slot, first, last);
    }
  }

  /**
   * The TLB slot of a virtual page: a multiplicative hash of the page number, so that pages a whole multiple of
   * the TLB's reach apart (the same element of buffers allocated back to back) do not evict each other.
   */
  private static int slot(long vpn) {
    return (int) ((vpn * 0x9E37_79B9_7F4A_7C15L) >>> (64 - TLB_BITS));
  }

  private void drop(int slot, long first, long last) {
    TlbEntry e = (TlbEntry) SLOT.getVolatile(tlb, slot);
    if (e != null && e.vpn >= first && e.vpn <= last) SLOT.compareAndSet(tlb, slot, e, null);
  }

  // ---------------------------------------------------------------- translation

  /** The page-table walk for {@code va} as the hardware sees it (see {@link PageWalker#walk}); 0 if unmapped. */
  public long walk(long va) {
    if (va < 0 || va >= Pte.VA_LIMIT) return 0;
    return PageWalker.walk(vram, tables.rootAddress(), va);
  }

  /**
   * Translates the page holding {@code address} for an access of the given kind: a TLB hit, or a walk that refills
   * the TLB. Faults with ROCm's reason if the page is not mapped or the PTE forbids the access.
   */
  public PageBacking translate(long address, AccessKind kind) throws GpuMemoryFault {
    return entry(address, kind).page;
  }

  private TlbEntry entry(long address, AccessKind kind) throws GpuMemoryFault {
    long vpn = address >>> Pte.PAGE_SHIFT;
    TlbEntry e = tlb[slot(vpn)];
    if (e == null || e.vpn != vpn) e = fill(address, kind);
    switch (kind) {
      case READ:
        if (!e.allows(Pte.READABLE)) throw new GpuMemoryFault(address, kind, GpuMemoryFault.PAGE_NOT_PRESENT);
        break;
      case WRITE:
        if (!e.allows(Pte.WRITEABLE)) throw new GpuMemoryFault(address, kind, GpuMemoryFault.WRITE_TO_READ_ONLY);
        break;
      case ATOMIC:
        if (!e.allows(Pte.READABLE)) throw new GpuMemoryFault(address, kind, GpuMemoryFault.PAGE_NOT_PRESENT);
        if (!e.allows(Pte.WRITEABLE)) throw new GpuMemoryFault(address, kind, GpuMemoryFault.WRITE_TO_READ_ONLY);
        break;
      case EXECUTE:
        if (!e.allows(Pte.EXECUTABLE)) throw new GpuMemoryFault(address, kind, GpuMemoryFault.EXECUTE_NOT_ALLOWED);
        break;
      default:
        throw new AssertionError(kind);
    }
    return e;
  }

  private TlbEntry fill(long address, AccessKind kind) throws GpuMemoryFault {
    long gen = generation.get();
    long pte = walk(address);
    walks.incrementAndGet();
    if (!Pte.isValid(pte)) throw new GpuMemoryFault(address, kind, GpuMemoryFault.PAGE_NOT_PRESENT);
    PageBacking page = physicalPage(pte);
    if (page == null) throw new GpuMemoryFault(address, kind, GpuMemoryFault.PAGE_NOT_PRESENT);
    long vpn = address >>> Pte.PAGE_SHIFT;
    TlbEntry e = new TlbEntry(vpn, pte, page);
    install(e, gen);
    fillFragment(vpn, pte, gen);
    return e;
  }

  /**
   * Caches the translations of the other pages of {@code vpn}'s group of {@link #FRAGMENT_FILL_PAGES} that its PTE's
   * fragment covers, as the hardware's TLB holds one translation for a whole fragment: the aligned block of 2^f
   * pages the fragment field names is physically contiguous, with the same flags, so their PTEs follow from this
   * one without walking. A kernel streaming through a buffer then walks once per group instead of once per page
   * (vector add of 4M elements: 12288 walks a dispatch). Pages the TLB holds already, and pages whose frames hold
   * no data yet, are left as they are.
   */
  private void fillFragment(long vpn, long pte, long gen) {
    int fragment = Pte.fragmentOf(pte);
    if (fragment == 0 || (pte & Pte.SYSTEM) != 0) return;
    long blockFirst = vpn & -(1L << fragment);
    long first = Math.max(blockFirst, vpn & -FRAGMENT_FILL_PAGES);
    long last = Math.min(blockFirst + (1L << fragment) - 1, (vpn & -FRAGMENT_FILL_PAGES) + FRAGMENT_FILL_PAGES - 1);
    for (long n = first; n <= last; n++) {
      if (n == vpn) continue;
      TlbEntry held = tlb[slot(n)];
      if (held != null && held.vpn == n) continue;
      long neighbour = pte + ((n - vpn) << Pte.PAGE_SHIFT);
      long frame = (neighbour & Pte.ADDRESS_MASK) >>> Pte.PAGE_SHIFT;
      // Only frames that hold data already: backing a frame is for the access that touches it, so that memory the
      // program never touches costs nothing (sparse writes would otherwise back eight frames each).
      long[] words = frame < vram.frames() ? vram.pageIfBacked((int) frame) : null;
      if (words == null) continue;
      install(new TlbEntry(n, neighbour, new WordPage(words)), gen);
    }
  }

  private void install(TlbEntry e, long gen) {
    int slot = slot(e.vpn);
    SLOT.setVolatile(tlb, slot, e);
    // An unmap that raced with this walk must not leave its stale translation cached.
    if (generation.get() != gen) SLOT.compareAndSet(tlb, slot, e, null);
  }

  private PageBacking physicalPage(long pte) {
    long pa = pte & Pte.ADDRESS_MASK;
    if ((pte & Pte.SYSTEM) != 0) return bus.page(pa, true);
    long frame = pa >>> Pte.PAGE_SHIFT;
    return frame < vram.frames() ? new WordPage(vram.page((int) frame)) : null;
  }

  // ---------------------------------------------------------------- GpuMemory: hot paths

  @Override
  public byte load8(long address) throws GpuMemoryFault {
    TlbEntry e = tlb[slot(address >>> Pte.PAGE_SHIFT)];
    long[] w;
    if (e != null && e.vpn == address >>> Pte.PAGE_SHIFT && (w = e.readWords) != null) {
      return (byte) (w[(int) (address >>> 3) & 511] >>> ((address & 7) << 3));
    }
    return (byte) loadSlow(address, 1);
  }

  @Override
  public short load16(long address) throws GpuMemoryFault {
    TlbEntry e = tlb[slot(address >>> Pte.PAGE_SHIFT)];
    long[] w;
    if (e != null && e.vpn == address >>> Pte.PAGE_SHIFT && (w = e.readWords) != null && (address & 1) == 0) {
      return (short) (w[(int) (address >>> 3) & 511] >>> ((address & 6) << 3));
    }
    return (short) loadSlow(address, 2);
  }

  @Override
  public int load32(long address) throws GpuMemoryFault {
    TlbEntry e = tlb[slot(address >>> Pte.PAGE_SHIFT)];
    long[] w;
    if (e != null && e.vpn == address >>> Pte.PAGE_SHIFT && (w = e.readWords) != null && (address & 3) == 0) {
      return (int) (w[(int) (address >>> 3) & 511] >>> ((address & 4) << 3));
    }
    return (int) loadSlow(address, 4);
  }

  @Override
  public long load64(long address) throws GpuMemoryFault {
    TlbEntry e = tlb[slot(address >>> Pte.PAGE_SHIFT)];
    long[] w;
    if (e != null && e.vpn == address >>> Pte.PAGE_SHIFT && (w = e.readWords) != null && (address & 7) == 0) {
      return w[(int) (address >>> 3) & 511];
    }
    return loadSlow(address, 8);
  }

  @Override
  public void store8(long address, byte value) throws GpuMemoryFault {
    storeN(address, value, 1);
  }

  @Override
  public void store16(long address, short value) throws GpuMemoryFault {
    storeN(address, value, 2);
  }

  @Override
  public void store32(long address, int value) throws GpuMemoryFault {
    storeN(address, value, 4);
  }

  @Override
  public void store64(long address, long value) throws GpuMemoryFault {
    TlbEntry e = tlb[slot(address >>> Pte.PAGE_SHIFT)];
    long[] w;
    if (e != null && e.vpn == address >>> Pte.PAGE_SHIFT && (w = e.writeWords) != null && (address & 7) == 0) {
      w[(int) (address >>> 3) & 511] = value;
      return;
    }
    storeSlow(address, value, 8);
  }

  private void storeN(long address, long value, int size) throws GpuMemoryFault {
    TlbEntry e = tlb[slot(address >>> Pte.PAGE_SHIFT)];
    long[] w;
    if (e != null && e.vpn == address >>> Pte.PAGE_SHIFT && (w = e.writeWords) != null
        && (address & (size - 1)) == 0) {
      PageWords.store(w, (int) address & OFFSET_MASK, value, size);
      return;
    }
    storeSlow(address, value, size);
  }

  @Override
  public int atomic32(AtomicOp op, long address, int value, int compare) throws GpuMemoryFault {
    if ((address & 3) != 0) throw new GpuMemoryFault(address, AccessKind.ATOMIC, MISALIGNED_ATOMIC);
    TlbEntry e = tlb[slot(address >>> Pte.PAGE_SHIFT)];
    long[] w;
    if (e != null && e.vpn == address >>> Pte.PAGE_SHIFT && (w = e.atomicWords) != null) {
      return PageWords.atomic32(w, (int) address & OFFSET_MASK, op, value, compare);
    }
    return entry(address, AccessKind.ATOMIC).page.atomic32((int) address & OFFSET_MASK, op, value, compare);
  }

  @Override
  public long atomic64(AtomicOp op, long address, long value, long compare) throws GpuMemoryFault {
    if ((address & 7) != 0) throw new GpuMemoryFault(address, AccessKind.ATOMIC, MISALIGNED_ATOMIC);
    TlbEntry e = tlb[slot(address >>> Pte.PAGE_SHIFT)];
    long[] w;
    if (e != null && e.vpn == address >>> Pte.PAGE_SHIFT && (w = e.atomicWords) != null) {
      return PageWords.atomic64(w, (int) address & OFFSET_MASK, op, value, compare);
    }
    return entry(address, AccessKind.ATOMIC).page.atomic64((int) address & OFFSET_MASK, op, value, compare);
  }

  // ---------------------------------------------------------------- GpuMemory: lane vectors

  /** The words of a plain RAM page whose translation for {@code kind} is cached, else null (take the slow path). */
  private long[] cachedWords(long vpn, boolean write) {
    TlbEntry e = tlb[slot(vpn)];
    if (e == null || e.vpn != vpn) return null;
    return write ? e.writeWords : e.readWords;
  }

  @Override
  public long[] readableWords(long address) {
    return cachedWords(address >>> Pte.PAGE_SHIFT, false);
  }

  @Override
  public void loadLanes32(long[] address, long lanes, int dwords, int[] out) throws GpuMemoryFault {
    if (lanes == -1L && loadOnePage(address, dwords, out)) return;
    long vpn = -1;
    long[] words = null;
    for (long m = lanes; m != 0; m &= m - 1) {
      int l = Long.numberOfTrailingZeros(m);
      long a = address[l];
      for (int k = 0; k < dwords; k++, a += 4) {
        if (a >>> Pte.PAGE_SHIFT != vpn || (a & 3) != 0) {
          long[] page = (a & 3) == 0 ? cachedWords(a >>> Pte.PAGE_SHIFT, false) : null;
          if (page == null) {
            // A TLB miss (the load refills it), an unaligned access, a page that is not plain RAM, or a fault.
            out[k * 64 + l] = load32(a);
            continue;
          }
          words = page;
          vpn = a >>> Pte.PAGE_SHIFT;
        }
        out[k * 64 + l] = (int) (words[(int) (a >>> 3) & 511] >>> ((a & 4) << 3));
      }
    }
  }

  /**
   * Whether the 64 lanes address 64 consecutive dwords from an 8-byte boundary, all in one page: a coalesced store,
   * which writes whole 64-bit words.
   */
  private static boolean contiguous(long[] address) {
    long first = address[0];
    if ((first & 7) != 0 || (first & OFFSET_MASK) > Pte.PAGE_SIZE - 4 * 64) return false;
    long apart = 0;
    for (int l = 1; l < 64; l++) apart |= address[l] - first - 4L * l;
    return apart == 0;
  }

  /**
   * The common case of a load by all 64 lanes: every access aligned and inside one page whose translation is
   * cached. One pass over the addresses finds the page, and whether the lanes read 64 consecutive dwords from an
   * 8-byte boundary (a coalesced load, the commonest of all), which then takes 32 word loads, each split in two
   * lanes; other loads go dword by dword across the lanes (sequential stores, no per-lane page test). Returns false,
   * having loaded nothing, when the case does not apply.
   */
  private boolean loadOnePage(long[] address, int dwords, int[] out) {
    long first = address[0];
    long lo = first;
    long hi = first;
    long misaligned = first;
    long apart = 0;
    for (int l = 1; l < 64; l++) {
      long a = address[l];
      lo = Math.min(lo, a);
      hi = Math.max(hi, a);
      misaligned |= a;
      apart |= a - first - 4L * l;
    }
    if ((misaligned & 3) != 0 || lo >>> Pte.PAGE_SHIFT != (hi + 4L * dwords - 1) >>> Pte.PAGE_SHIFT
        || hi + 4L * dwords - 1 < lo) {
      return false;
    }
    long[] words = cachedWords(lo >>> Pte.PAGE_SHIFT, false);
    if (words == null) return false;
    if (dwords == 1 && apart == 0 && (first & 7) == 0) {
      int i = (int) (first >>> 3) & 511;
      for (int p = 0; p < 32; p++) {
        long w = words[i + p];
        out[2 * p] = (int) w;
        out[2 * p + 1] = (int) (w >>> 32);
      }
      return true;
    }
    for (int k = 0; k < dwords; k++) {
      int o = k * 64;
      long d = 4L * k;
      for (int l = 0; l < 64; l++) {
        long a = address[l] + d;
        out[o + l] = (int) (words[(int) (a >>> 3) & 511] >>> ((a & 4) << 3));
      }
    }
    return true;
  }

  /**
   * Stores the lanes in order. Two dwords that fill one 64-bit word — the next dword of the same lane, or the next
   * lane's dword when it follows in memory — become one plain 64-bit store: the word's old contents do not matter,
   * and an atomic on either half by another wave is ordered before or after it by its compare-and-set. Only a lone
   * dword merges into its word with a compare-and-set.
   */
  @Override
  public void storeLanes32(long[] address, long lanes, int dwords, int[] data, int base) throws GpuMemoryFault {
    if (lanes == -1L && dwords == 1 && storeContiguous(address, data, base)) return;
    long vpn = -1;
    long[] words = null;
    for (long m = lanes; m != 0; m &= m - 1) {
      int l = Long.numberOfTrailingZeros(m);
      long a = address[l];
      for (int k = 0; k < dwords; k++, a += 4) {
        int value = data[base + k * 64 + l];
        if (a >>> Pte.PAGE_SHIFT != vpn || (a & 3) != 0) {
          long[] page = (a & 3) == 0 ? cachedWords(a >>> Pte.PAGE_SHIFT, true) : null;
          if (page == null) {
            store32(a, value);
            continue;
          }
          words = page;
          vpn = a >>> Pte.PAGE_SHIFT;
        }
        int i = (int) (a >>> 3) & 511;
        if ((a & 4) == 0) {
          if (k + 1 < dwords) {
            words[i] = (value & 0xffff_ffffL) | ((long) data[base + (k + 1) * 64 + l] << 32);
            k++;
            a += 4;
            continue;
          }
          long next = m & (m - 1);
          if (dwords == 1 && l < 63 && (next & (1L << (l + 1))) != 0 && address[l + 1] == a + 4) {
            words[i] = (value & 0xffff_ffffL) | ((long) data[base + l + 1] << 32);
            m = next; // lane l + 1 is done too
            continue;
          }
        }
        PageWords.store(words, (int) a & OFFSET_MASK, value, 4);
      }
    }
  }

  /**
   * A {@link #contiguous} store of one dword per lane to a writable page whose translation is cached: every pair of
   * lanes fills one word, so 32 plain word stores, as the lane loop would pair them. Returns false, having stored
   * nothing, when the case does not apply.
   */
  private boolean storeContiguous(long[] address, int[] data, int base) {
    if (!contiguous(address)) return false;
    long[] words = cachedWords(address[0] >>> Pte.PAGE_SHIFT, true);
    if (words == null) return false;
    int i = (int) (address[0] >>> 3) & 511;
    for (int p = 0; p < 32; p++) {
      words[i + p] = (data[base + 2 * p] & 0xffff_ffffL) | ((long) data[base + 2 * p + 1] << 32);
    }
    return true;
  }

  // ---------------------------------------------------------------- GpuMemory: slow paths

  private long loadSlow(long address, int size) throws GpuMemoryFault {
    int offset = (int) address & OFFSET_MASK;
    if (offset + size <= Pte.PAGE_SIZE) return entry(address, AccessKind.READ).page.load(offset, size);
    long value = 0;
    for (int k = 0; k < size; k++) {
      long a = address + k;
      value |= (entry(a, AccessKind.READ).page.load((int) a & OFFSET_MASK, 1) & 0xff) << (8 * k);
    }
    return value;
  }

  private void storeSlow(long address, long value, int size) throws GpuMemoryFault {
    int offset = (int) address & OFFSET_MASK;
    if (offset + size <= Pte.PAGE_SIZE) {
      entry(address, AccessKind.WRITE).page.store(offset, value, size);
      return;
    }
    // Crossing a page: check both pages before writing either, so a fault leaves memory untouched.
    long second = (address | OFFSET_MASK) + 1;
    PageBacking a = entry(address, AccessKind.WRITE).page;
    PageBacking b = entry(second, AccessKind.WRITE).page;
    int first = (int) (second - address);
    for (int k = 0; k < size; k++) {
      if (k < first) a.store(offset + k, value >>> (8 * k), 1);
      else b.store(k - first, value >>> (8 * k), 1);
    }
  }

  @Override
  public void read(long address, byte[] dst, int offset, int length) throws GpuMemoryFault {
    copy(address, dst, offset, length, AccessKind.READ);
  }

  @Override
  public void write(long address, byte[] src, int offset, int length) throws GpuMemoryFault {
    copy(address, src, offset, length, AccessKind.WRITE);
  }

  @Override
  public void fetch(long address, byte[] dst, int offset, int length) throws GpuMemoryFault {
    copy(address, dst, offset, length, AccessKind.EXECUTE);
  }

  private void copy(long address, byte[] bytes, int offset, int length, AccessKind kind) throws GpuMemoryFault {
    int done = 0;
    while (done < length) {
      long a = address + done;
      int inPage = (int) a & OFFSET_MASK;
      int n = Math.min(length - done, (int) Pte.PAGE_SIZE - inPage);
      PageBacking page = entry(a, kind).page;
      if (kind == AccessKind.WRITE) page.write(inPage, bytes, offset + done, n);
      else page.read(inPage, bytes, offset + done, n);
      done += n;
    }
  }
}
