package dev.hipsim.kfd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.mem.AtomicOp;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

/**
 * The lane-vector path of {@link dev.hipsim.kfd.vm.GpuVm} (one translation per page, paired dwords stored as one
 * word) against the lane-by-lane accesses it replaces, on two identical machines: the same data loaded, the same
 * memory contents after stores, the same fault (address, kind, reason) at the same point. Addresses are contiguous,
 * strided, scattered or repeated, aligned or not, over VRAM, system memory, a user buffer (not plain words), a
 * read-only page and unmapped pages.
 */
class LaneAccessProperties {
  private static final long VRAM_VA = 0x10_0000_0000L;
  private static final long RO_VA = VRAM_VA + 0x3000; // after 3 pages of VRAM
  private static final long HOLE_VA = RO_VA + 0x1000; // unmapped
  private static final long GTT_VA = 0x10_0010_0000L;
  private static final long USER_VA = 0x10_0020_0000L;
  private static final long[] BASES = {VRAM_VA, VRAM_VA + 0x1000 - 64, GTT_VA, USER_VA, RO_VA - 128, HOLE_VA - 8};

  private Rig vector;
  private Rig lanes;

  @BeforeProperty
  void setUp() throws Exception {
    vector = rig();
    lanes = rig();
  }

  private static Rig rig() throws Exception {
    Rig rig = new Rig(64L << 20);
    int rw = AllocFlags.WRITABLE | AllocFlags.PUBLIC;
    rig.mapped(VRAM_VA, 0x3000, AllocFlags.VRAM | rw);
    rig.mapped(RO_VA, 0x1000, AllocFlags.VRAM);
    rig.mapped(GTT_VA, 0x2000, AllocFlags.GTT | rw);
    long h = rig.process.allocMemoryOfGpu(AllocRequest.userptr(USER_VA, 0x2000, rig.gpu, rw, 0x7f00_1234_0000L,
        ByteBuffer.allocateDirect(0x2000))).handle();
    rig.process.mapMemoryToGpu(h, rig.gpu);
    return rig;
  }

  @AfterProperty
  void tearDown() {
    vector.close();
    lanes.close();
  }

  /** The default (lane by lane) implementation over the same memory. */
  private static GpuMemory laneByLane(GpuMemory m) {
    return new GpuMemory() {
      public byte load8(long a) throws GpuMemoryFault { return m.load8(a); }
      public short load16(long a) throws GpuMemoryFault { return m.load16(a); }
      public int load32(long a) throws GpuMemoryFault { return m.load32(a); }
      public long load64(long a) throws GpuMemoryFault { return m.load64(a); }
      public void store8(long a, byte v) throws GpuMemoryFault { m.store8(a, v); }
      public void store16(long a, short v) throws GpuMemoryFault { m.store16(a, v); }
      public void store32(long a, int v) throws GpuMemoryFault { m.store32(a, v); }
      public void store64(long a, long v) throws GpuMemoryFault { m.store64(a, v); }
      public void read(long a, byte[] d, int o, int n) throws GpuMemoryFault { m.read(a, d, o, n); }
      public void write(long a, byte[] s, int o, int n) throws GpuMemoryFault { m.write(a, s, o, n); }
      public int atomic32(AtomicOp op, long a, int v, int c) throws GpuMemoryFault { return m.atomic32(op, a, v, c); }
      public long atomic64(AtomicOp op, long a, long v, long c) throws GpuMemoryFault {
        return m.atomic64(op, a, v, c);
      }
    };
  }

  /** Lane addresses for accesses of {@code dwords} dwords per lane. */
  private static long[] addresses(Random r, int dwords) {
    long[] a = new long[64];
    long base = BASES[r.nextInt(BASES.length)] + 4L * r.nextInt(16) + (r.nextInt(8) == 0 ? r.nextInt(4) : 0);
    int pattern = r.nextInt(6);
    for (int l = 0; l < 64; l++) {
      switch (pattern) {
        case 0: a[l] = base + 4L * l; break;                      // contiguous dwords
        case 1: a[l] = base + 8L * l; break;                      // every other dword
        case 2: a[l] = base + 4L * (63 - l); break;               // descending
        case 3: a[l] = base + 4L * r.nextInt(300); break;         // scattered, with repeats
        case 4: a[l] = base + 4L * dwords * l; break;             // each lane's dwords after the last lane's
        default: a[l] = base + 4L * (l / 4) + (r.nextInt(16) == 0 ? 1 : 0); break; // repeated, some unaligned
      }
    }
    return a;
  }

