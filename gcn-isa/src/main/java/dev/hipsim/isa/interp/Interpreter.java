package dev.hipsim.isa.interp;

import dev.hipsim.isa.disasm.InstructionPrinter;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.dispatch.WaveFault;
import dev.hipsim.isa.dispatch.WaveLocation;
import dev.hipsim.isa.exec.InstructionMix;
import dev.hipsim.isa.exec.KernelLaunch;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.exec.WaveExecutor;
import dev.hipsim.isa.exec.WaveStatus;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;

/**
 * The CDNA interpreter for one worker thread: fetches compiled instructions from the shared {@link CodeCache} by
 * program counter and executes them on a wave until it ends, waits, sleeps or uses up its budget.
 */
public final class Interpreter implements WaveExecutor {
  private final CodeCache code;
  private final Ctx cx;
  /** Wave-instructions executed by this worker, per {@link InstructionMix} category. */
  private final long[] mix = new long[InstructionMix.COUNT];
  /**
   * The code page the last call ended in and its number, the page before that and its number, and the cache's
   * generation then. Two pages, because a loop that crosses a page boundary (sgemm's inner loop) changes page twice
   * an iteration, and a cache lookup boxes the page number: 2.8% of a warm sgemm with one page kept.
   */
  private Op[] lastPage;
  private long lastPageNumber = -1;
  private Op[] otherPage;
  private long otherPageNumber = -1;
  private int lastGeneration;

  public Interpreter(CodeCache code, GpuMemory memory, KernelLaunch launch) {
    this.code = code;
    this.cx = new Ctx(memory, launch);
  }

  @Override
  public void run(Wave w, int budget) throws DispatchException {
    GpuMemory memory = cx.memory;
    long executed = 0;
    // The code page being executed: the cache is consulted again only when the program counter leaves it, and the
    // page stays from one call to the next (waves of a dispatch run the same code; a lookup boxes the page number).
    Op[] page = lastPage;
    long pageNumber = lastPageNumber;
    if (code.generation() != lastGeneration) {
      page = null;
      pageNumber = -1;
      otherPage = null;
      otherPageNumber = -1;
      lastGeneration = code.generation();
    }
    try {
      while (executed < budget && w.status == WaveStatus.RUNNING) {
        long pc = w.pc;
        if ((pc & 3) != 0) throw misaligned(w, pc);
        if (pc >>> CodeCache.PAGE_SHIFT != pageNumber) {
          Op[] left = page;
          long leftNumber = pageNumber;
          pageNumber = pc >>> CodeCache.PAGE_SHIFT;
          page = pageNumber == otherPageNumber ? otherPage : code.page(pageNumber);
          otherPage = left;
          otherPageNumber = leftNumber;
        }
        Op op = page[CodeCache.slot(pc)];
        if (op == null) op = code.compile(page, pc, memory);
        boolean vskip = (w.mode & ScalarControlOps.VSKIP) != 0;
        // s_setvskip: vector instructions are skipped, not executed, and scalar ones still run, so instructions go
        // one at a time rather than joined (a run's s_and_saveexec_b64, a branch after a vector instruction).
        if (vskip) op = op.alone();
        if (vskip && op.vectorUnit) {
          w.pc = pc + op.size;
        } else {
          try {
            op.execute(w, cx);
          } catch (WaveFault | dev.hipsim.isa.dispatch.WatchdogTimeout e) {
            throw e;
          } catch (DispatchException e) {
            // An operand the device cannot read: give the error the wave's location and the instruction.
            throw Faults.wave(WaveFault.Kind.ILLEGAL_INSTRUCTION, w, cx, op.instruction, -1, 0, e.getMessage(), e);
          }
        }
        int[] categories = op.fusedCategories;
        if (categories == null) {
          mix[op.mixCategory]++;
        } else {
          int[] counts = op.fusedCounts;
          for (int k = 0; k < categories.length; k++) mix[categories[k]] += counts[k];
        }
        executed += op.instructions;
      }
    } catch (GpuMemoryFault f) {
      throw new WaveFault(WaveFault.Kind.MEMORY_FAULT, new WaveLocation(cx.launch.kernelName(), w.workgroupX,
          w.workgroupY, w.workgroupZ, w.waveInGroup, -1, w.pc, "(instruction fetch)"), f.address(),
          f.reason() + " (instruction fetch)", f);
    } finally {
      w.instructions += executed;
      lastPage = page;
      lastPageNumber = pageNumber;
    }
  }

  private WaveFault misaligned(Wave w, long pc) {
    return new WaveFault(WaveFault.Kind.ILLEGAL_INSTRUCTION, new WaveLocation(cx.launch.kernelName(), w.workgroupX,
        w.workgroupY, w.workgroupZ, w.waveInGroup, -1, pc, "(misaligned program counter)"), pc,
        "the program counter is not 4-byte aligned", null);
  }

  @Override
  public long[] instructionMix() {
    return mix;
  }

  @Override
  public String describe(Wave w) {
    try {
      return InstructionPrinter.print(code.decode(w.pc, cx.memory));
    } catch (GpuMemoryFault f) {
      return String.format("pc 0x%x (unreadable)", w.pc);
    }
  }
}
