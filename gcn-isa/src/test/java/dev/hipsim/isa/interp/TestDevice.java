package dev.hipsim.isa.interp;

import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.ElfSymbol;
import dev.hipsim.elf.ProgramHeader;
import dev.hipsim.elf.Relocation;
import dev.hipsim.elf.RelocationSection;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.dispatch.DispatchGeometry;
import dev.hipsim.isa.dispatch.DispatchPacket;
import dev.hipsim.isa.dispatch.KernelDescriptor;
import dev.hipsim.isa.exec.DispatchOptions;
import dev.hipsim.isa.exec.DispatchRunner;
import dev.hipsim.isa.exec.DispatchStats;
import dev.hipsim.isa.exec.KernelLaunch;
import dev.hipsim.isa.mem.FlatMemory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A bare device for interpreter tests: one flat memory, a bump allocator, a minimal code-object loader (segments and
 * RELATIVE64 relocations) and dispatch of a kernel by its descriptor address. The real path (HSA loader, KFD page
 * tables) is tested in the modules above.
 */
final class TestDevice {
  static final long BASE = 0x1_0000_0000L;
  static final long SHARED_APERTURE = 1L << 48;
  static final long PRIVATE_APERTURE = 2L << 48;

  final Target target;
  final FlatMemory memory;
  final CodeCache code;
  private long next = BASE;
  private long dispatchId;

  TestDevice(Target target, int bytes) {
    this.target = target;
    this.memory = new FlatMemory(BASE, bytes);
    this.code = new CodeCache(target);
  }

  long alloc(long bytes) {
    long at = (next + 255) & ~255L;
    next = at + bytes;
    if (next > BASE + memory.size()) throw new IllegalStateException("test device out of memory");
    return at;
  }

  void write(long address, byte[] bytes) throws Exception {
    memory.write(address, bytes, 0, bytes.length);
  }

  byte[] read(long address, int length) throws Exception {
    byte[] out = new byte[length];
    memory.read(address, out, 0, length);
    return out;
  }

  /** A loaded code object: where it is and how to find its kernels. */
  record Loaded(long base, ElfFile elf) {
    long kernel(String name) throws Exception {
      for (ElfSymbol s : elf.dynamicSymbols()) {
        if (s.name().equals(name + ".kd")) return base + s.value();
      }
      throw new IllegalArgumentException("no kernel " + name);
    }

    long symbol(String name) throws Exception {
      for (ElfSymbol s : elf.dynamicSymbols()) {
        if (s.name().equals(name)) return base + s.value();
      }
      throw new IllegalArgumentException("no symbol " + name);
    }
  }

  Loaded load(byte[] image) throws Exception {
    ElfFile elf = ElfFile.parse(image);
    long end = 0;
    for (ProgramHeader p : elf.segments()) {
      if (p.type() == ProgramHeader.PT_LOAD) end = Math.max(end, p.virtualAddress() + p.memorySize());
    }
    long base = alloc(end + 4096) + 4095 & ~4095L;
    for (ProgramHeader p : elf.segments()) {
      if (p.type() == ProgramHeader.PT_LOAD && p.fileSize() > 0) {
        memory.write(base + p.virtualAddress(), image, (int) p.offset(), (int) p.fileSize());
      }
    }
    for (RelocationSection r : elf.relocationSections()) {
      for (Relocation rel : r.relocations()) {
        if (rel.type() == Relocation.R_AMDGPU_RELATIVE64) memory.store64(base + rel.offset(), base + rel.addend());
      }
    }
    return new Loaded(base, elf);
  }

  /** Dispatches the kernel whose descriptor is at {@code kd} over a 1-3D grid (sizes in work-items). */
  DispatchStats dispatch(String name, long kd, int[] grid, int[] block, byte[] kernargs, int dynamicLds, int threads)
      throws Exception {
    return dispatch(name, kd, grid, block, kernargs, dynamicLds, threads, -1, 256);
  }

  /**
   * As above, with the scratch each work-item gets ({@code -1}: the descriptor's fixed size) and the number of
   * waves' worth of scratch the queue provides (which bounds how many workgroups run at once).
   */
  DispatchStats dispatch(String name, long kd, int[] grid, int[] block, byte[] kernargs, int dynamicLds, int threads,
      int scratchPerLane, int scratchSlots) throws Exception {
    byte[] kdBytes = read(kd, 64);
    KernelDescriptor d = KernelDescriptor.parse(kdBytes, 0);
    long args = alloc(Math.max(kernargs.length, 256));
    write(args, kernargs);
    int dims = grid.length;
    DispatchPacket p = new DispatchPacket(DispatchPacket.TYPE_KERNEL_DISPATCH, dims, block[0],
        dims > 1 ? block[1] : 1, dims > 2 ? block[2] : 1, grid[0], dims > 1 ? grid[1] : 1, dims > 2 ? grid[2] : 1,
        d.privateSegmentFixedSize(), d.groupSegmentFixedSize() + dynamicLds, kd, args, 0);
    long packetAddress = alloc(64);
    ByteBuffer pb = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
    p.writeTo(pb);
    write(packetAddress, pb.array());
    long queue = alloc(256);
    int perLane = (Math.max(scratchPerLane, d.privateSegmentFixedSize()) + 3) & ~3;
    int slots = scratchSlots;
    long scratch = perLane == 0 ? 0 : alloc((long) perLane * 64 * slots);
    DispatchGeometry geometry = DispatchGeometry.of(p, 64);
    KernelLaunch launch = new KernelLaunch(name, p, packetAddress, queue, dispatchId++, d, geometry, scratch,
        perLane, slots, true, target.isCdna3(), PRIVATE_APERTURE, SHARED_APERTURE, new int[0]);
    DispatchOptions options = DispatchOptions.defaults().withThreads(threads).withInstructionLimit(2_000_000_000L);
    return new DispatchRunner(launch, options, t -> new Interpreter(code, memory, launch), 65536).run();
  }

  static byte[] args(Object... values) {
    ByteBuffer b = ByteBuffer.allocate(512).order(ByteOrder.LITTLE_ENDIAN);
    for (Object v : values) {
      if (v instanceof Long l) {
        b.position((b.position() + 7) & ~7);
        b.putLong(l);
      } else if (v instanceof Integer i) {
        b.putInt(i);
      } else if (v instanceof Float f) {
        b.putFloat(f);
      }
    }
    return b.array();
  }
}
