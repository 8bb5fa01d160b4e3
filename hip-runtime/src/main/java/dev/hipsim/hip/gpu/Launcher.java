package dev.hipsim.hip.gpu;

import dev.hipsim.hip.api.Dim3;
import dev.hipsim.hip.api.HipError;
import dev.hipsim.hip.api.HipException;
import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.dispatch.HiddenArguments;
import dev.hipsim.hsa.dispatch.KernargBuilder;
import dev.hipsim.hsa.dispatch.Launch;
import dev.hipsim.hsa.dispatch.LaunchGeometry;
import dev.hipsim.hsa.loader.ExecutableSymbol;
import dev.hipsim.hsa.queue.HsaQueue;
import dev.hipsim.hsa.signal.Signal;
import dev.hipsim.isa.dispatch.WaveFault;
import dev.hipsim.kfd.queue.QueueError;

/**
 * Launches a kernel the way CLR does: kernel arguments laid out from the metadata (explicit ones from the caller,
 * hidden ones filled in), an AQL packet on the stream's queue, and — hipsim runs a launch to completion before the
 * call returns, which keeps every HIP ordering rule — a wait on its completion signal. A device error is reported
 * as ROCr reports it and ends the process.
 */
public final class Launcher {
  private final GpuRuntime gpu;

  public Launcher(GpuRuntime gpu) {
    this.gpu = gpu;
  }

  /** Supplies the explicit arguments of a launch into the builder. */
  @FunctionalInterface
  public interface ArgumentFiller {
    void fill(KernargBuilder builder, ExecutableSymbol.Kernel kernel) throws HipException, HsaException;
  }

  public void launch(ExecutableSymbol.Kernel kernel, Dim3 grid, Dim3 block, long sharedMemBytes,
      ArgumentFiller arguments) throws HipException {
    Machine m = gpu.machine();
    if (block.x() <= 0 || block.y() <= 0 || block.z() <= 0 || grid.x() <= 0 || grid.y() <= 0 || grid.z() <= 0) {
      throw new HipException(HipError.INVALID_CONFIGURATION, "grid " + grid + " / block " + block
          + " has an empty dimension");
    }
    if ((long) block.x() * block.y() * block.z() > 1024) {
      throw new HipException(HipError.INVALID_CONFIGURATION, "block " + block + " has more than 1024 threads");
    }
    if (sharedMemBytes < 0 || sharedMemBytes + kernel.groupSegmentSize() > 65536) {
      throw new HipException(HipError.INVALID_VALUE, sharedMemBytes + " bytes of dynamic shared memory plus "
          + kernel.groupSegmentSize() + " static exceed the 64 KiB of LDS");
    }
    HsaQueue queue = m.queue();
    Launch launch = null;
    Signal done = null;
    try {
      LaunchGeometry g = LaunchGeometry.hip(grid.x() & 0xffff_ffffL, grid.y() & 0xffff_ffffL,
          grid.z() & 0xffff_ffffL, block.x(), block.y(), block.z());
      KernargBuilder builder = new KernargBuilder(kernel);
      arguments.fill(builder, kernel);
      byte[] kernarg = builder.build(g, (int) sharedMemBytes, HiddenArguments.NONE, queue);
      done = m.hsa().createSignal(1);
      launch = m.hsa().dispatcher().dispatch(queue, kernel, g, (int) sharedMemBytes, kernarg, done);
      queue.awaitCompletion(done, Signal.FOREVER);
    } catch (HsaException e) {
      if (queue.error().isPresent()) {
        gpu.faults().fatal(describe(m, queue.error().get()));
      }
      throw new HipException(HipError.LAUNCH_FAILURE, kernel.kernelName() + ": " + e.getMessage());
    } finally {
      try {
        if (launch != null) m.hsa().dispatcher().release(launch);
        if (done != null) done.destroy();
      } catch (HsaException e) {
        // Releasing a kernarg segment or a signal cannot fail once the launch completed.
      }
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
        case MEMORY_FAULT:
          return String.format("Memory access fault by GPU node-%d (Agent handle: %s) on address 0x%x. Reason: %s.%n%s",
              node, agent, w.address(), w.reason(), where);
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
