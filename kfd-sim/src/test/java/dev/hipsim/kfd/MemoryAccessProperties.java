package dev.hipsim.kfd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.mem.AccessKind;
import dev.hipsim.isa.mem.AtomicOp;
import dev.hipsim.isa.mem.GpuMemoryFault;
import dev.hipsim.kfd.vm.GpuVm;
import java.nio.ByteBuffer;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import net.jqwik.api.statistics.Statistics;

/**
 * SDMA copies of random ranges are exact, and every access outside a mapping (or beyond what its PTE allows)
 * faults with the address of the first byte at fault, the access kind and ROCm's reason.
 */
class MemoryAccessProperties {
  private static final long VRAM_VA = 0x10_0000_0000L; // 2 MiB aligned: 2 MiB pages
  private static final long RO_VA = 0x10_0040_1000L;
  private static final long GTT_VA = 0x10_0060_0000L;
  private static final long USER_VA = 0x10_0080_0000L;
  private static final long UNMAPPED_VA = 0x10_00a0_0000L;
  private static final long FREED_VA = 0x10_00c0_0000L;

  private Rig rig;
  /** What each buffer should hold: [0] VRAM 3 MiB, [1] GTT 1 MiB + 123, [2] USERPTR 600 KiB + 5. */
  private byte[][] model;
  private final long[] vas = {VRAM_VA, GTT_VA, USER_VA};
  private final long[] sizes = {3L << 20, (1L << 20) + 123, (600L << 10) + 5};

  @BeforeProperty
  void setUp() throws Exception {
    rig = new Rig(64L << 20);
    int rw = AllocFlags.WRITABLE | AllocFlags.PUBLIC;
    rig.mapped(VRAM_VA, sizes[0], AllocFlags.VRAM | rw);
    rig.mapped(GTT_VA, sizes[1], AllocFlags.GTT | rw);
    long h = rig.process.allocMemoryOfGpu(AllocRequest.userptr(USER_VA, sizes[2], rig.gpu, rw, 0x7f00_1234_0000L,
        ByteBuffer.allocateDirect((int) sizes[2]))).handle();
    rig.process.mapMemoryToGpu(h, rig.gpu);
    rig.mapped(RO_VA, 8192, AllocFlags.VRAM | AllocFlags.EXECUTABLE);
    rig.process.allocMemoryOfGpu(AllocRequest.of(UNMAPPED_VA, 8192, rig.gpu, AllocFlags.GTT | rw));
    long freed = rig.process.allocMemoryOfGpu(AllocRequest.of(FREED_VA, 8192, rig.gpu, AllocFlags.VRAM | rw)).handle();
    rig.process.mapMemoryToGpu(freed, rig.gpu);
    rig.vm.store32(FREED_VA, 1); // cached in the TLB, then unmapped and freed: must not stay reachable
    rig.process.unmapMemoryFromGpu(freed, rig.gpu);
    rig.process.freeMemoryOfGpu(freed);
    model = new byte[3][];
    Random r = new Random(42);
    for (int i = 0; i < 3; i++) {
      model[i] = new byte[(int) sizes[i]];
      r.nextBytes(model[i]);
      rig.process.hostMemory().write(vas[i], model[i], 0, model[i].length);
    }
  }

  @AfterProperty
  void tearDown() {
    rig.close();
  }

  record Copy(int src, int dst, long srcPick, long dstPick, int length) {}

