package dev.hipsim.isa.mem;

/**
 * Device memory as the shader sees it: GPU virtual addresses, little-endian, any alignment. Implementations must be
 * safe for waves running on several threads; the atomic operations are atomic with respect to each other and to
 * the plain accesses of the same width.
 *
 * <p>Loads and stores that cross a page boundary behave as if done byte by byte (each page checked).
 */
public interface GpuMemory {
  byte load8(long address) throws GpuMemoryFault;

  short load16(long address) throws GpuMemoryFault;

  int load32(long address) throws GpuMemoryFault;

  long load64(long address) throws GpuMemoryFault;

  void store8(long address, byte value) throws GpuMemoryFault;

  void store16(long address, short value) throws GpuMemoryFault;

  void store32(long address, int value) throws GpuMemoryFault;

  void store64(long address, long value) throws GpuMemoryFault;

  /** Copies {@code length} bytes from device memory into {@code dst}. */
  void read(long address, byte[] dst, int offset, int length) throws GpuMemoryFault;

  /** Copies {@code length} bytes from {@code src} into device memory. */
  void write(long address, byte[] src, int offset, int length) throws GpuMemoryFault;

  /**
   * Copies {@code length} bytes of instructions into {@code dst}: like {@link #read}, but every page must be
   * executable and faults report {@link AccessKind#EXECUTE}. Memories without page permissions just read.
   */
  default void fetch(long address, byte[] dst, int offset, int length) throws GpuMemoryFault {
    read(address, dst, offset, length);
  }

  /**
   * The load of a vector memory instruction: for each lane set in {@code lanes}, in increasing lane order,
   * {@code dwords} consecutive dwords from {@code address[lane]} into {@code out[k * 64 + lane]}. It faults as
   * those {@link #load32} calls would, at the first that fails (lanes before it may have been loaded). The default
   * makes exactly those calls; memories override it to translate once per page rather than once per access.
   */
  default void loadLanes32(long[] address, long lanes, int dwords, int[] out) throws GpuMemoryFault {
    for (long m = lanes; m != 0; m &= m - 1) {
      int l = Long.numberOfTrailingZeros(m);
      for (int k = 0; k < dwords; k++) out[k * 64 + l] = load32(address[l] + 4L * k);
    }
  }

  /**
   * The store of a vector memory instruction: for each lane set in {@code lanes}, in increasing lane order,
   * {@code dwords} consecutive dwords to {@code address[lane]} from {@code data[base + k * 64 + lane]} (a vector
   * register range). Where lanes write the same bytes, the last lane's data stays, and it faults as the
   * {@link #store32} calls in that order would. The default makes exactly those calls.
   */
  default void storeLanes32(long[] address, long lanes, int dwords, int[] data, int base) throws GpuMemoryFault {
    for (long m = lanes; m != 0; m &= m - 1) {
      int l = Long.numberOfTrailingZeros(m);
      for (int k = 0; k < dwords; k++) store32(address[l] + 4L * k, data[base + k * 64 + l]);
    }
  }

  /**
   * The page of 4 KiB holding {@code address}, as its 512 little-endian 64-bit words (byte {@code b} of the page is
   * byte {@code b & 7} of word {@code b >>> 3}), when plain loads may read it there: readable RAM whose translation
   * is at hand. Null otherwise, and then a caller loads through {@link #load32} and its kin, which translate, fault
   * or reach what is not plain RAM. Generated code reads a run of lanes' loads from the words without a call per
   * lane. The default is null: a memory that watches or counts its loads sees every one.
   */
  default long[] readableWords(long address) {
    return null;
  }

  /** A 32-bit atomic read-modify-write at a 4-byte aligned address; returns the old value. */
  int atomic32(AtomicOp op, long address, int value, int compare) throws GpuMemoryFault;

  /** A 64-bit atomic read-modify-write at an 8-byte aligned address; returns the old value. */
  long atomic64(AtomicOp op, long address, long value, long compare) throws GpuMemoryFault;
}
