package dev.hipsim.isa.interp;

import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.ElfFormatException;
import dev.hipsim.elf.ElfSymbol;
import dev.hipsim.elf.SectionHeader;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.dispatch.DispatchGeometry;
import dev.hipsim.isa.dispatch.DispatchPacket;
import dev.hipsim.isa.dispatch.KernelDescriptor;
import dev.hipsim.isa.exec.KernelLaunch;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.exec.WaveSetup;
import dev.hipsim.isa.exec.Workgroup;
import dev.hipsim.isa.fp.FpMode;
import dev.hipsim.isa.mem.FlatMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.BooleanSupplier;
import org.eclipse.collections.impl.list.mutable.primitive.LongArrayList;

/**
 * A rehearsal of a code object's code before its first dispatch, on a thread with time to spare: every instruction
 * decoded and compiled, every run of fusible instructions planned and generated, each run's generated code called a
 * few times on zeros so that the JIT compiles it, and each op executed a few dozen times by an interpreter on a wave
 * set up as a dispatch's, in a memory of zeros. The work is done on a code cache of its own, at the code object's
 * own addresses, and thrown away; what stays is what does not depend on where the code is loaded: the generated
 * classes, which {@link LaneCodeGen} hands out again for the same bytecode, and the JIT's compiled code of the
 * decoder, the op compiler, the planner and the interpreter's paths the code takes. The first dispatch then finds
 * its runs generated and compiled, and runs its ops in compiled code from its first waves.
 *
 * <p>On a cold JVM the first workgroup of a dispatch did all of this itself, in the JVM's bytecode interpreter: for
 * a 256² SGEMM, 9-26 ms compiling instructions and 6-13 ms generating runs, part of the 24-32 ms its first
 * workgroup took against 0.7 ms for each later one.
 *
 * <p>Nothing here changes what any instruction does or any memory but the rehearsal's own: a run generated at the
 * dispatch from the same plan gets the same class, and any other run is generated as before.
 */
public final class Rehearsal {
  /** Calls of each run's generated code: past the JIT's threshold for these classes (hipsim_jvm.c). */
  static final int CALLS = 6;
  /**
   * Executions of each op by an interpreter on a wave set up as a dispatch's ({@link #execute}): enough for the
   * methods many instructions share (a scalar ALU family's, the interpreter's loop, the wave's set-up) to pass the
   * JIT's threshold of about 200 calls over a kernel's few dozen instructions.
   */
  static final int EXECUTIONS = 32;
  /**
   * Executions of the ops of one class at most per rehearsal: past the JIT's threshold, more of them only spend the
   * time of the program's host code (a library's code object holds thousands of scalar ALU instructions).
   */
  static final int EXECUTIONS_PER_CLASS = 512;
  /** Executions of ops the rehearsals began since the process started, failed ones included (for tests). */
  static final java.util.concurrent.atomic.AtomicLong EXECUTED = new java.util.concurrent.atomic.AtomicLong();
  /** The code the JIT's warm-up covers at most, in bytes: a library's code object may hold megabytes. */
  public static final int MAX_BYTES = 64 * 1024;

  private final int[] v = new int[Wave.MAX_VGPRS * Wave.LANES];
  private final int[] scalars = new int[LaneFusion.MAX_SCALAR_SLOTS];
  private final long[] masks = new long[LaneFusion.MAX_MASKS];
  private final int[] lds = new int[LDS_BYTES / 4];
  private final FlatMemory zeros = new FlatMemory(0, ZERO_BYTES);
  /** The wave {@link #execute} runs ops on, alone in its workgroup, and the dispatch it is set up for. */
  private final Workgroup group = Workgroup.standalone(1, LDS_BYTES);
  private final KernelLaunch launch = zeroLaunch();
  /** The interpreter of the code being walked, on the zeros ({@link #execute}); made with the walk's cache. */
  private Interpreter interpreter;
  /** Executions begun so far per op class ({@link #EXECUTIONS_PER_CLASS}). */
  private final java.util.Map<Class<?>, int[]> executionsByClass = new java.util.HashMap<>();
  /** Runs generated so far. */
  private int runs;
  private final long[][] storeAddresses = new long[LaneFusion.MAX_GLOBAL_STORES][Wave.LANES];
  private final int[] storeData = new int[LaneFusion.MAX_GLOBAL_STORES * 4 * Wave.LANES];
  private final int[] ldsWriteWords = new int[LaneFusion.MAX_LDS_WRITES * Wave.LANES];
  private final int[] ldsWriteData = new int[LaneFusion.MAX_LDS_WRITES * 4 * Wave.LANES];
  private static final int LDS_BYTES = 64 * 1024;
  /** Memory the runs' loads read: zero registers and scalars make addresses near zero. */
  private static final int ZERO_BYTES = 64 * 1024;

