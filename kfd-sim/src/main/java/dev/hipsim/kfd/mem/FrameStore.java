package dev.hipsim.kfd.mem;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Physical RAM (a device's VRAM, or system memory) as 4 KiB frames, backed lazily: a frame gets host memory the
 * first time it is touched and gives it back when {@link #release(int) released}, so a 64 GiB device costs only
 * its directory until used. Frames are grouped by 512 (2 MiB); a group's slot array is created on first touch.
 *
 * <p>Thread-safe: concurrent first touches of a frame agree on one page (compare-and-set).
 */
public final class FrameStore {
  public static final int PAGE_SHIFT = 12;
  public static final int PAGE_SIZE = 1 << PAGE_SHIFT;
  private static final int GROUP_SHIFT = 9;
  private static final int GROUP_SIZE = 1 << GROUP_SHIFT;
  /** Host bytes of one backed page: the {@code long[512]} payload plus the array header. */
  public static final long PAGE_HOST_BYTES = PAGE_SIZE + 16;
  /** Host bytes of one group's slot array (512 compressed references plus header). */
  public static final long GROUP_HOST_BYTES = GROUP_SIZE * 4L + 16;

  private static final VarHandle GROUP = MethodHandles.arrayElementVarHandle(long[][][].class);
  private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[][].class);

  private final int frames;
  private final long[][][] groups;
  private final AtomicLong backedPages = new AtomicLong();
  private final AtomicLong peakBackedPages = new AtomicLong();
  private final AtomicLong groupArrays = new AtomicLong();

  public FrameStore(long bytes) {
    long count = bytes >>> PAGE_SHIFT;
    if (bytes <= 0 || (bytes & (PAGE_SIZE - 1)) != 0 || count > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("memory size must be a positive multiple of 4 KiB below 8 TiB: " + bytes);
    }
    this.frames = (int) count;
    this.groups = new long[(int) ((count + GROUP_SIZE - 1) >>> GROUP_SHIFT)][][];
  }

  public int frames() {
    return frames;
  }

  public long bytes() {
    return (long) frames << PAGE_SHIFT;
  }

  /** The frame's page if it has been touched, else {@code null} (reads of untouched frames are zero). */
  public long[] pageIfBacked(int frame) {
    long[] plain = backedPlainly(frame);
    if (plain != null) return plain;
    long[][] group = (long[][]) GROUP.getAcquire(groups, frame >>> GROUP_SHIFT);
    return group == null ? null : (long[]) SLOT.getAcquire(group, frame & (GROUP_SIZE - 1));
  }

  /**
   * The frame's page if plain reads find it backed, else null (then the acquiring path decides). C1 compiles a
   * {@code VarHandle} access into a chain of guards and casts, 3% of a coalesced kernel's time in TLB refills. A
   * plain read that sees an array another thread published sees at least its elements' default values (JLS 17.4.4),
   * which is all a new group or page holds.
   */
  private long[] backedPlainly(int frame) {
    long[][] group = groups[frame >>> GROUP_SHIFT];
    return group == null ? null : group[frame & (GROUP_SIZE - 1)];
  }

  /** The frame's page, backing it now if this is the first touch. */
  public long[] page(int frame) {
    long[] plain = backedPlainly(frame);
    if (plain != null) return plain;
    int g = frame >>> GROUP_SHIFT;
    long[][] group = (long[][]) GROUP.getAcquire(groups, g);
    if (group == null) {
      long[][] fresh = new long[GROUP_SIZE][];
      group = (long[][]) GROUP.compareAndExchange(groups, g, null, fresh);
      if (group == null) {
        group = fresh;
        groupArrays.incrementAndGet();
      }
    }
    int s = frame & (GROUP_SIZE - 1);
    long[] page = (long[]) SLOT.getAcquire(group, s);
    if (page != null) return page;
    long[] fresh = PageWords.newPage();
    page = (long[]) SLOT.compareAndExchange(group, s, null, fresh);
    if (page != null) return page;
    long now = backedPages.incrementAndGet();
    peakBackedPages.accumulateAndGet(now, Math::max);
    return fresh;
  }

  /** Backs {@code count} frames from {@code first} now (the ones already backed keep their contents). */
  public void back(int first, int count) {
    if (first < 0 || count < 0 || count > frames - first) {
      throw new IndexOutOfBoundsException("frames [" + first + ", +" + count + ") of " + frames);
    }
    for (int f = first; f < first + count; f++) page(f);
  }

  /** Drops the frame's backing: its contents become zero and its host memory can be reclaimed. */
  public void release(int frame) {
    long[][] group = (long[][]) GROUP.getAcquire(groups, frame >>> GROUP_SHIFT);
    if (group == null) return;
    long[] old = (long[]) SLOT.getAndSet(group, frame & (GROUP_SIZE - 1), null);
    if (old != null) backedPages.decrementAndGet();
  }

  /** Reads a 64-bit little-endian word at a physical byte address (8-aligned) without backing the frame. */
  public long loadWord(long address) {
    long[] page = pageIfBacked((int) (address >>> PAGE_SHIFT));
    return page == null ? 0 : PageWords.loadVolatile64(page, (int) address & (PAGE_SIZE - 1));
  }

  /** Writes a 64-bit little-endian word at a physical byte address (8-aligned). */
  public void storeWord(long address, long value) {
    PageWords.storeVolatile64(page((int) (address >>> PAGE_SHIFT)), (int) address & (PAGE_SIZE - 1), value);
  }

  public long backedPages() {
    return backedPages.get();
  }

  public long peakBackedPages() {
    return peakBackedPages.get();
  }

  /** Host memory this store holds now, by its own accounting: backed pages, group arrays and the directory. */
  public long hostBytes() {
    return backedPages.get() * PAGE_HOST_BYTES + groupArrays.get() * GROUP_HOST_BYTES + directoryBytes();
  }

  /** The most host memory this store has held (pages at their peak plus metadata now). */
  public long peakHostBytes() {
    return peakBackedPages.get() * PAGE_HOST_BYTES + groupArrays.get() * GROUP_HOST_BYTES + directoryBytes();
  }

  private long directoryBytes() {
    return groups.length * 4L + 16;
  }
}
