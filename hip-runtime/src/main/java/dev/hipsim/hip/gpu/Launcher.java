package dev.hipsim.hip.gpu;

import dev.hipsim.hip.api.Dim3;
import dev.hipsim.hip.api.HipError;
import dev.hipsim.hip.api.HipException;
import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.dispatch.KernargBuilder;
import dev.hipsim.hsa.dispatch.Launch;
import dev.hipsim.hsa.dispatch.LaunchGeometry;
import dev.hipsim.hsa.loader.ExecutableSymbol;
import dev.hipsim.hsa.queue.HsaQueue;
import dev.hipsim.hsa.signal.Signal;
import dev.hipsim.isa.dispatch.WaveFault;
import dev.hipsim.isa.exec.DispatchOptions;
import dev.hipsim.isa.mem.GpuMemoryFault;
import dev.hipsim.kfd.queue.QueueError;

/**
 * Launches a kernel the way CLR does: the launch checked against the device and the kernel, kernel arguments laid
 * out from the metadata (explicit ones from the caller, hidden ones filled in, with the hostcall, printf and heap
 * buffers set up on first need), an AQL packet on the stream's queue, and — hipsim runs a launch to completion
 * before the call returns, which keeps every HIP ordering rule — a wait on its completion signal, showing progress
 * on a terminal when it takes long. A device error is reported as ROCr reports it and ends the process.
 */
public final class Launcher {
  /** A kernel that runs longer than this shows a progress line (when stderr is a terminal). */
  static final long PROGRESS_AFTER_NANOS = 2_000_000_000L;
  private static final long PROGRESS_EVERY_NANOS = 250_000_000L;

  private final GpuRuntime gpu;

  public Launcher(GpuRuntime gpu) {
    this.gpu = gpu;
  }

  /** Supplies the explicit arguments of a launch into the builder. */
  @FunctionalInterface
  public interface ArgumentFiller {
    void fill(KernargBuilder builder, ExecutableSymbol.Kernel kernel) throws HipException, HsaException;
  }

  /** How a kernel is launched: a normal launch, a cooperative one (grid-wide sync), or one of a multi-device set. */
  public enum Mode {
    NORMAL(0), COOPERATIVE(1), COOPERATIVE_MULTI_DEVICE(-1);

    /** The value of {@code hidden_multigrid_sync_arg} CLR passes (-1: the address of the multi-grid info). */
    final long multigridArgument;

    Mode(long multigridArgument) {
      this.multigridArgument = multigridArgument;
    }
  }

  public void launch(GpuRuntime.Function f, Dim3 grid, Dim3 block, long sharedMemBytes, ArgumentFiller arguments)
      throws HipException {
    launch(f, grid, block, sharedMemBytes, Mode.NORMAL, arguments);
  }

  public void launch(GpuRuntime.Function f, Dim3 grid, Dim3 block, long sharedMemBytes, Mode mode,
      ArgumentFiller arguments) throws HipException {
    gpu.launching();
    Machine m = gpu.machine();
    ExecutableSymbol.Kernel kernel = f.module().kernel(m, f.name());
    check(m, kernel, grid, block, sharedMemBytes, mode);
    long multigrid = mode == Mode.COOPERATIVE_MULTI_DEVICE ? gpu.multiGridInfo(grid, block) : mode.multigridArgument;
    HsaQueue queue = m.queue();
    Launch launch = null;
    Signal done = null;
    DeviceServices services = gpu.services();
    DeviceServices.Prepared prepared = services.prepare(kernel, multigrid);
    // One dispatch at a time: the device's printf buffer and statistics belong to the dispatch that runs.
    synchronized (gpu) {
      boolean finished = false;
      DispatchOptions normal = m.engine().options();
      if (mode != Mode.NORMAL) {
        // A cooperative grid must be resident all at once (the launch check bounds it by the device's occupancy):
        // let each worker of the simulated device hold its share.
        long blocks = (long) grid.x() * grid.y() * grid.z();
        int perWorker = (int) Math.min(Integer.MAX_VALUE, (blocks + normal.threads() - 1) / normal.threads());
        m.engine().setOptions(normal.withMaxResidentWorkgroups(Math.max(normal.maxResidentWorkgroups(), perWorker)));
      }
      services.started(prepared);
      try {
        LaunchGeometry g = LaunchGeometry.hip(grid.x() & 0xffff_ffffL, grid.y() & 0xffff_ffffL,
            grid.z() & 0xffff_ffffL, block.x(), block.y(), block.z());
        KernargBuilder builder = new KernargBuilder(kernel);
        arguments.fill(builder, kernel);
        byte[] kernarg = builder.build(g, (int) sharedMemBytes, prepared.hidden(), queue);
        done = m.hsa().createSignal(1);
        launch = m.hsa().dispatcher().dispatch(queue, kernel, g, (int) sharedMemBytes, kernarg, done);
        await(m, queue, done, kernel.kernelName());
      } catch (HsaException e) {
        if (queue.error().isPresent()) {
          services.finished(prepared, f.module().printfFormats());
          finished = true;
          gpu.faults().fatal(describe(m, queue.error().get()));
        }
        throw new HipException(HipError.LAUNCH_FAILURE, kernel.kernelName() + ": " + e.getMessage());
      } finally {
        m.engine().setOptions(normal);
        if (!finished) services.finished(prepared, f.module().printfFormats());
        try {
          if (launch != null) m.hsa().dispatcher().release(launch);
          if (done != null) done.destroy();
        } catch (HsaException e) {
          // Releasing a kernarg segment or a signal cannot fail once the launch completed.
        }
      }
    }
  }