  private Rehearsal() {}

  /**
   * A code object's code as a rehearsal takes it: its {@code .text} (at most {@link #MAX_BYTES}), the address the
   * code object puts it at, and the addresses of its functions there (kernels and device functions, where dispatches
   * and calls enter it), in increasing order.
   */
  public record Code(long address, byte[] bytes, long[] entries) {
    /** The code of a code object, if it has a {@code .text} section. */
    public static java.util.Optional<Code> of(ElfFile elf) throws ElfFormatException {
      SectionHeader text = elf.section(".text").orElse(null);
      if (text == null || text.type() != SectionHeader.SHT_PROGBITS) return java.util.Optional.empty();
      ByteBuffer data = elf.data(text);
      byte[] bytes = new byte[Math.min(data.remaining(), MAX_BYTES)];
      data.get(bytes);
      java.util.TreeSet<Long> entries = new java.util.TreeSet<>();
      try {
        for (java.util.List<ElfSymbol> table : java.util.List.of(elf.symbols(), elf.dynamicSymbols())) {
          for (ElfSymbol sym : table) {
            long at = sym.value();
            if (sym.type() == ElfSymbol.STT_FUNC && at >= text.address() && at < text.address() + bytes.length) {
              entries.add(at);
            }
          }
        }
      } catch (ElfFormatException e) {
        // Symbols that cannot be read: the code is walked from its start only (loading it reports the damage).
      }
      long[] e = new long[entries.size()];
      int i = 0;
      for (long at : entries) e[i++] = at;
      return java.util.Optional.of(new Code(text.address(), bytes, e));
    }
  }

  /**
   * Rehearses {@code code} from its start and from each of its entries, as its dispatches will meet it, until {@code
   * stop} answers true (asked between instructions: a launch has begun, and its dispatch will need the cores). Returns
   * the number of runs generated. Never throws: a rehearsal is only a head start, and whatever fails here is met, and
   * reported, by the dispatch that runs the code.
   */
  public static int rehearse(Target target, Code code, BooleanSupplier stop) {
    try {
      return new Rehearsal().walk(target, code, stop);
    } catch (RuntimeException | LinkageError e) {
      return 0;
    }
  }

  /** Rehearses {@code bytes} placed at {@code address}, entered at its start only. */
  public static int rehearse(Target target, byte[] bytes, long address, BooleanSupplier stop) {
    return rehearse(target, new Code(address, bytes, new long[0]), stop);
  }

