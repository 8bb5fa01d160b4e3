package dev.hipsim.kfd;

import dev.hipsim.kfd.mem.BuddyAllocator;
import dev.hipsim.kfd.mem.FrameStore;
import dev.hipsim.kfd.mem.PageBacking;
import dev.hipsim.kfd.mem.SystemBus;
import dev.hipsim.kfd.mem.WordPage;
import dev.hipsim.kfd.mem.ZeroPage;
import org.eclipse.collections.impl.set.mutable.primitive.IntHashSet;

/**
 * A buffer object (amdgpu's kgd_mem): where its pages physically are and which GPUs map it. An AQL queue buffer is
 * half the requested size mapped twice back to back (amdgpu's wrap-around workaround), so its VA span is twice its
 * backing.
 */
final class Allocation {
  enum Kind { VRAM, GTT, USERPTR, DOORBELL, MMIO }

  final long handle;
  final KfdDevice owner;
  final long va;
  final long backingBytes;
  final long span;
  final int flags;
  final Kind kind;
  final long mmapOffset;
  final long userAddress;
  /** VRAM or system RAM blocks, and the byte offset of each in the buffer. */
  final BuddyAllocator.Blocks blocks;
  private final long[] blockOffsets;
  /** First DMA address of user, doorbell or register pages. */
  final long dmaBase;
  final IntHashSet mappedOn = new IntHashSet();

  Allocation(long handle, KfdDevice owner, long va, long backingBytes, int flags, Kind kind, long mmapOffset,
      long userAddress, BuddyAllocator.Blocks blocks, long dmaBase) {
    this.handle = handle;
    this.owner = owner;
    this.va = va;
    this.backingBytes = backingBytes;
    this.span = (flags & AllocFlags.AQL_QUEUE_MEM) != 0 ? 2 * backingBytes : backingBytes;
    this.flags = flags;
    this.kind = kind;
    this.mmapOffset = mmapOffset;
    this.userAddress = userAddress;
    this.blocks = blocks;
    this.dmaBase = dmaBase;
    if (blocks != null) {
      blockOffsets = new long[blocks.size()];
      long at = 0;
      for (int i = 0; i < blocks.size(); i++) {
        blockOffsets[i] = at;
        at += FrameStore.PAGE_SIZE << blocks.order(i);
      }
    } else {
      blockOffsets = null;
    }
  }

  boolean system() {
    return kind != Kind.VRAM;
  }

  boolean contains(long address) {
    return address >= va && address - va < span;
  }

  /** The physically contiguous runs of the backing: VRAM or RAM blocks, or one run of DMA pages. */
  int runs() {
    return blocks == null ? 1 : blocks.size();
  }

  /** Byte offset of run {@code i} in the buffer. */
  long runOffset(int i) {
    return blocks == null ? 0 : blockOffsets[i];
  }

  /** Physical (VRAM) or DMA (system) address of run {@code i}. */
  long runAddress(int i) {
    return blocks == null ? dmaBase : (long) blocks.frame(i) << FrameStore.PAGE_SHIFT;
  }

  long runBytes(int i) {
    return blocks == null ? backingBytes : FrameStore.PAGE_SIZE << blocks.order(i);
  }

  /** The page backing byte {@code offset} of the VA span, for host access ({@code touch} backs RAM frames). */
  PageBacking page(long offset, boolean touch, SystemBus bus) {
    long off = offset % backingBytes;
    if (blocks == null) return bus.page(dmaBase + off, touch);
    int lo = 0;
    int hi = blocks.size() - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (blockOffsets[mid] <= off) lo = mid;
      else hi = mid - 1;
    }
    int frame = blocks.frame(lo) + (int) ((off - blockOffsets[lo]) >>> FrameStore.PAGE_SHIFT);
    FrameStore store = kind == Kind.VRAM ? owner.vram() : bus.ram();
    long[] words = touch ? store.page(frame) : store.pageIfBacked(frame);
    return words == null ? ZeroPage.INSTANCE : new WordPage(words);
  }

  @Override
  public String toString() {
    return String.format("BO 0x%x [0x%x, 0x%x) %s %s", handle, va, va + span, kind, AllocFlags.describe(flags));
  }
}
