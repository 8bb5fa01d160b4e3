package dev.hipsim.hip.gpu;

import dev.hipsim.bundle.metadata.KernelArgument;
import dev.hipsim.bundle.metadata.PrintfFormat;
import dev.hipsim.bundle.metadata.ValueKind;
import dev.hipsim.hip.api.Diagnostics;
import dev.hipsim.hip.api.HipError;
import dev.hipsim.hip.api.HipException;
import dev.hipsim.hip.gpu.hostcall.HostcallBuffer;
import dev.hipsim.hip.gpu.hostcall.HostcallListener;
import dev.hipsim.hip.gpu.hostcall.HostcallServices;
import dev.hipsim.hip.gpu.printf.BufferedPrintf;
import dev.hipsim.hip.gpu.printf.PrintfSink;
import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.dispatch.HiddenArguments;
import dev.hipsim.hsa.loader.ExecutableSymbol;
import dev.hipsim.hsa.memory.MemoryManager;
import dev.hipsim.hsa.signal.Signal;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What CLR sets up on demand for kernels whose metadata asks for it, and serves while they run: the hostcall
 * buffer and its listener ({@code hidden_hostcall_buffer}: device printf, malloc's memory requests), the buffered
 * printf buffer ({@code hidden_printf_buffer}, printed after the dispatch), the device-malloc heap
 * ({@code hidden_heap_v1}), and the cooperative-launch argument ({@code hidden_multigrid_sync_arg}: 1 for a
 * single-device cooperative launch, as CLR passes it; 0 otherwise).
 */
public final class DeviceServices implements AutoCloseable {
  /** Bytes of the buffered-printf buffer. */
  static final int PRINTF_BUFFER_BYTES = 4 << 20;
  /** Bytes of the malloc heap's management structure (ockl's heap_t, 108680 bytes, rounded up). */
  static final int HEAP_BYTES = 128 << 10;

  private final Machine machine;
  private final PrintfSink printf;
  private final Diagnostics diagnostics;
  private HostcallListener hostcall;
  private Signal doorbell;
  private long printfBuffer;
  private long heap;
  private final Set<Long> deviceAllocations = ConcurrentHashMap.newKeySet();

  public DeviceServices(Machine machine, PrintfSink printf, Diagnostics diagnostics) {
    this.machine = machine;
    this.printf = printf;
    this.diagnostics = diagnostics;
  }

  /** What one launch uses: its hidden arguments and whether the hostcall listener must watch it. */
  public record Prepared(HiddenArguments hidden, boolean hostcall, boolean bufferedPrintf) {}

  /**
   * The hidden arguments of a launch of {@code kernel}, setting up what its metadata lists on first use.
   *
   * @param multigridSync the value of {@code hidden_multigrid_sync_arg}
   */
  public synchronized Prepared prepare(ExecutableSymbol.Kernel kernel, long multigridSync) throws HipException {
    HiddenArguments h = HiddenArguments.NONE.withMultigridSync(multigridSync);
    boolean usesHostcall = false;
    boolean usesPrintf = false;
    List<KernelArgument> hidden = kernel.metadata().isPresent() ? kernel.metadata().get().hiddenArguments() : List.of();
    try {
      for (KernelArgument a : hidden) {
        if (a.valueKind() == ValueKind.HIDDEN_HOSTCALL_BUFFER) {
          h = h.withHostcallBuffer(hostcallBuffer());
          usesHostcall = true;
        } else if (a.valueKind() == ValueKind.HIDDEN_PRINTF_BUFFER) {
          h = h.withPrintfBuffer(printfBuffer());
          usesPrintf = true;
        } else if (a.valueKind() == ValueKind.HIDDEN_HEAP_V1) {
          h = h.withHeap(heap());
        }
      }
    } catch (HsaException | GpuMemoryFault e) {
      throw new HipException(HipError.OUT_OF_MEMORY, "setting up device services for " + kernel.kernelName() + ": "
          + e.getMessage());
    }
    return new Prepared(h, usesHostcall, usesPrintf);
  }

  /** A dispatch prepared by {@link #prepare} is about to run. */
  public void started(Prepared p) {
    if (p.hostcall()) hostcall.dispatchStarted();
  }

  /** The dispatch finished (or failed): stop watching for its hostcalls, print its buffered printf records. */
  public void finished(Prepared p, List<PrintfFormat> formats) {
    if (p.hostcall()) hostcall.dispatchEnded();
    if (p.bufferedPrintf()) drainPrintfBuffer(formats);
  }

  private long hostcallBuffer() throws HsaException, GpuMemoryFault {
    if (hostcall == null) {
      // As many packets as the device has wave slots: every wave may hold one packet at a time.
      int packets = machine.agent().computeUnits() * machine.agent().maxWavesPerCu();
      MemoryManager memory = machine.hsa().memory();
      long base = memory.allocate(machine.hsa().cpuAgent().fineGrainedPool(), HostcallBuffer.size(packets)).address();
      doorbell = machine.hsa().createSignal(0);
      HostcallBuffer buffer = HostcallBuffer.initialize(memory.hostView(), base, packets, doorbell.handle());
      HostcallServices services = new HostcallServices(printf, new HostcallServices.DeviceMemory() {
        @Override
        public long allocate(long bytes) {
          try {
            long a = memory.allocate(machine.agent().vramPool(), bytes).address();
            deviceAllocations.add(a);
            return a;
          } catch (HsaException e) {
            return 0;
          }
        }

        @Override
        public void free(long address) {
          if (!deviceAllocations.remove(address)) {
            diagnostics.line(String.format("hipsim: device free of 0x%x, which device malloc did not allocate", address));
            return;
          }
          try {
            memory.free(address);
          } catch (HsaException e) {
            diagnostics.line("hipsim: device free: " + e.getMessage());
          }
        }
      }, diagnostics);
      hostcall = new HostcallListener(buffer, doorbell, services, diagnostics);
    }
    return hostcall.buffer().address();
  }

  private long printfBuffer() throws HsaException, GpuMemoryFault {
    if (printfBuffer == 0) {
      MemoryManager memory = machine.hsa().memory();
      printfBuffer = memory.allocate(machine.hsa().cpuAgent().fineGrainedPool(), PRINTF_BUFFER_BYTES).address();
      GpuMemory host = memory.hostView();
      host.store32(printfBuffer, 0);
      host.store32(printfBuffer + 4, PRINTF_BUFFER_BYTES);
    }
    return printfBuffer;
  }

  private long heap() throws HsaException {
    if (heap == 0) {
      // ockl's heap_t: all zero is its initial state; slabs come through the hostcall device-memory service.
      heap = machine.hsa().memory().allocate(machine.agent().vramPool(), HEAP_BYTES).address();
    }
    return heap;
  }

  private synchronized void drainPrintfBuffer(List<PrintfFormat> formats) {
    try {
      GpuMemory host = machine.hsa().memory().hostView();
      int used = Math.min(host.load32(printfBuffer), PRINTF_BUFFER_BYTES - BufferedPrintf.HEADER);
      if (used <= 0) return;
      byte[] bytes = new byte[used];
      host.read(printfBuffer + BufferedPrintf.HEADER, bytes, 0, used);
      host.store32(printfBuffer, 0);
      BufferedPrintf reader = new BufferedPrintf(formats);
      reader.print(ByteBuffer.wrap(bytes), used, printf, problem -> diagnostics.line("hipsim: " + problem));
    } catch (GpuMemoryFault e) {
      diagnostics.line("hipsim: reading the printf buffer: " + e.getMessage());
    }
  }

  @Override
  public synchronized void close() {
    if (hostcall != null) hostcall.close();
  }
}