  /**
   * Walks the code as the dispatches will: its loops first ({@link #loops}), then from its start, each op compiled
   * where the one before ends (a run, a row of scalar instructions, an instruction with the no-ops after it), a
   * function's entry starting afresh; then from every branch target noted on the way that no op starts at yet (a
   * loop's head inside a run found earlier, mostly), until there is none. The code's address is its own virtual
   * address: branches are relative, so runs are planned as they will be wherever it is loaded.
   */
  private int walk(Target target, Code code, BooleanSupplier stop) {
    long address = code.address();
    int length = Math.min(code.bytes().length, MAX_BYTES) & ~3;
    if (length == 0) return 0;
    long end = address + length;
    FlatMemory memory = new FlatMemory(address, length);
    try {
      memory.write(address, code.bytes(), 0, length);
    } catch (GpuMemoryFault f) {
      return 0; // cannot happen: the memory is made for the code
    }
    CodeCache cache = new CodeCache(target, true, 0);
    interpreter = new Interpreter(cache, zeros, launch);
    // Loops first, inner ones before the loops around them: what a dispatch spends its time in is then ready even
    // when a launch cuts the rehearsal short (a 256² SGEMM launches 150-200 ms into the process, sometimes after 2
    // of its program's 21 runs).
    long[] loops = loops(cache, memory, address, end);
    for (int i = 0; i < loops.length; i += 2) {
      for (long pc = loops[i]; pc < loops[i + 1]; ) {
        if (stop.getAsBoolean()) return runs;
        pc += compile(cache, pc, memory);
      }
    }
    long[] entries = code.entries();
    int nextEntry = 0;
    for (long pc = address; pc < end; ) {
      if (stop.getAsBoolean()) return runs;
      while (nextEntry < entries.length && entries[nextEntry] <= pc) nextEntry++;
      int size = compile(cache, pc, memory);
      long next = pc + size;
      // An op that reaches past a function's entry (no-ops of padding joined with its first instructions) ends
      // there: the function's dispatches start at the entry.
      if (nextEntry < entries.length && entries[nextEntry] < next) next = entries[nextEntry];
      pc = next;
    }
    // Each target once: one that cannot be compiled (a branch into bytes that do not decode) stays empty.
    java.util.Set<Long> tried = new java.util.HashSet<>();
    for (boolean found = true; found; ) {
      found = false;
      for (long at : cache.targets().toArray(new Long[0])) {
        if (at < address || at >= end || (at & 3) != 0 || !tried.add(at)) continue;
        if (cache.page(at >>> CodeCache.PAGE_SHIFT)[CodeCache.slot(at)] != null) continue;
        if (stop.getAsBoolean()) return runs;
        compile(cache, at, memory);
        found = true;
      }
    }
    return runs;
  }

  /**
   * The code's loops, found by decoding it from its start: for each branch back to an address at or before itself
   * (inside the code), that address and the end of the branch, in the order the branches come.
   */
  private static long[] loops(CodeCache cache, FlatMemory memory, long address, long end) {
    LongArrayList out = new LongArrayList();
    for (long pc = address; pc < end; ) {
      Instruction inst;
      try {
        inst = cache.decode(pc, memory);
      } catch (GpuMemoryFault | RuntimeException e) {
        pc += 4;
        continue;
      }
      if (ProgramOps.Branch.conditionOf(inst.operation()) >= 0) {
        long target = inst.branchTarget();
        if (target >= address && target <= pc) {
          out.add(target);
          out.add(pc + inst.size());
        }
      }
      pc += Math.max(4, inst.size());
    }
    return out.toArray();
  }

  /**
   * Compiles the op at {@code pc} unless one is there, calling a run's generated code, and {@link #execute executes}
   * it; returns the bytes the op covers (4 for what cannot be decoded).
   */
  private int compile(CodeCache cache, long pc, FlatMemory memory) {
    Op[] page = cache.page(pc >>> CodeCache.PAGE_SHIFT);
    Op op = page[CodeCache.slot(pc)];
    if (op == null) {
      try {
        op = cache.compile(page, pc, memory);
      } catch (GpuMemoryFault | RuntimeException e) {
        return 4;
      }
      Op joined = op instanceof BranchTail tail ? tail.head() : op;
      if (joined instanceof FusedRun run) {
        exercise(run.allLanes(), run.plan().vgprLimit());
        runs++;
      }
      // Executed now rather than once the walk is done: the interpreter's own paths (its loop, a run's call, a row
      // of scalar instructions, the wave's set-up), which every kernel takes, then reach the JIT's queue from the
      // first ops on. A program launches 150-250 ms into the process, often before the walk of its code object ends,
      // and found them still in the JVM's bytecode interpreter, while the JIT compiled them in its first 30-40 ms.
      execute(op);
    }
    return Math.max(4, op.size);
  }

