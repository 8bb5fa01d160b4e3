package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.fp.FpMode;
import dev.hipsim.isa.mem.FlatMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;
import java.util.function.BooleanSupplier;

/**
 * A rehearsal of a code object's code before its first dispatch, on a thread with time to spare: every instruction
 * decoded and compiled, every run of fusible instructions planned and generated, and each run's generated code
 * called a few times on zeros so that the JIT compiles it. The work is done on a code cache of its own, at the code
 * object's own addresses, and thrown away; what stays is what does not depend on where the code is loaded: the
 * generated classes, which {@link LaneCodeGen} hands out again for the same bytecode, and the JIT's compiled code of
 * the decoder, the op compiler and the planner. The first dispatch then finds its runs generated and compiled.
 *
 * <p>On a cold JVM the first workgroup of a dispatch did all of this itself, in the JVM's bytecode interpreter: for
 * a 256² SGEMM, 9-26 ms compiling instructions and 6-13 ms generating runs, part of the 24-32 ms its first
 * workgroup took against 0.7 ms for each later one.
 *
 * <p>Nothing here changes what any instruction does: a run generated at the dispatch from the same plan gets the
 * same class, and any other run is generated as before.
 */
public final class Rehearsal {
  /** Calls of each run's generated code: past the JIT's threshold for these classes (hipsim_jvm.c). */
  static final int CALLS = 6;
  /** The code the JIT's warm-up covers at most, in bytes: a library's code object may hold megabytes. */
  public static final int MAX_BYTES = 64 * 1024;

  private final int[] v = new int[Wave.MAX_VGPRS * Wave.LANES];
  private final int[] scalars = new int[LaneFusion.MAX_SCALAR_SLOTS];
  private final long[] masks = new long[LaneFusion.MAX_MASKS];
  private final int[] lds = new int[LDS_BYTES / 4];
  private final FlatMemory zeros = new FlatMemory(0, ZERO_BYTES);
  private final long[][] storeAddresses = new long[LaneFusion.MAX_GLOBAL_STORES][Wave.LANES];
  private final int[] storeData = new int[LaneFusion.MAX_GLOBAL_STORES * 4 * Wave.LANES];
  private final int[] ldsWriteWords = new int[LaneFusion.MAX_LDS_WRITES * Wave.LANES];
  private final int[] ldsWriteData = new int[LaneFusion.MAX_LDS_WRITES * 4 * Wave.LANES];
  private static final int LDS_BYTES = 64 * 1024;
  /** Memory the runs' loads read: zero registers and scalars make addresses near zero. */
  private static final int ZERO_BYTES = 64 * 1024;

  private Rehearsal() {}

  /**
   * Rehearses the code in {@code code}, which a code object places at {@code address} (its own virtual address:
   * branches are relative, so runs are planned as they will be wherever it is loaded), instruction by instruction
   * from its start, until {@code stop} answers true (asked between instructions: a launch has begun, and its dispatch
   * will need the cores) or {@link #MAX_BYTES} are done. Returns the number of runs generated. Never throws: a rehearsal is only
   * a head start, and whatever fails here is met, and reported, by the dispatch that runs the code.
   */
  public static int rehearse(Target target, byte[] code, long address, BooleanSupplier stop) {
    try {
      return new Rehearsal().walk(target, code, address, stop);
    } catch (RuntimeException | LinkageError e) {
      return 0;
    }
  }

  private int walk(Target target, byte[] code, long address, BooleanSupplier stop) {
    int length = Math.min(code.length, MAX_BYTES) & ~3;
    if (length == 0) return 0;
    FlatMemory memory = new FlatMemory(address, length);
    try {
      memory.write(address, code, 0, length);
    } catch (GpuMemoryFault f) {
      return 0; // cannot happen: the memory is made for the code
    }
    CodeCache cache = new CodeCache(target, true, 0);
    // Twice over, as the dispatch meets the code: the first pass notes every branch's target, and a target inside a
    // run found earlier (a loop's head, mostly) is emptied then; the second compiles it as the start of its own run.
    int runs = 0;
    for (int pass = 0; pass < 2; pass++) {
      for (long pc = address; pc < address + length; ) {
        if (stop.getAsBoolean()) return runs;
        Op[] page = cache.page(pc >>> CodeCache.PAGE_SHIFT);
        Op op = page[CodeCache.slot(pc)];
        if (op == null) {
          try {
            op = cache.compile(page, pc, memory);
          } catch (GpuMemoryFault | RuntimeException e) {
            pc += 4;
            continue;
          }
          if (op instanceof FusedRun run) {
            exercise(run.allLanes());
            runs++;
          }
        }
        pc += Math.max(4, op.alone().instruction.size());
      }
    }
    return runs;
  }

  /** Calls generated code on zeros: every lane, registers, scalars, masks, LDS and the memory its loads read. */
  private void exercise(FusedLanes lanes) {
    for (int i = 0; i < CALLS; i++) {
      try {
        lanes.run(v, scalars, masks, -1L, FpMode.DEFAULT, lds, LDS_BYTES, zeros, storeAddresses, storeData,
            ldsWriteWords, ldsWriteData);
      } catch (GpuMemoryFault | RuntimeException e) {
        // A load outside the zeros, an LDS address out of range: the code ran up to there, which is all it is for.
      }
      // The run writes registers: zero them again so that the next call computes the same addresses.
      java.util.Arrays.fill(v, 0);
    }
  }
}
