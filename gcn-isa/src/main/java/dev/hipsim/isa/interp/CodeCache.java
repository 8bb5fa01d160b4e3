package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Decoder;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The device's instruction cache: instructions decoded and compiled once, on first execution, from the code in
 * device memory, and kept per 4 KiB page. Shared by all waves and threads. {@link #invalidate()} drops everything
 * (the runtime does it when code memory changes, as ROCr invalidates the hardware's instruction caches).
 */
public final class CodeCache {
  static final int PAGE_SHIFT = 12;
  private static final int SLOTS = 1 << (PAGE_SHIFT - 2);

  private final Target target;
  private final Decoder decoder;
  private final ConcurrentHashMap<Long, Op[]> pages = new ConcurrentHashMap<>();
  private final boolean fuse;
  private volatile int generation;
  /** Addresses whose run a thread is generating: another thread reaching one runs its instruction alone meanwhile. */
  private final ConcurrentHashMap<Long, Boolean> fusing = new ConcurrentHashMap<>();
  /** Addresses of instructions inside a run (after its first): no run starts there. */
  private final ConcurrentHashMap<Long, Boolean> inner = new ConcurrentHashMap<>();
  /**
   * Addresses branches seen so far go to. A branch target inside a run may start a run of its own (a loop's head
   * after the instructions before the loop): the run that contains it runs fused only when entered at its start.
   */
  private final java.util.Set<Long> targets = ConcurrentHashMap.newKeySet();

  /** Executions of a run's first instruction before the run is generated ({@link PendingRun}). */
  private final int fuseAfter;

  /**
   * Executions of a run's first instruction before the run is generated: a run that executes fewer times (a large
   * kernel's code run by a few waves) would not pay back generating and compiling its class.
   */
  static final int FUSE_AFTER = 8;

  /**
   * A cache that fuses runs of lane-wise VALU instructions ({@link FusedRun}) unless the system property
   * {@code hipsim.fuse} is {@code false}, after {@code hipsim.fuseAfter} executions (default {@link #FUSE_AFTER}).
   */
  public CodeCache(Target target) {
    this(target, !"false".equals(System.getProperty("hipsim.fuse")),
        Math.max(0, Integer.getInteger("hipsim.fuseAfter", FUSE_AFTER)));
  }

  /** A cache that fuses runs of lane-wise VALU instructions when {@code fuse} is set. */
  public CodeCache(Target target, boolean fuse) {
    this(target, fuse, FUSE_AFTER);
  }

  /** As {@link #CodeCache(Target, boolean)}, a run generated once its first instruction has run {@code fuseAfter} times. */
  CodeCache(Target target, boolean fuse, int fuseAfter) {
    this.target = target;
    this.decoder = new Decoder(target);
    this.fuse = fuse;
    this.fuseAfter = fuseAfter;
  }

  public Target target() {
    return target;
  }

  /**
   * The compiled instruction at {@code pc} (a 4-byte aligned GPU address), decoding it on first use: always the
   * one instruction there, also where the interpreter runs a fused run from it (so a debugger steps one
   * instruction at a time).
   */
  public Op at(long pc, GpuMemory memory) throws GpuMemoryFault {
    Op[] page = page(pc >>> PAGE_SHIFT);
    int slot = slot(pc);
    Op op = page[slot];
    if (op == null) op = compile(page, pc, memory);
    return op.alone();
  }

  /**
   * The compiled-instruction slots of code page {@code pageNumber} ({@code pc >>> 12}), indexed by {@link #slot};
   * empty slots are filled by {@link #compile}. The interpreter keeps the page of the code it runs, so that it looks
   * the page up only when the program counter leaves it.
   */
  Op[] page(long pageNumber) {
    Op[] page = pages.get(pageNumber);
    return page != null ? page : pages.computeIfAbsent(pageNumber, k -> new Op[SLOTS]);
  }

  /** The slot of {@code pc} in its page. */
  static int slot(long pc) {
    return (int) ((pc >>> 2) & (SLOTS - 1));
  }

  /**
   * Decodes and compiles the instruction at {@code pc} into its slot of {@code page}: a {@link FusedRun} when a run
   * of fusible instructions starts there.
   */
  Op compile(Op[] page, long pc, GpuMemory memory) throws GpuMemoryFault {
    // Ops are immutable (final fields), so publishing them through a plain array store is safe; two threads may
    // compile the same instruction, which is harmless.
    Instruction inst = decode(pc, memory);
    Op op = OpCompiler.compile(inst);
    if (op instanceof ProgramOps.Branch) noteTarget(((ProgramOps.Branch) op).target());
    if (fuse && !inner.containsKey(pc) && LaneFusion.mayStart(inst, op)) {
      FusedRun.Candidate run = FusedRun.plan(inst, op, this, memory);
      if (run != null) {
        // The run's other instructions run inside it, not as the start of runs of their own (which they would
        // be, executed one by one until the run is generated). Their ops, compiled for the plan, fill their slots
        // on this page, so that running them one by one meanwhile decodes and compiles nothing again.
        for (Op part : run.parts()) {
          long at = part.instruction.address();
          if (at == pc || targets.contains(at)) continue;
          inner.put(at, Boolean.TRUE);
          if (at >>> PAGE_SHIFT == pc >>> PAGE_SHIFT && page[slot(at)] == null) page[slot(at)] = part;
        }
        if (fuseAfter > 0) {
          op = new PendingRun(op, run, fuseAfter, this, page, pc);
        } else {
          Op fused = generate(pc, run);
          if (fused == null) return op; // left for the thread generating the run
          op = fused;
        }
      }
    }
    op = OpJoiner.join(op, pc, this, memory);
    page[slot(pc)] = op;
    return op;
  }


  /**
   * Remembers a branch target. One inside a run found earlier stops being an inner address, and its slot is
   * emptied, so that it is compiled again the next time it runs and may start a run of its own.
   */
  void noteTarget(long at) {
    if (!fuse || !targets.add(at) || inner.remove(at) == null) return;
    Op[] page = pages.get(at >>> PAGE_SHIFT);
    if (page != null) page[slot(at)] = null;
  }

  /** The branch targets noted so far. */
  java.util.Set<Long> targets() {
    return java.util.Collections.unmodifiableSet(targets);
  }

  /** The run's op, generated now; null when another thread is generating it (the caller runs the instruction). */
  Op generate(long pc, FusedRun.Candidate run) {
    if (fusing.putIfAbsent(pc, Boolean.TRUE) != null) return null;
    try {
      return run.generate();
    } finally {
      fusing.remove(pc);
    }
  }

  /** Decodes the instruction at {@code pc} (also for debuggers and error messages). */
  public Instruction decode(long pc, GpuMemory memory) throws GpuMemoryFault {
    byte[] bytes = new byte[12];
    int have = 12;
    GpuMemoryFault first = null;
    // The longest instruction is 12 bytes; near the end of the code mapping fewer bytes may be readable.
    while (have >= 4) {
      try {
        memory.fetch(pc, bytes, 0, have);
        return decoder.decode(bytes, 0, have, pc);
      } catch (GpuMemoryFault f) {
        if (first == null) first = f;
        have -= 4;
      }
    }
    throw first;
  }

  /**
   * Gets the generator of fused runs ready (loads and links it, generates and runs a sample), once per process:
   * for a thread with time to spare before the first dispatch, so that the dispatch does not pay for it.
   */
  public static void prepareFusion() {
    LaneFusion.warmUp();
  }

  /** Forgets every compiled instruction. */
  public void invalidate() {
    generation++;
    pages.clear();
    inner.clear();
    targets.clear();
  }

  /** Changes whenever {@link #invalidate} drops the pages, so that a page kept elsewhere is known to be stale. */
  int generation() {
    return generation;
  }
}
