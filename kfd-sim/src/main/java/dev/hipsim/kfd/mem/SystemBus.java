package dev.hipsim.kfd.mem;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.eclipse.collections.impl.map.mutable.primitive.LongObjectHashMap;

/**
 * The system side of the GPU's physical address space: what a PTE with the system bit set points at. Addresses are
 * "DMA addresses" as the IOMMU-less amdgpu sees them:
 * <ul>
 *   <li>{@code [0, systemBytes)}: system RAM frames, where GTT buffers live (lazily backed, buddy-allocated);</li>
 *   <li>{@link #USER_BASE}: pages of user buffers the process registered ({@code USERPTR});</li>
 *   <li>{@link #MMIO_BASE}: device register pages mapped for the process (doorbells).</li>
 * </ul>
 * Thread-safe.
 */
public final class SystemBus {
  public static final long USER_BASE = 1L << 42;
  public static final long MMIO_BASE = 1L << 43;
  private static final long END = 1L << 44;

  private final FrameStore ram;
  private final BuddyAllocator ramAllocator;
  private final LongObjectHashMap<PageBacking> mapped = new LongObjectHashMap<>();
  private long nextUserPage = USER_BASE >>> FrameStore.PAGE_SHIFT;
  private long nextMmioPage = MMIO_BASE >>> FrameStore.PAGE_SHIFT;

  public SystemBus(long systemBytes) {
    if (systemBytes > USER_BASE) throw new IllegalArgumentException("system memory above 4 TiB: " + systemBytes);
    this.ram = new FrameStore(systemBytes);
    this.ramAllocator = new BuddyAllocator(ram.frames());
  }

  public FrameStore ram() {
    return ram;
  }

  public BuddyAllocator ramAllocator() {
    return ramAllocator;
  }

  /**
   * Registers {@code pages} pages of a user buffer (any byte order; a little-endian view is kept) and returns the
   * DMA address of the first. Address space is not reused: the 4 TiB window outlives any test or program.
   */
  public synchronized long registerUser(ByteBuffer buffer, int pages) {
    ByteBuffer view = buffer.duplicate().clear().order(ByteOrder.LITTLE_ENDIAN);
    long first = nextUserPage;
    if (first + pages > MMIO_BASE >>> FrameStore.PAGE_SHIFT) throw new IllegalStateException("user DMA window full");
    Object lock = new Object();
    for (int i = 0; i < pages; i++) mapped.put(first + i, new BufferPage(view, i * FrameStore.PAGE_SIZE, lock));
    nextUserPage += pages;
    return first << FrameStore.PAGE_SHIFT;
  }

  /** Maps register pages (for example a process's doorbells) and returns the DMA address of the first. */
  public synchronized long registerMmio(PageBacking... pages) {
    long first = nextMmioPage;
    if (first + pages.length > END >>> FrameStore.PAGE_SHIFT) throw new IllegalStateException("MMIO window full");
    for (int i = 0; i < pages.length; i++) mapped.put(first + i, pages[i]);
    nextMmioPage += pages.length;
    return first << FrameStore.PAGE_SHIFT;
  }

  /** Forgets pages registered with {@link #registerUser} or {@link #registerMmio}. */
  public synchronized void unregister(long address, int pages) {
    long first = address >>> FrameStore.PAGE_SHIFT;
    for (int i = 0; i < pages; i++) mapped.remove(first + i);
  }

  /**
   * The page at a DMA address, or {@code null} if nothing is there. RAM frames are backed on the way when
   * {@code touch} is set; otherwise an untouched frame reads as the {@link ZeroPage}.
   */
  public PageBacking page(long address, boolean touch) {
    long pfn = address >>> FrameStore.PAGE_SHIFT;
    if (address >= 0 && pfn < ram.frames()) {
      int frame = (int) pfn;
      long[] words = touch ? ram.page(frame) : ram.pageIfBacked(frame);
      return words == null ? ZeroPage.INSTANCE : new WordPage(words);
    }
    synchronized (this) {
      return mapped.get(pfn);
    }
  }
}