  private static long mask(Random r) {
    switch (r.nextInt(4)) {
      case 0: return -1L;
      case 1: return r.nextLong();
      case 2: return r.nextLong() & r.nextLong() & r.nextLong();
      default: return 1L << r.nextInt(64);
    }
  }

  private static String fault(GpuMemoryFault f) {
    return f == null ? "none" : String.format("0x%x %s %s", f.address(), f.kind(), f.reason());
  }

  private static byte[] contents(Rig rig) throws GpuMemoryFault {
    byte[] all = new byte[0x3000 + 0x1000 + 0x2000 + 0x2000];
    GpuMemory host = rig.vm;
    host.read(VRAM_VA, all, 0, 0x4000);
    host.read(GTT_VA, all, 0x4000, 0x2000);
    host.read(USER_VA, all, 0x6000, 0x2000);
    return all;
  }

  @Property(tries = 400)
  void loadsSeeWhatLaneByLaneLoadsSee(@ForAll long seed) throws Exception {
    Random r = new Random(seed);
    int dwords = 1 + r.nextInt(4);
    checkLoads(r, addresses(r, dwords), mask(r), dwords);
  }

  /**
   * All 64 lanes loading one block, each lane's dwords after the previous lane's (the input of most kernels): the
   * case where the vector path loads whole words. The rig lives for the whole property, so after the first tries the
   * pages' translations are cached and the fast paths run.
   */
  @Property(tries = 300)
  void contiguousLoadsOfAllLanesSeeWhatLaneByLaneLoadsSee(@ForAll long seed) throws Exception {
    Random r = new Random(seed);
    int dwords = 1 + r.nextInt(4);
    long[] address = new long[64];
    long base = BASES[r.nextInt(BASES.length)] + 4L * r.nextInt(16);
    for (int l = 0; l < 64; l++) address[l] = base + 4L * dwords * l;
    checkLoads(r, address, -1L, dwords);
  }

  /**
   * {@code readableWords}, what generated code reads lanes' dwords from: null for a page whose translation is not
   * cached (before any access) or that cannot be read (unmapped); after a load, the words of a readable RAM page,
   * in which every dword is what {@code load32} returns, and which see later stores. A user buffer (not plain
   * words) gives null too: its loads go through load32.
   */
  @Property(tries = 200)
  void readableWordsHoldWhatLoadsReturn(@ForAll long seed) throws Exception {
    Random r = new Random(seed);
    try (Rig rig = rig()) {
      long[] bases = {VRAM_VA, VRAM_VA + 0x1000, GTT_VA, USER_VA, RO_VA, HOLE_VA};
      long page = bases[r.nextInt(bases.length)];
      long at = page + 4L * r.nextInt(1024);
      assertThat(rig.vm.readableWords(at)).as("before any access to the page").isNull();
      int value = r.nextInt();
      boolean mapped = page != HOLE_VA;
      boolean hostWritable = mapped && page != RO_VA; // the read-only page is VRAM the host cannot reach
      if (hostWritable) rig.process.hostMemory().write(at, new byte[] {(byte) value, (byte) (value >>> 8),
          (byte) (value >>> 16), (byte) (value >>> 24)}, 0, 4);
      int loaded;
      try {
        loaded = rig.vm.load32(at);
      } catch (GpuMemoryFault f) {
        assertThat(mapped).as("only the unmapped page faults").isFalse();
        assertThat(rig.vm.readableWords(at)).isNull();
        return;
      }
      if (hostWritable) assertThat(loaded).isEqualTo(value);
      long[] words = rig.vm.readableWords(at);
      if (page == USER_VA) {
        assertThat(words).as("a user buffer is not plain words").isNull();
        return;
      }
      assertThat(words).as("a readable RAM page after a load").isNotNull().hasSize(512);
      for (int i = 0; i < 16; i++) {
        long a = page + 4L * r.nextInt(1024);
        int fromWords = (int) (words[(int) (a >>> 3) & 511] >>> ((a & 4) << 3));
        assertThat(fromWords).as("dword at 0x%x", a).isEqualTo(rig.vm.load32(a));
      }
      if (page != RO_VA) {
        int stored = r.nextInt();
        rig.vm.store32(at, stored);
        assertThat((int) (words[(int) (at >>> 3) & 511] >>> ((at & 4) << 3))).as("a later store").isEqualTo(stored);
      }
    }
  }

