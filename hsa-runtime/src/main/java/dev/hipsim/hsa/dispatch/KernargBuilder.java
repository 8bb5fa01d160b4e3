package dev.hipsim.hsa.dispatch;

import dev.hipsim.bundle.metadata.KernelArgument;
import dev.hipsim.bundle.metadata.KernelMetadata;
import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.HsaStatus;
import dev.hipsim.hsa.loader.ExecutableSymbol;
import dev.hipsim.hsa.queue.HsaQueue;
import java.util.List;

/**
 * Lays out a kernel's argument segment as CLR does: each explicit argument at the offset and size its metadata
 * gives, then every hidden argument the metadata lists (code object v4's global offsets and buffers, v5/v6's block
 * counts, group sizes, remainders, grid dimensions, heap, dynamic LDS size, aperture bases and queue pointer) filled
 * from the launch, the queue and {@link HiddenArguments}, as {@code VirtualGPU::submitKernelInternal} fills them.
 * Bytes no argument covers stay zero.
 */
public final class KernargBuilder {
  private final ExecutableSymbol.Kernel kernel;
  private final KernelMetadata metadata;
  private final List<KernelArgument> explicit;
  private final byte[] segment;
  private final boolean[] set;

  public KernargBuilder(ExecutableSymbol.Kernel kernel) throws HsaException {
    this.kernel = kernel;
    if (kernel.metadata().isEmpty()) {
      throw new HsaException(HsaStatus.INVALID_ARGUMENT, "kernel " + kernel.kernelName() + " has no metadata, so"
          + " its argument layout is unknown");
    }
    this.metadata = kernel.metadata().get();
    this.explicit = metadata.explicitArguments();
    long size = kernel.kernargSegmentSize();
    for (KernelArgument a : metadata.arguments()) {
      if (a.offset() < 0 || a.size() < 0 || a.offset() + a.size() > size) {
        throw new HsaException(HsaStatus.INVALID_ARGUMENT, String.format("kernel %s: argument %s at offset %d (%d "
            + "bytes) lies outside its %d-byte kernarg segment", kernel.kernelName(), a.valueKindName(), a.offset(),
            a.size(), size));
      }
    }
    this.segment = new byte[(int) size];
    this.set = new boolean[explicit.size()];
  }

  public ExecutableSymbol.Kernel kernel() {
    return kernel;
  }

  /** Number of arguments the caller supplies. */
  public int explicitCount() {
    return explicit.size();
  }

  /** Bytes the explicit arguments span: the end of the last one. */
  public long explicitSize() {
    long end = 0;
    for (KernelArgument a : explicit) end = Math.max(end, a.offset() + a.size());
    return end;
  }

  /** Where the hidden arguments start (the kernarg segment's size if there are none). */
  public long hiddenStart() {
    long start = segment.length;
    for (KernelArgument a : metadata.hiddenArguments()) start = Math.min(start, a.offset());
    return start;
  }

  /** Sets explicit argument {@code index} (0-based, metadata order) to exactly its size in bytes. */
  public KernargBuilder set(int index, byte[] value) throws HsaException {
    KernelArgument a = argument(index);
    if (value.length != a.size()) {
      throw new HsaException(HsaStatus.INVALID_ARGUMENT, describe(index, a) + " takes " + a.size() + " bytes, "
          + value.length + " given");
    }
    System.arraycopy(value, 0, segment, (int) a.offset(), value.length);
    set[index] = true;
    return this;
  }

  public KernargBuilder pointer(int index, long address) throws HsaException {
    return set(index, le(address, 8));
  }

  public KernargBuilder i32(int index, int value) throws HsaException {
    return set(index, le(value, 4));
  }

  public KernargBuilder i64(int index, long value) throws HsaException {
    return set(index, le(value, 8));
  }

  public KernargBuilder f32(int index, float value) throws HsaException {
    return set(index, le(Float.floatToRawIntBits(value), 4));
  }

  public KernargBuilder f64(int index, double value) throws HsaException {
    return set(index, le(Double.doubleToRawLongBits(value), 8));
  }

  /**
   * Takes all explicit arguments at once, already laid out (HIP's {@code HIP_LAUNCH_PARAM_BUFFER_POINTER}): its
   * length must cover every explicit argument and not reach into the hidden ones.
   */
  public KernargBuilder explicitBlock(byte[] bytes) throws HsaException {
    long min = explicitSize();
    long max = hiddenStart();
    if (bytes.length < min || bytes.length > max) {
      throw new HsaException(HsaStatus.INVALID_ARGUMENT, String.format("kernel %s takes %d bytes of explicit "
          + "arguments%s, %d given", kernel.kernelName(), min, max > min ? " (" + max + " with padding)" : "",
          bytes.length));
    }
    System.arraycopy(bytes, 0, segment, 0, bytes.length);
    java.util.Arrays.fill(set, true);
    return this;
  }

