package dev.hipsim.kfd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.isa.mem.AccessKind;
import dev.hipsim.isa.mem.GpuMemoryFault;
import dev.hipsim.kfd.mem.PageBacking;
import dev.hipsim.kfd.vm.Pte;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;

/**
 * Random sequences of allocate / map / unmap / free / write / read / probe / SDMA copy against a simple model of
 * what each buffer holds and where it is mapped. After every step: buffers stay disjoint (the driver refuses exactly
 * the overlapping requests), the page tables agree with the allocator (the walk of sampled pages lands on the
 * buffer's own physical page with its permissions; unmapped and freed pages walk to nothing), VRAM in use is exactly
 * the live buffers plus the page tables, and every access the model calls unmapped faults. At the end every page of
 * every buffer is checked, everything is freed, and no frame or backing page is left behind.
 */
class DriverProperties {
  private static final long WINDOW = 0x10_0000_0000L;
  private static final long SLOT = 1L << 20;
  private static final int[] PAGES = {1, 3, 16, 100, 511, 512, 513, 1031};

  /** One step; the fields are interpreted per kind (see {@link #run}). */
  record Step(int kind, int a, int b, int c, int d) {}

  @Provide
  Arbitrary<Step> steps() {
    return Combinators.combine(
        Arbitraries.frequency(
            net.jqwik.api.Tuple.of(5, 0), net.jqwik.api.Tuple.of(4, 1), net.jqwik.api.Tuple.of(2, 2),
            net.jqwik.api.Tuple.of(2, 3), net.jqwik.api.Tuple.of(4, 4), net.jqwik.api.Tuple.of(3, 5),
            net.jqwik.api.Tuple.of(4, 6), net.jqwik.api.Tuple.of(3, 7)),
        Arbitraries.integers().between(0, 1000), Arbitraries.integers().between(0, 1 << 30),
        Arbitraries.integers().between(0, 1 << 30), Arbitraries.integers()).as(Step::new);
  }

  /** The model of one buffer. */
  static final class Buffer {
    final long handle;
    final long va;
    final long size;
    final int flags;
    final byte[] content;
    final ByteBuffer user;
    boolean mapped;

    Buffer(long handle, long va, long size, int flags, ByteBuffer user) {
      this.handle = handle;
      this.va = va;
      this.size = size;
      this.flags = flags;
      this.content = new byte[(int) size];
      this.user = user;
    }

    boolean hostVisible() {
      return (flags & AllocFlags.VRAM) == 0 || (flags & AllocFlags.PUBLIC) != 0;
    }

    boolean writable() {
      return (flags & AllocFlags.WRITABLE) != 0;
    }
  }

  @Property(tries = 200)
  void randomSequencesKeepTablesAllocatorAndModelInAgreement(
      @ForAll @Size(min = 1, max = 30) List<@From("steps") Step> steps) throws Exception {
    try (Rig rig = new Rig(64L << 20)) {
      List<Buffer> live = new ArrayList<>();
      List<long[]> dead = new ArrayList<>(); // freed or unmapped ranges: {va, size}
      long totalFrames = rig.device.vram().frames();
      for (Step s : steps) {
        run(rig, live, dead, s);
        checkInvariants(rig, live, dead, s.d(), totalFrames);
      }
      for (Buffer b : live) {
        for (long off = 0; off < b.size; off += 4096) checkPage(rig, b, off);
        if (b.mapped) {
          byte[] got = new byte[(int) b.size];
          rig.vm.read(b.va, got, 0, got.length);
          assertThat(got).isEqualTo(b.content);
        }
      }
      for (Buffer b : live) {
        if (b.mapped) rig.process.unmapMemoryFromGpu(b.handle, rig.gpu);
        rig.process.freeMemoryOfGpu(b.handle);
      }
      assertThat(rig.device.vramAllocator().freeFrames()).as("only the PD root remains").isEqualTo(totalFrames - 1);
      assertThat(rig.device.vram().backedPages()).as("at most the root stays backed").isLessThanOrEqualTo(1);
      assertThat(rig.kfd.bus().ram().backedPages()).isZero();
      assertThat(rig.kfd.bus().ramAllocator().freeFrames()).isEqualTo(rig.kfd.bus().ram().frames());
    }
  }

