package dev.hipsim.kfd.mem;

import org.eclipse.collections.impl.list.mutable.primitive.IntArrayList;
import org.eclipse.collections.impl.set.mutable.primitive.IntHashSet;

/**
 * A buddy allocator of 4 KiB frames with blocks of order 0 (4 KiB) to {@link #MAX_ORDER} (2 MiB), like the drm_buddy
 * manager behind amdgpu's VRAM: every block is naturally aligned, so a 2 MiB block can be mapped with one 2 MiB
 * page. Memory never handed out costs nothing: untouched 2 MiB blocks are a counter, not a list.
 *
 * <p>Free blocks of each order below the maximum live in a set (for buddy lookup) and a stack (to pick one);
 * blocks merged away stay in the stack and are skipped when popped, and the stack is compacted when stale
 * entries dominate. All methods are synchronized.
 */
public final class BuddyAllocator {
  public static final int MAX_ORDER = 9;
  private static final int TOP = 1 << MAX_ORDER;

  private final int frames;
  private final int topBlocks;
  private final IntHashSet[] free = new IntHashSet[MAX_ORDER];
  private final IntArrayList[] stacks = new IntArrayList[MAX_ORDER];
  private final IntArrayList freedTop = new IntArrayList();
  private int nextFreshTop;
  private long freeFrames;

  public BuddyAllocator(int frames) {
    if (frames <= 0) throw new IllegalArgumentException("frames must be positive: " + frames);
    this.frames = frames;
    this.topBlocks = frames / TOP;
    for (int k = 0; k < MAX_ORDER; k++) {
      free[k] = new IntHashSet();
      stacks[k] = new IntArrayList();
    }
    // The tail past the last whole 2 MiB block is split into aligned smaller blocks.
    int at = topBlocks * TOP;
    for (int k = MAX_ORDER - 1; k >= 0; k--) {
      if (frames - at >= (1 << k)) {
        push(k, at);
        at += 1 << k;
      }
    }
    this.freeFrames = frames;
  }

  public int frames() {
    return frames;
  }

  public synchronized long freeFrames() {
    return freeFrames;
  }

  /** Allocates one block of {@code 2^order} frames; returns its first frame, or -1 if none is free. */
  public synchronized int allocBlock(int order) {
    if (order < 0 || order > MAX_ORDER) throw new IllegalArgumentException("order " + order);
    int k = order;
    int block = -1;
    for (; k <= MAX_ORDER; k++) {
      block = take(k);
      if (block >= 0) break;
    }
    if (block < 0) return -1;
    while (k > order) {
      k--;
      push(k, block + (1 << k));
    }
    freeFrames -= 1L << order;
    return block;
  }

  /** Returns a block to the allocator, merging it with its free buddies. */
  public synchronized void freeBlock(int frame, int order) {
    if (order < 0 || order > MAX_ORDER || (frame & ((1 << order) - 1)) != 0 || frame < 0 || frame >= frames) {
      throw new IllegalArgumentException("not a block: frame " + frame + " order " + order);
    }
    freeFrames += 1L << order;
    int block = frame;
    int k = order;
    while (k < MAX_ORDER) {
      int buddy = block ^ (1 << k);
      if (!free[k].remove(buddy)) break;
      block = Math.min(block, buddy);
      k++;
    }
    if (k == MAX_ORDER) {
      freedTop.add(block);
    } else {
      push(k, block);
    }
  }

  /**
   * Allocates {@code count} frames as aligned blocks, largest first (2 MiB blocks for the bulk), splitting a request
   * into smaller blocks when fragmentation leaves no block of the wanted order. Returns {@code null}, allocating
   * nothing, when fewer than {@code count} frames are free.
   */
  public synchronized Blocks allocate(long count) {
    if (count <= 0 || count > freeFrames) return null;
    Blocks out = new Blocks();
    long remaining = count;
    while (remaining >= TOP) {
      take(MAX_ORDER, out);
      remaining -= TOP;
    }
    for (int k = MAX_ORDER - 1; k >= 0; k--) {
      if ((remaining & (1L << k)) != 0) take(k, out);
    }
    return out;
  }

  /** Frees every block of an allocation. */
  public synchronized void free(Blocks blocks) {
    for (int i = 0; i < blocks.size(); i++) freeBlock(blocks.frame(i), blocks.order(i));
  }

  // Enough frames are free, so some split of the request always succeeds.
  private void take(int order, Blocks out) {
    int block = allocBlock(order);
    if (block >= 0) {
      out.add(block, order);
    } else {
      take(order - 1, out);
      take(order - 1, out);
    }
  }

  private int take(int k) {
    if (k == MAX_ORDER) {
      if (!freedTop.isEmpty()) return freedTop.removeAtIndex(freedTop.size() - 1);
      return nextFreshTop < topBlocks ? (nextFreshTop++) * TOP : -1;
    }
    IntArrayList stack = stacks[k];
    while (!stack.isEmpty()) {
      int block = stack.removeAtIndex(stack.size() - 1);
      if (free[k].remove(block)) return block;
    }
    return -1;
  }

  private void push(int k, int block) {
    free[k].add(block);
    IntArrayList stack = stacks[k];
    stack.add(block);
    if (stack.size() > 64 + 2 * free[k].size()) {
      stack.clear();
      free[k].forEach(stack::add);
    }
  }

  /** The blocks of one allocation, in allocation order, as primitive arrays. */
  public static final class Blocks {
    private int[] frames = new int[4];
    private byte[] orders = new byte[4];
    private int size;

    void add(int frame, int order) {
      if (size == frames.length) {
        frames = java.util.Arrays.copyOf(frames, size * 2);
        orders = java.util.Arrays.copyOf(orders, size * 2);
      }
      frames[size] = frame;
      orders[size] = (byte) order;
      size++;
    }

    public int size() {
      return size;
    }

    public int frame(int i) {
      return frames[i];
    }

    public int order(int i) {
      return orders[i];
    }

    public long totalFrames() {
      long total = 0;
      for (int i = 0; i < size; i++) total += 1L << orders[i];
      return total;
    }
  }
}