  private KernelArgument argument(int index) throws HsaException {
    if (index < 0 || index >= explicit.size()) {
      throw new HsaException(HsaStatus.INVALID_ARGUMENT, "kernel " + kernel.kernelName() + " takes "
          + explicit.size() + " explicit argument(s); there is no argument " + index);
    }
    return explicit.get(index);
  }

  private String describe(int index, KernelArgument a) {
    String name = a.name().map(n -> "'" + n + "', ").orElse("");
    String type = a.typeName().map(t -> t + ", ").orElse("");
    return String.format("argument %d (%s%s%s, %d bytes at offset %d) of kernel %s", index, name, type,
        a.valueKindName(), a.size(), a.offset(), kernel.kernelName());
  }

  /**
   * The finished segment: every explicit argument must be set. Hidden arguments are filled for a launch of
   * {@code geometry} with {@code dynamicLdsBytes} of dynamic shared memory on {@code queue}.
   */
  public byte[] build(LaunchGeometry geometry, int dynamicLdsBytes, HiddenArguments hidden, HsaQueue queue)
      throws HsaException {
    for (int i = 0; i < set.length; i++) {
      if (!set[i]) throw new HsaException(HsaStatus.INVALID_ARGUMENT, describe(i, explicit.get(i)) + " was not set");
    }
    byte[] out = segment.clone();
    fillHidden(out, metadata, geometry, dynamicLdsBytes, hidden, queue.address(),
        queue.privateSegmentApertureBaseHi(), queue.groupSegmentApertureBaseHi());
    return out;
  }

  /**
   * Writes the hidden arguments of {@code metadata} into {@code segment} (a kernarg segment whose explicit part is
   * already in place), as CLR's submitKernelInternal does.
   */
  public static void fillHidden(byte[] segment, KernelMetadata metadata, LaunchGeometry g, int dynamicLdsBytes,
      HiddenArguments h, long queueAddress, int privateBaseHi, int sharedBaseHi) {
    int dims = g.dimensions();
    long[] global = new long[3];
    long[] local = new long[3];
    for (int i = 0; i < 3; i++) {
      global[i] = i < dims ? g.grid(i) & 0xffff_ffffL : 1;
      local[i] = i < dims ? g.group(i) & 0xffff : 1;
    }
    for (KernelArgument a : metadata.hiddenArguments()) {
      long v;
      switch (a.valueKind()) {
        case HIDDEN_GLOBAL_OFFSET_X: v = g.offset(0); break;
        case HIDDEN_GLOBAL_OFFSET_Y: if (dims < 2) continue; v = g.offset(1); break;
        case HIDDEN_GLOBAL_OFFSET_Z: if (dims < 3) continue; v = g.offset(2); break;
        case HIDDEN_PRINTF_BUFFER: v = h.printfBuffer(); break;
        case HIDDEN_HOSTCALL_BUFFER: v = h.hostcallBuffer(); break;
        case HIDDEN_DEFAULT_QUEUE: v = h.defaultQueue(); break;
        case HIDDEN_COMPLETION_ACTION: v = h.completionAction(); break;
        case HIDDEN_MULTIGRID_SYNC_ARG: v = h.multigridSync(); break;
        case HIDDEN_HEAP_V1: v = h.heap(); break;
        case HIDDEN_BLOCK_COUNT_X: v = global[0] / local[0]; break;
        case HIDDEN_BLOCK_COUNT_Y: v = global[1] / local[1]; break;
        case HIDDEN_BLOCK_COUNT_Z: v = global[2] / local[2]; break;
        case HIDDEN_GROUP_SIZE_X: v = local[0]; break;
        case HIDDEN_GROUP_SIZE_Y: v = local[1]; break;
        case HIDDEN_GROUP_SIZE_Z: v = local[2]; break;
        case HIDDEN_REMAINDER_X: v = global[0] % local[0]; break;
        case HIDDEN_REMAINDER_Y: if (dims < 2) continue; v = global[1] % local[1]; break;
        case HIDDEN_REMAINDER_Z: if (dims < 3) continue; v = global[2] % local[2]; break;
        case HIDDEN_GRID_DIMS: v = dims; break;
        case HIDDEN_PRIVATE_BASE: v = privateBaseHi & 0xffff_ffffL; break;
        case HIDDEN_SHARED_BASE: v = sharedBaseHi & 0xffff_ffffL; break;
        case HIDDEN_QUEUE_PTR: v = queueAddress; break;
        case HIDDEN_DYNAMIC_LDS_SIZE: v = dynamicLdsBytes & 0xffff_ffffL; break;
        default: continue; // hidden_none and kinds newer than this runtime stay zero
      }
      int at = (int) a.offset();
      for (int k = 0; k < a.size() && k < 8; k++) segment[at + k] = (byte) (v >>> (8 * k));
    }
  }

  private static byte[] le(long v, int n) {
    byte[] b = new byte[n];
    for (int k = 0; k < n; k++) b[k] = (byte) (v >>> (8 * k));
    return b;
  }
}