  private void run(Rig rig, List<Buffer> live, List<long[]> dead, Step s) throws Exception {
    KfdProcess p = rig.process;
    Buffer b = live.isEmpty() ? null : live.get(s.a() % live.size());
    switch (s.kind()) {
      case 0: { // allocate
        int kind = s.a() % 3;
        long pages = PAGES[s.b() % PAGES.length];
        long size = pages * 4096 - (s.c() % 3 == 0 ? s.c() % 4000 : 0);
        long va = WINDOW + (s.c() % 64) * SLOT;
        if ((s.b() & 1) == 0) va &= ~((2L << 20) - 1);
        int flags = (kind == 0 ? AllocFlags.VRAM : kind == 1 ? AllocFlags.GTT : AllocFlags.USERPTR)
            | ((s.d() & 1) != 0 ? AllocFlags.WRITABLE : 0) | ((s.d() & 2) != 0 ? AllocFlags.EXECUTABLE : 0)
            | ((s.d() & 4) != 0 ? AllocFlags.PUBLIC : 0) | AllocFlags.NO_SUBSTITUTE;
        long span = (size + 4095) & ~4095L;
        boolean clash = false;
        for (Buffer o : live) clash |= va < o.va + ((o.size + 4095) & ~4095L) && o.va < va + span;
        ByteBuffer user = kind == 2 ? ((s.d() & 8) != 0 ? ByteBuffer.allocateDirect((int) span)
            : ByteBuffer.allocate((int) span)) : null;
        AllocRequest r = new AllocRequest(va, size, rig.gpu, flags, kind == 2 ? 0x7f00_0000_0000L + va : 0, user);
        Statistics.label("allocations").collect(clash ? "refused: overlap" : "made");
        if (clash) {
          assertThatThrownBy(() -> p.allocMemoryOfGpu(r)).isInstanceOfSatisfying(KfdException.class,
              e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL));
        } else {
          Buffer made = new Buffer(p.allocMemoryOfGpu(r).handle(), va, size, flags, user);
          live.add(made);
          if ((s.d() & 16) != 0) {
            p.mapMemoryToGpu(made.handle, rig.gpu);
            made.mapped = true;
          }
        }
        break;
      }
      case 1: // map
        if (b == null) break;
        assertThat(p.mapMemoryToGpu(b.handle, rig.gpu)).isEqualTo(1);
        b.mapped = true;
        break;
      case 2: // unmap
        if (b == null) break;
        if (!b.mapped) {
          assertThatThrownBy(() -> p.unmapMemoryFromGpu(b.handle, rig.gpu)).isInstanceOfSatisfying(
              KfdException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL));
          break;
        }
        p.unmapMemoryFromGpu(b.handle, rig.gpu);
        b.mapped = false;
        dead.add(new long[] {b.va, b.size});
        break;
      case 3: // free
        if (b == null) break;
        if (b.mapped) {
          assertThatThrownBy(() -> p.freeMemoryOfGpu(b.handle)).isInstanceOfSatisfying(KfdException.class,
              e -> assertThat(e.errno()).isEqualTo(Errno.EBUSY));
          break;
        }
        p.freeMemoryOfGpu(b.handle);
        live.remove(b);
        dead.add(new long[] {b.va, b.size});
        assertThatThrownBy(() -> p.freeMemoryOfGpu(b.handle)).isInstanceOfSatisfying(KfdException.class,
            e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL));
        break;
      case 4: { // write through the GPU (if mapped writable) or the CPU mapping
        if (b == null) break;
        int off = (int) (s.b() % b.size);
        int len = (int) Math.min(b.size - off, s.c() % 9000);
        byte[] data = new byte[len];
        new Random(s.d()).nextBytes(data);
        if (b.mapped && b.writable()) {
          rig.vm.write(b.va + off, data, 0, len);
        } else if (b.hostVisible()) {
          p.hostMemory().write(b.va + off, data, 0, len);
        } else {
          break;
        }
        System.arraycopy(data, 0, b.content, off, len);
        if (b.user != null) {
          byte[] mirror = new byte[len];
          b.user.get(off, mirror, 0, len);
          assertThat(mirror).as("USERPTR memory is shared with the process").isEqualTo(data);
        }
        break;
      }
      case 5: { // read back through the GPU and the CPU mapping
        if (b == null) break;
        int off = (int) (s.b() % b.size);
        int len = (int) Math.min(b.size - off, s.c() % 9000);
        byte[] want = new byte[len];
        System.arraycopy(b.content, off, want, 0, len);
        byte[] got = new byte[len];
        if (b.mapped) {
          rig.vm.read(b.va + off, got, 0, len);
          assertThat(got).isEqualTo(want);
        }
        if (b.hostVisible()) {
          p.hostMemory().read(b.va + off, got, 0, len);
          assertThat(got).isEqualTo(want);
        }
        break;
      }
      case 6: { // probe an address: faults exactly when no mapped buffer covers it
        long probe = WINDOW - SLOT + ((long) s.b() * 4099L + s.c()) % (66 * SLOT);
        if (b != null && (s.d() & 1) == 0) {
          // Near a buffer's edges, where off-by-one mappings would show.
          long span = (b.size + 4095) & ~4095L;
          long[] near = {0, b.size - 1, span - 1, span, -1, span + 4095, (s.c() & 0x7fff_ffffL) % span};
          probe = b.va + near[(s.d() >>> 1 & 0xffff) % near.length];
        }
        long va = probe;
        Buffer owner = null;
        for (Buffer o : live) if (va >= o.va && va < o.va + ((o.size + 4095) & ~4095L)) owner = o;
        Statistics.label("probes").collect(owner != null && owner.mapped ? "hit" : "fault");
        if (owner != null && owner.mapped) {
          int off = (int) (va - owner.va);
          assertThat(rig.vm.load8(va)).isEqualTo(off < owner.size ? owner.content[off] : 0);
        } else {
          GpuMemoryFault f = faultOf(() -> rig.vm.load8(va));
          assertThat(f.address()).isEqualTo(va);
          assertThat(f.kind()).isEqualTo(AccessKind.READ);
          assertThat(f.reason()).isEqualTo(GpuMemoryFault.PAGE_NOT_PRESENT);
        }
        break;
      }
      default: { // SDMA copy between two mapped buffers (or within one)
        if (b == null) break;
        Buffer d = live.get(s.b() % live.size());
        if (!d.writable()) break;
        for (Buffer m : new Buffer[] {b, d}) {
          if (!m.mapped) p.mapMemoryToGpu(m.handle, rig.gpu);
          m.mapped = true;
        }
        int srcOff = (int) (s.c() % b.size);
        int dstOff = (int) (((long) s.d() & 0x7fff_ffff) % d.size);
        int len = (int) Math.min(Math.min(b.size - srcOff, d.size - dstOff), (s.c() >>> 4) % 20000);
        if (b == d && srcOff < dstOff + len && dstOff < srcOff + len) break; // overlapping copies are undefined
        p.sdmaCopy(rig.gpu, d.va + dstOff, b.va + srcOff, len, 0);
        Statistics.label("SDMA copies").collect(len >= 4096 ? "4 KiB or more" : "shorter");
        System.arraycopy(b.content, srcOff, d.content, dstOff, len);
        break;
      }
    }
  }

  private void checkInvariants(Rig rig, List<Buffer> live, List<long[]> dead, int seed, long totalFrames) {
    Random r = new Random(seed);
    long vramFrames = 0;
    for (Buffer b : live) {
      if ((b.flags & AllocFlags.VRAM) != 0) vramFrames += (b.size + 4095) / 4096;
      checkPage(rig, b, 0);
      checkPage(rig, b, (b.size - 1) & ~4095L);
      for (int i = 0; i < 3; i++) checkPage(rig, b, (r.nextLong() & Long.MAX_VALUE) % b.size & ~4095L);
    }
    long tables = rig.vm.tables().tableFrames();
    assertThat(totalFrames - rig.device.vramAllocator().freeFrames()).as("VRAM = buffers + page tables")
        .isEqualTo(vramFrames + tables);
    for (long[] range : dead) {
      long va = range[0] + ((r.nextLong() & Long.MAX_VALUE) % range[1]);
      boolean covered = false;
      for (Buffer b : live) covered |= b.mapped && va >= b.va && va < b.va + ((b.size + 4095) & ~4095L);
      if (!covered) assertThat(rig.vm.walk(va)).as("0x%x was unmapped", va).isZero();
    }
  }

  /** The walk of one page agrees with the buffer: its physical page, system bit and permissions. */
  private void checkPage(Rig rig, Buffer b, long offset) {
    long va = b.va + offset;
    long pte = rig.vm.walk(va);
    if (!b.mapped) {
      assertThat(pte).as("unmapped 0x%x", va).isZero();
      return;
    }
    Allocation a = allocationOf(rig, b.handle);
    boolean huge = dev.hipsim.kfd.vm.PageWalker.tableAddress(rig.device.vram(), rig.vm.rootAddress(), va, 3) < 0;
    Statistics.label("pages checked").collect(huge ? "2 MiB page" : "4 KiB page");
    assertThat(pte & Pte.ADDRESS_MASK).as("physical page of 0x%x", va).isEqualTo(expectedPhysical(a, offset));
    assertThat((pte & Pte.SYSTEM) != 0).isEqualTo(a.system());
    assertThat((pte & Pte.WRITEABLE) != 0).isEqualTo(b.writable());
    assertThat((pte & Pte.EXECUTABLE) != 0).isEqualTo((b.flags & AllocFlags.EXECUTABLE) != 0);
    assertThat(pte & Pte.READABLE).isNotZero();
    try {
      PageBacking viaTables = rig.vm.translate(va, AccessKind.READ);
      PageBacking viaBuffer = a.page(offset, true, rig.kfd.bus());
      if (viaBuffer.words() != null) assertThat(viaTables.words()).isSameAs(viaBuffer.words());
      else assertThat(viaTables).isSameAs(viaBuffer);
    } catch (GpuMemoryFault f) {
      throw new AssertionError(f);
    }
  }

  /** The reference model of translation: the buffer's runs, searched linearly. */
  private static long expectedPhysical(Allocation a, long offset) {
    for (int i = 0; i < a.runs(); i++) {
      if (offset >= a.runOffset(i) && offset < a.runOffset(i) + a.runBytes(i)) {
        return a.runAddress(i) + (offset - a.runOffset(i));
      }
    }
    throw new AssertionError("offset outside the buffer");
  }

  static Allocation allocationOf(Rig rig, long handle) {
    return rig.process.buffer(handle);
  }

  interface Access {
    void run() throws GpuMemoryFault;
  }

  static GpuMemoryFault faultOf(Access access) {
    try {
      access.run();
    } catch (GpuMemoryFault f) {
      return f;
    }
    throw new AssertionError("expected a GPU memory fault");
  }

}