  @Provide
  Arbitrary<Copy> copies() {
    return Combinators.combine(Arbitraries.integers().between(0, 2), Arbitraries.integers().between(0, 2),
        Arbitraries.longs().greaterOrEqual(0), Arbitraries.longs().greaterOrEqual(0),
        Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(0, 64)),
            net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(65, 9000)),
            net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(9001, 600_000)))).as(Copy::new);
  }

  @Property(tries = 300)
  void sdmaCopiesOfRandomRangesAreExact(@ForAll("copies") Copy c) throws Exception {
    byte[] src = model[c.src()];
    byte[] dst = model[c.dst()];
    int length = Math.min(c.length(), Math.min(src.length, dst.length));
    int srcOff = (int) (c.srcPick() % (src.length - length + 1));
    int dstOff = (int) (c.dstPick() % (dst.length - length + 1));
    if (c.src() == c.dst() && srcOff < dstOff + length && dstOff < srcOff + length) {
      dstOff = (srcOff + length) % (dst.length - length + 1);
      if (dstOff < srcOff + length && srcOff < dstOff + length) return; // no room for a disjoint range
    }
    Statistics.label("route").collect(c.src() + "->" + c.dst());
    rig.process.sdmaCopy(rig.gpu, vas[c.dst()] + dstOff, vas[c.src()] + srcOff, length, 0);
    System.arraycopy(src, srcOff, dst, dstOff, length);
    byte[] got = new byte[dst.length];
    rig.process.hostMemory().read(vas[c.dst()], got, 0, got.length);
    assertThat(got).isEqualTo(dst);
  }

  record Access(int region, long delta, int kind, int size) {}

  @Provide
  Arbitrary<Access> accesses() {
    return Combinators.combine(Arbitraries.integers().between(0, 9), Arbitraries.longs().between(-300, 300),
        Arbitraries.integers().between(0, 3), Arbitraries.of(1, 2, 4, 8)).as(Access::new);
  }

  @Property(tries = 1500)
  void everyAccessOutsideAMappingFaults(@ForAll("accesses") Access a) {
    long[] anchors = {VRAM_VA, VRAM_VA + sizes[0], RO_VA, RO_VA + 8192, GTT_VA + ((sizes[1] + 4095) & ~4095L),
        USER_VA + ((sizes[2] + 4095) & ~4095L), UNMAPPED_VA + 4096, FREED_VA + 4096, 1L << 47, 0};
    long address = anchors[a.region()] + a.delta() * (a.region() >= 8 ? 977 : 1);
    if (a.region() == 9) address = a.delta() < 0 ? Long.MIN_VALUE / 3 + a.delta() : a.delta();
    AccessKind kind = AccessKind.values()[a.kind()];
    int size = a.size();
    GpuVm vm = rig.vm;
    // The model: the first byte whose page is not mapped, or whose PTE forbids this kind of access.
    String reason = null;
    long faultAt = 0;
    boolean misaligned = kind == AccessKind.ATOMIC && (address & (size < 4 ? 3 : size - 1)) != 0;
    for (int k = 0; k < size && reason == null; k++) {
      long b = address + k;
      String why = modelReason(b, kind);
      if (why != null) {
        reason = why;
        faultAt = b;
      }
    }
    if (misaligned) {
      reason = GpuVm.MISALIGNED_ATOMIC;
      faultAt = address;
    }
    Statistics.label("outcome").collect(reason == null ? "ok" : reason);
    long at = address;
    GpuMemoryFault f = null;
    try {
      switch (kind) {
        case READ:
          if (size == 1) vm.load8(at);
          else if (size == 2) vm.load16(at);
          else if (size == 4) vm.load32(at);
          else vm.load64(at);
          break;
        case WRITE:
          if (size == 1) vm.store8(at, (byte) 0);
          else if (size == 2) vm.store16(at, (short) 0);
          else if (size == 4) vm.store32(at, 0);
          else vm.store64(at, 0);
          break;
        case ATOMIC:
          if (size <= 4) vm.atomic32(AtomicOp.ADD, at, 0, 0);
          else vm.atomic64(AtomicOp.ADD, at, 0, 0);
          break;
        default:
          vm.fetch(at, new byte[size], 0, size);
          break;
      }
    } catch (GpuMemoryFault e) {
      f = e;
    }
    if (reason == null) {
      assertThat(f).as("access at 0x%x", address).isNull();
      return;
    }
    assertThat(f).as("access at 0x%x should fault (%s)", address, reason).isNotNull();
    assertThat(f.reason()).isEqualTo(reason);
    assertThat(f.address()).isEqualTo(faultAt);
    assertThat(f.kind()).isEqualTo(kind);
  }

  private String modelReason(long b, AccessKind kind) {
    boolean rw = (b >= VRAM_VA && b < VRAM_VA + sizes[0])
        || (b >= GTT_VA && b < GTT_VA + ((sizes[1] + 4095) & ~4095L))
        || (b >= USER_VA && b < USER_VA + ((sizes[2] + 4095) & ~4095L));
    boolean ro = b >= RO_VA && b < RO_VA + 8192;
    if (!rw && !ro) return GpuMemoryFault.PAGE_NOT_PRESENT;
    if (ro && (kind == AccessKind.WRITE || kind == AccessKind.ATOMIC)) return GpuMemoryFault.WRITE_TO_READ_ONLY;
    if (rw && kind == AccessKind.EXECUTE) return GpuMemoryFault.EXECUTE_NOT_ALLOWED;
    return null;
  }
}