  /** CLR's launch checks (hip_module.cpp, ihipLaunchKernel_validate), with HIP's error codes. */
  private void check(Machine m, ExecutableSymbol.Kernel kernel, Dim3 grid, Dim3 block, long sharedMemBytes,
      Mode mode) throws HipException {
    if (block.x() <= 0 || block.y() <= 0 || block.z() <= 0 || grid.x() <= 0 || grid.y() <= 0 || grid.z() <= 0) {
      throw new HipException(HipError.INVALID_CONFIGURATION, "grid " + grid + " / block " + block
          + " has an empty dimension");
    }
    long threads = (long) block.x() * block.y() * block.z();
    if (threads > 1024) {
      throw new HipException(HipError.INVALID_CONFIGURATION, "block " + block + " has more than 1024 threads");
    }
    if ((long) grid.x() * block.x() > 0xffff_ffffL || (long) grid.y() * block.y() > 0xffff_ffffL
        || (long) grid.z() * block.z() > 0xffff_ffffL) {
      throw new HipException(HipError.INVALID_CONFIGURATION, "grid " + grid + " of blocks " + block
          + " has more than 2^32-1 threads in a dimension");
    }
    if (sharedMemBytes < 0 || sharedMemBytes + kernel.groupSegmentSize() > 65536) {
      throw new HipException(HipError.INVALID_VALUE, sharedMemBytes + " bytes of dynamic shared memory plus "
          + kernel.groupSegmentSize() + " static exceed the 64 KiB of LDS");
    }
    if (mode != Mode.NORMAL) {
      long blocks = (long) grid.x() * grid.y() * grid.z();
      int perCu = Occupancy.of(m.model(), kernel, (int) threads, sharedMemBytes).blocksPerCu();
      long max = (long) perCu * m.model().multiProcessorCount();
      if (blocks > max) {
        throw new HipException(HipError.COOPERATIVE_LAUNCH_TOO_LARGE, "a cooperative launch of " + blocks
            + " blocks exceeds the " + max + " that can be resident at once (" + perCu + " per CU)");
      }
    }
  }

  /** Waits for the dispatch, showing a progress line after two seconds when stderr is a terminal. */
  private void await(Machine m, HsaQueue queue, Signal done, String kernel) throws HsaException {
    if (!gpu.streams().stderrIsTerminal()) {
      queue.awaitCompletion(done, Signal.FOREVER);
      return;
    }
    long start = System.nanoTime();
    boolean shown = false;
    try {
      while (!queue.awaitCompletion(done, PROGRESS_EVERY_NANOS)) {
        if (System.nanoTime() - start < PROGRESS_AFTER_NANOS) continue;
        long[] p = m.engine().progress();
        if (p == null) continue;
        String line = String.format("\rhipsim: %s: %d/%d workgroups done", kernel, p[0], p[1]);
        gpu.streams().stderr(line.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        shown = true;
      }
    } finally {
      if (shown) gpu.streams().stderr("\r\033[K".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
  }

  /** ROCr's report of a queue error, plus what only a simulator can tell: where in the kernel it happened. */
  static String describe(Machine m, QueueError error) {
    int node = m.agent().properties().nodeId();
    String agent = String.format("0x%x", m.agent().gpuId());
    Throwable cause = error instanceof QueueError.ExecutionFailed f ? f.cause().getCause() : null;
    if (error instanceof QueueError.MemoryFault mf) {
      return String.format("Memory access fault by GPU node-%d (Agent handle: %s) on address 0x%x. Reason: %s.",
          node, agent, mf.fault().address(), mf.fault().reason());
    }
    if (cause instanceof WaveFault w) {
      String where = "hipsim: " + w.location();
      switch (w.kind()) {
        case MEMORY_FAULT: {
          // ROCr's line carries the reason alone; the access kind goes on hipsim's line.
          String reason = w.reason();
          if (w.getCause() instanceof GpuMemoryFault gf) {
            reason = gf.reason();
            where += " (" + gf.kind().name().toLowerCase(java.util.Locale.ROOT) + " access)";
          }
          return String.format("Memory access fault by GPU node-%d (Agent handle: %s) on address 0x%x. Reason: %s.%n%s",
              node, agent, w.address(), reason, where);
        }
        case TRAP:
          return "HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware exception. code: 0x1016\n"
              + where + " (" + w.reason() + ")";
        default:
          return "HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION: The agent attempted to execute an illegal shader instruction. "
              + "code: 0x102a\n" + where + " (" + w.reason() + ")";
      }
    }
    return "HSA_STATUS_ERROR_EXCEPTION: the queue stopped: " + error.describe();
  }
}