  /**
   * Executes {@code op} {@link #EXECUTIONS} times (fewer once its class had {@link #EXECUTIONS_PER_CLASS}) as a
   * dispatch would: the wave set up afresh each time ({@link WaveSetup}) with zero scalar registers and the work-item
   * IDs in v0, then one step of the interpreter from the op's address. Every address the op computes is then near
   * zero, in the memory of zeros, and in the LDS. The first dispatch otherwise runs these paths in the JVM's bytecode
   * interpreter until the JIT compiles them: 28% of the workers' samples of a cold 1M-element reduction. An op that
   * cannot run so (a fault, a wait, a dispatch packet field it reads) stops at its first failure: the rest is only a
   * rehearsal.
   */
  private void execute(Op op) {
    int[] count = executionsByClass.computeIfAbsent(op.getClass(), c -> new int[1]);
    Wave w = group.wave(0);
    for (int i = 0; i < EXECUTIONS && count[0] < EXECUTIONS_PER_CLASS; i++, count[0]++) {
      try {
        WaveSetup.initialize(w, launch, group, 0);
        w.pc = op.instruction.address();
        EXECUTED.incrementAndGet();
        interpreter.run(w, 1);
      } catch (DispatchException | RuntimeException e) {
        return;
      }
    }
  }

  /**
   * A dispatch of one 64-lane workgroup whose descriptor asks for nothing but the work-item ID in v0 (and 32 VGPRs):
   * every scalar register starts at zero. Its packet, kernarg segment and queue lie in the memory of zeros. Its
   * floating-point MODE is a HIP kernel's ({@link FpMode#DEFAULT}: denormals kept, round to nearest even, DX10 clamp
   * and IEEE mode), so that the rehearsal takes the float paths the program's kernels take: with MODE zero, which
   * flushes denormals, every float instruction took the software path, the slowest one, which kernels built by hipcc
   * never take.
   */
  static KernelLaunch zeroLaunch() {
    ByteBuffer kd = ByteBuffer.allocate(KernelDescriptor.SIZE).order(ByteOrder.LITTLE_ENDIAN);
    // compute_pgm_rsrc1: four VGPR granules (32 registers on gfx90a), zeroed at each set-up; MODE's rounding and
    // denormal fields at bits 12-19, DX10_CLAMP at bit 21, IEEE_MODE at bit 23 (KernelDescriptor.initialMode).
    int mode = FpMode.DEFAULT;
    int rsrc1 = 3 | (mode & 0xff) << 12 | ((mode & FpMode.DX10_CLAMP_BIT) != 0 ? 1 << 21 : 0)
        | ((mode & FpMode.IEEE_BIT) != 0 ? 1 << 23 : 0);
    kd.putInt(48, rsrc1);
    KernelDescriptor descriptor = KernelDescriptor.parse(kd);
    DispatchPacket packet = new DispatchPacket(DispatchPacket.TYPE_KERNEL_DISPATCH, 1, Wave.LANES, 1, 1, Wave.LANES,
        1, 1, 0, 0, ZERO_BYTES / 2, ZERO_BYTES / 4, 0);
    try {
      return new KernelLaunch("(rehearsal)", packet, ZERO_BYTES / 8, ZERO_BYTES / 16, 0, descriptor,
          DispatchGeometry.of(packet, Wave.LANES), 0, 0, 0, false, false, 2L << 48, 1L << 48, new int[0]);
    } catch (DispatchException e) {
      throw new IllegalStateException("the rehearsal's dispatch is malformed", e);
    }
  }

  /**
   * Calls generated code on zeros: every lane, registers, scalars, masks, LDS and the memory its loads read. The code
   * writes VGPRs below {@code vgprLimit} only, so only those are zeroed again between calls: the whole register file
   * is 128 KB, and clearing it after every call was 4% of the rehearsal's time.
   */
  private void exercise(FusedLanes lanes, int vgprLimit) {
    for (int i = 0; i < CALLS; i++) {
      try {
        lanes.run(v, scalars, masks, -1L, FpMode.DEFAULT, lds, LDS_BYTES, zeros, storeAddresses, storeData,
            ldsWriteWords, ldsWriteData);
      } catch (GpuMemoryFault | RuntimeException e) {
        // A load outside the zeros, an LDS address out of range: the code ran up to there, which is all it is for.
      }
      // The run writes registers: zero them again so that the next call computes the same addresses.
      java.util.Arrays.fill(v, 0, vgprLimit * Wave.LANES, 0);
    }
  }
}