  /** Loads with the vector path on one machine and lane by lane on the other; compares the faults and the data. */
  private void checkLoads(Random r, long[] address, long mask, int dwords) throws Exception {
    byte[] fill = new byte[0x2000];
    r.nextBytes(fill);
    for (Rig rig : new Rig[] {vector, lanes}) {
      rig.process.hostMemory().write(VRAM_VA, fill, 0, 0x2000);
      rig.process.hostMemory().write(GTT_VA, fill, 0, 0x2000);
      rig.process.hostMemory().write(USER_VA, fill, 0, 0x2000);
    }
    int[] got = new int[4 * 64];
    int[] want = new int[4 * 64];
    GpuMemoryFault gotFault = null;
    GpuMemoryFault wantFault = null;
    try {
      vector.vm.loadLanes32(address, mask, dwords, got);
    } catch (GpuMemoryFault f) {
      gotFault = f;
    }
    try {
      laneByLane(lanes.vm).loadLanes32(address, mask, dwords, want);
    } catch (GpuMemoryFault f) {
      wantFault = f;
    }
    assertThat(fault(gotFault)).isEqualTo(fault(wantFault));
    if (wantFault == null) assertThat(got).isEqualTo(want);
  }

  @Property(tries = 400)
  void storesLeaveWhatLaneByLaneStoresLeave(@ForAll long seed) throws Exception {
    Random r = new Random(seed);
    int dwords = 1 + r.nextInt(4);
    checkStores(r, addresses(r, dwords), mask(r), dwords);
  }

  /**
   * All 64 lanes storing one block, each lane's dwords after the previous lane's (the output of most kernels): the
   * case where the vector path pairs dwords into whole-word stores most.
   */
  @Property(tries = 300)
  void contiguousStoresOfAllLanesLeaveWhatLaneByLaneStoresLeave(@ForAll long seed) throws Exception {
    Random r = new Random(seed);
    int dwords = 1 + r.nextInt(4);
    long[] address = new long[64];
    long base = BASES[r.nextInt(BASES.length)] + 4L * r.nextInt(16);
    for (int l = 0; l < 64; l++) address[l] = base + 4L * dwords * l;
    checkStores(r, address, -1L, dwords);
  }

  /** Stores with the vector path on one machine and lane by lane on the other; compares the faults and memory. */
  private void checkStores(Random r, long[] address, long mask, int dwords) throws Exception {
    byte[] fill = new byte[0x2000];
    r.nextBytes(fill);
    for (Rig rig : new Rig[] {vector, lanes}) {
      rig.process.hostMemory().write(VRAM_VA, fill, 0, 0x2000);
      rig.process.hostMemory().write(GTT_VA, fill, 0, 0x2000);
      rig.process.hostMemory().write(USER_VA, fill, 0, 0x2000);
    }
    int[] registers = new int[8 * 64];
    for (int i = 0; i < registers.length; i++) registers[i] = r.nextInt();
    int base = 64 * r.nextInt(4);
    GpuMemoryFault gotFault = null;
    GpuMemoryFault wantFault = null;
    try {
      vector.vm.storeLanes32(address, mask, dwords, registers, base);
    } catch (GpuMemoryFault f) {
      gotFault = f;
    }
    try {
      laneByLane(lanes.vm).storeLanes32(address, mask, dwords, registers, base);
    } catch (GpuMemoryFault f) {
      wantFault = f;
    }
    assertThat(fault(gotFault)).isEqualTo(fault(wantFault));
    byte[] got = contents(vector);
    byte[] want = contents(lanes);
    if (!Arrays.equals(got, want)) {
      int i = Arrays.mismatch(got, want);
      throw new AssertionError(String.format("memory differs first at byte %d of the buffers (mask 0x%x, dwords %d, "
          + "lane 0 at 0x%x)", i, mask, dwords, address[0]));
    }
  }
}
