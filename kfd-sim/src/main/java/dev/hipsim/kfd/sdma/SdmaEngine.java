package dev.hipsim.kfd.sdma;

import dev.hipsim.isa.mem.AccessKind;
import dev.hipsim.isa.mem.GpuMemoryFault;
import dev.hipsim.kfd.mem.PageBacking;
import dev.hipsim.kfd.mem.PageWords;
import dev.hipsim.kfd.queue.AmdSignal;
import dev.hipsim.kfd.queue.QueueHost;
import dev.hipsim.kfd.vm.GpuVm;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A device's system DMA engine: linear copies and constant fills between GPU virtual addresses of one process,
 * translated through that process's page tables like the hardware's {@code SDMA_OP_COPY}/{@code CONST_FILL}.
 * Host memory takes part as what the GPU sees of it: GTT buffers and registered user buffers mapped in the same
 * VM. Any alignment and length; copies go page by page, word-at-a-time when source and destination line up.
 * Overlapping ranges are copied forwards (the hardware gives no memmove guarantee).
 */
public final class SdmaEngine {
  private static final int PAGE = 4096;
  private final AtomicLong bytesMoved = new AtomicLong();

  /** Copies {@code bytes} from {@code src} to {@code dst}; faults (unmapped, read-only) stop the copy. */
  public void copy(GpuVm vm, long dst, long src, long bytes) throws GpuMemoryFault {
    long done = 0;
    while (done < bytes) {
      long s = src + done;
      long d = dst + done;
      int sOff = (int) s & (PAGE - 1);
      int dOff = (int) d & (PAGE - 1);
      int n = (int) Math.min(bytes - done, Math.min(PAGE - sOff, PAGE - dOff));
      PageBacking from = vm.translate(s, AccessKind.READ);
      PageBacking to = vm.translate(d, AccessKind.WRITE);
      long[] fw = from.words();
      long[] tw = to.words();
      if (fw != null && tw != null) {
        PageWords.copy(tw, dOff, fw, sOff, n);
      } else {
        byte[] chunk = new byte[n];
        from.read(sOff, chunk, 0, n);
        to.write(dOff, chunk, 0, n);
      }
      done += n;
    }
    bytesMoved.addAndGet(bytes);
  }

  /** Fills {@code bytes} (a multiple of 4) at the dword-aligned {@code dst} with {@code value}. */
  public void fill(GpuVm vm, long dst, int value, long bytes) throws GpuMemoryFault {
    if ((dst & 3) != 0 || (bytes & 3) != 0) {
      throw new IllegalArgumentException(String.format("constant fill needs dword alignment: 0x%x + %d", dst, bytes));
    }
    long done = 0;
    while (done < bytes) {
      long d = dst + done;
      int off = (int) d & (PAGE - 1);
      int n = (int) Math.min(bytes - done, PAGE - off);
      PageBacking to = vm.translate(d, AccessKind.WRITE);
      long[] words = to.words();
      if (words != null) {
        PageWords.fill32(words, off, value, n);
      } else {
        for (int k = 0; k < n; k += 4) to.store(off + k, value & 0xffff_ffffL, 4);
      }
      done += n;
    }
    bytesMoved.addAndGet(bytes);
  }

  /** Copies from a linear host buffer, as if staged through a bounce buffer in GTT. */
  public void write(GpuVm vm, long dst, byte[] src, int offset, int length) throws GpuMemoryFault {
    vm.write(dst, src, offset, length);
    bytesMoved.addAndGet(length);
  }

  /** Copies into a linear host buffer, as if through a bounce buffer in GTT. */
  public void read(GpuVm vm, long src, byte[] dst, int offset, int length) throws GpuMemoryFault {
    vm.read(src, dst, offset, length);
    bytesMoved.addAndGet(length);
  }

  /** Completes a signal after a transfer, as the engine's trailing atomic-decrement and trap packets do. */
  public void signal(GpuVm vm, long completionSignal, QueueHost host) throws GpuMemoryFault {
    if (completionSignal != 0) AmdSignal.complete(vm, completionSignal, host);
  }

  public long bytesMoved() {
    return bytesMoved.get();
  }
}
