package dev.hipsim.isa.debug;

import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.ElfSymbol;
import dev.hipsim.elf.ProgramHeader;
import dev.hipsim.elf.Relocation;
import dev.hipsim.elf.RelocationSection;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.dispatch.DispatchGeometry;
import dev.hipsim.isa.dispatch.DispatchPacket;
import dev.hipsim.isa.dispatch.KernelDescriptor;
import dev.hipsim.isa.exec.DispatchStats;
import dev.hipsim.isa.exec.KernelLaunch;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.interp.CodeCache;
import dev.hipsim.isa.mem.FlatMemory;
import dev.hipsim.testing.Corpus;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A bare device for debugger tests, as the interpreter's tests have: one flat memory, a minimal code-object loader
 * that reports what it loads to the debugger, and dispatches run through {@link Debugger#runDispatch} on a thread of
 * their own, so that a test drives the stops like a front end.
 */
final class DebugHarness {
  static final long BASE = 0x1_0000_0000L;
  static final long SHARED_APERTURE = 1L << 48;
  static final long PRIVATE_APERTURE = 2L << 48;

  final FlatMemory memory = new FlatMemory(BASE, 32 << 20);
  final CodeCache code = new CodeCache(Target.GFX90A);
  final Debugger debugger = new Debugger();
  final BlockingQueue<StopEvent> stops = new LinkedBlockingQueue<>();
  final List<String> messages = new ArrayList<>();
  private long next = BASE;
  private CompletableFuture<DispatchStats> running;

  DebugHarness() {
    debugger.setListener(new Debugger.Listener() {
      @Override
      public void stopped(StopEvent event) {
        stops.add(event);
      }

      @Override
      public void message(String text) {
        messages.add(text);
      }
    });
  }

  long alloc(long bytes) {
    long at = (next + 255) & ~255L;
    next = at + bytes;
    return at;
  }

  record Loaded(long base, ElfFile elf) {
    long kernel(String name) throws Exception {
      for (ElfSymbol s : elf.dynamicSymbols()) if (s.name().equals(name + ".kd")) return base + s.value();
      throw new IllegalArgumentException("no kernel " + name);
    }
  }

  Loaded load(Path hsaco) throws Exception {
    byte[] image = Corpus.read(hsaco);
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
    debugger.codeObjectLoaded(hsaco.getFileName().toString(), elf, base, end, base);
    return new Loaded(base, elf);
  }

  void write(long address, byte[] bytes) throws Exception {
    memory.write(address, bytes, 0, bytes.length);
  }

  byte[] read(long address, int length) throws Exception {
    byte[] out = new byte[length];
    memory.read(address, out, 0, length);
    return out;
  }

  /** Starts a 1D dispatch on its own thread; stops arrive in {@link #stops}. */
  void start(String name, long kd, int grid, int block, byte[] kernargs) throws Exception {
    start(name, kd, grid, block, kernargs, 0);
  }

  /** The same, giving each lane at least {@code privateBytes} of private memory (for recursion's dynamic stack). */
  void start(String name, long kd, int grid, int block, byte[] kernargs, int privateBytes) throws Exception {
    KernelDescriptor d = KernelDescriptor.parse(read(kd, 64), 0);
    long args = alloc(512);
    write(args, kernargs);
    int perLane = (Math.max(privateBytes, d.privateSegmentFixedSize()) + 3) & ~3;
    DispatchPacket p = new DispatchPacket(DispatchPacket.TYPE_KERNEL_DISPATCH, 1, block, 1, 1, grid, 1, 1,
        perLane, d.groupSegmentFixedSize(), kd, args, 0);
    long packetAddress = alloc(64);
    ByteBuffer pb = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
    p.writeTo(pb);
    write(packetAddress, pb.array());
    int slots = perLane > 1024 ? 8 : 64;
    long scratch = perLane == 0 ? 0 : alloc((long) perLane * 64 * slots);
    KernelLaunch launch = new KernelLaunch(name, p, packetAddress, alloc(256), 0, d, DispatchGeometry.of(p, 64),
        scratch, perLane, slots, true, false, PRIVATE_APERTURE, SHARED_APERTURE, new int[0]);
    running = new CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        running.complete(debugger.runDispatch(launch, code, memory, 65536));
      } catch (Throwable e) {
        running.completeExceptionally(e);
      }
    }, "test-dispatch");
    t.setDaemon(true);
    t.start();
  }

  StopEvent awaitStop() throws Exception {
    StopEvent e = stops.poll(60, TimeUnit.SECONDS);
    if (e == null) throw new AssertionError("the dispatch did not stop" + (running.isDone() ? " (it ended)" : ""));
    return e;
  }

  DispatchStats awaitEnd() throws Exception {
    return running.get(60, TimeUnit.SECONDS);
  }

  boolean ended() {
    return running.isDone();
  }

  /** Runs a console-style command for wave {@code wave}, lane {@code lane}. */
  String eval(int wave, int lane, String command) throws DebugException {
    return debugger.inspect(v -> new Evaluator(v, wave < 0 ? null : v.wave(wave), lane).run(command));
  }

  String eval(int wave, String command) throws DebugException {
    return eval(wave, 0, command);
  }

  Wave waveState(int wave) throws DebugException {
    return debugger.inspect(v -> v.wave(wave));
  }

  static Path corpus(String variant, String program, String co) {
    return Corpus.root().resolve(variant).resolve(program + ".co").resolve(co + ".hsaco");
  }

  static byte[] args(long... values) {
    ByteBuffer b = ByteBuffer.allocate(512).order(ByteOrder.LITTLE_ENDIAN);
    for (long v : values) b.putLong(v);
    return b.array();
  }
}
