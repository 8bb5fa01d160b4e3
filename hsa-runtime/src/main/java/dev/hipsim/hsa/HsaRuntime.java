package dev.hipsim.hsa;

import dev.hipsim.hsa.dispatch.Dispatcher;
import dev.hipsim.hsa.dispatch.KernargArena;
import dev.hipsim.hsa.loader.Executable;
import dev.hipsim.hsa.loader.ExecutableSymbol;
import dev.hipsim.hsa.memory.Allocation;
import dev.hipsim.hsa.memory.MemoryManager;
import dev.hipsim.hsa.memory.MemoryPool;
import dev.hipsim.hsa.queue.HsaQueue;
import dev.hipsim.hsa.signal.Signal;
import dev.hipsim.hsa.signal.SignalManager;
import dev.hipsim.kfd.AllocFlags;
import dev.hipsim.kfd.Kfd;
import dev.hipsim.kfd.KfdException;
import dev.hipsim.kfd.KfdProcess;
import dev.hipsim.kfd.queue.DoorbellSlice;
import dev.hipsim.kfd.topology.NodeProperties;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The HSA runtime of one process ({@code hsa_init} … {@code hsa_shut_down}): opens the KFD, acquires a VM on every
 * GPU, and builds the agents and their memory pools from the topology. Everything else hangs off it: memory
 * ({@link #memory()}), signals, queues, executables and the dispatcher.
 *
 * <p>Thread-safe.
 */
public final class HsaRuntime implements AutoCloseable {
  private final Kfd kfd;
  private final HsaOptions options;
  private final KfdProcess process;
  private final CpuAgent cpu;
  private final List<GpuAgent> gpus;
  private final MemoryManager memory;
  private final SignalManager signals;
  private final Dispatcher dispatcher;
  private final Map<Integer, Allocation> doorbells = new HashMap<>();
  private final List<HsaQueue> queues = new ArrayList<>();
  private final List<Executable> executables = new ArrayList<>();
  private volatile dev.hipsim.hsa.loader.LoaderListener loaderListener;
  private boolean shutDown;

  private HsaRuntime(Kfd kfd, HsaOptions options) throws HsaException {
    this.kfd = kfd;
    this.options = options;
    this.process = kfd.open();
    List<Integer> gpuIds = new ArrayList<>();
    List<GpuAgent> agents = new ArrayList<>();
    try {
      for (NodeProperties n : kfd.topology().gpus()) {
        process.acquireVm(n.gpuId());
        gpuIds.add(n.gpuId());
        agents.add(new GpuAgent(n, options.xnack(), options.sramecc()));
      }
    } catch (KfdException e) {
      process.close();
      throw new HsaException(HsaStatus.OUT_OF_RESOURCES, "acquiring the GPU VMs: " + e.getMessage(), e);
    }
    this.gpus = List.copyOf(agents);
    this.cpu = new CpuAgent(kfd.topology().node(0));
    this.memory = new MemoryManager(process, gpuIds, options.vaBase(), options.vaSize());
    long system = cpu.properties().localMemSize();
    cpu.pools(List.of(
        new MemoryPool(cpu, MemoryPool.Segment.GLOBAL, MemoryPool.FINE_GRAINED, MemoryPool.Placement.SYSTEM, system,
            memory),
        new MemoryPool(cpu, MemoryPool.Segment.GLOBAL, MemoryPool.KERNARG_INIT | MemoryPool.FINE_GRAINED,
            MemoryPool.Placement.SYSTEM, system, memory),
        new MemoryPool(cpu, MemoryPool.Segment.GLOBAL, MemoryPool.COARSE_GRAINED, MemoryPool.Placement.SYSTEM, system,
            memory)));
    for (GpuAgent g : gpus) {
      g.pools(List.of(
          new MemoryPool(g, MemoryPool.Segment.GLOBAL, MemoryPool.COARSE_GRAINED, MemoryPool.Placement.VRAM,
              g.localMemoryBytes(), memory),
          new MemoryPool(g, MemoryPool.Segment.GROUP, 0, MemoryPool.Placement.LDS, g.ldsBytes(), memory)));
    }
    this.signals = new SignalManager(process, memory, cpu.fineGrainedPool(), gpuIds);
    this.dispatcher = new Dispatcher(new KernargArena(cpu.kernargPool()), memory, options);
  }

  /** {@code hsa_init} on a simulated machine, with default options (xnack off, sramecc on). */
  public static HsaRuntime init(Kfd kfd) throws HsaException {
    return new HsaRuntime(kfd, HsaOptions.defaults());
  }

  public static HsaRuntime init(Kfd kfd, HsaOptions options) throws HsaException {
    if (kfd.topology().gpus().isEmpty()) throw new HsaException(HsaStatus.INVALID_AGENT, "the machine has no GPU");
    return new HsaRuntime(kfd, options);
  }

  public HsaOptions options() {
    return options;
  }

  /** {@code hsa_iterate_agents}: the CPU, then the GPUs in topology order. */
  public List<Agent> agents() {
    List<Agent> all = new ArrayList<>();
    all.add(cpu);
    all.addAll(gpus);
    return all;
  }

  public CpuAgent cpuAgent() {
    return cpu;
  }

  public List<GpuAgent> gpuAgents() {
    return gpus;
  }

  /** The GPU agent with this KFD gpu_id. */
  public GpuAgent gpuAgent(int gpuId) throws HsaException {
    for (GpuAgent g : gpus) if (g.gpuId() == gpuId) return g;
    throw new HsaException(HsaStatus.INVALID_AGENT, "no GPU agent with gpu_id 0x" + Integer.toHexString(gpuId));
  }

  /** Allocation, copies, fills and host access. */
  public MemoryManager memory() {
    return memory;
  }

  /** {@code hsa_signal_create} with no consumer restriction: an interrupt signal. */
  public Signal createSignal(long initialValue) throws HsaException {
    checkUp();
    return signals.create(initialValue);
  }

  /** The signal with this handle ({@code amd_signal_t} address). */
  public Signal signal(long handle) throws HsaException {
    return signals.find(handle);
  }

  public SignalManager signals() {
    return signals;
  }

  /** {@code hsa_queue_create}: an AQL queue of {@code packets} slots on {@code agent}. */
  public synchronized HsaQueue createQueue(GpuAgent agent, int packets) throws HsaException {
    checkUp();
    Allocation doorbellPage = doorbells.get(agent.gpuId());
    if (doorbellPage == null) {
      // The process's doorbell page on this GPU, mapped once for all its queues (libhsakmt maps it at first use).
      doorbellPage = memory.allocate(cpu.fineGrainedPool(), DoorbellSlice.BYTES, 1,
          AllocFlags.DOORBELL | AllocFlags.WRITABLE | AllocFlags.COHERENT | AllocFlags.NO_SUBSTITUTE, agent.gpuId(),
          List.of(agent.gpuId()));
      doorbells.put(agent.gpuId(), doorbellPage);
    }
    HsaQueue q = HsaQueue.create(agent, packets, process, memory, signals, cpu.fineGrainedPool(), doorbellPage,
        options.scratchLimitBytes());
    queues.add(q);
    return q;
  }

  /**
   * Reports the code objects of executables created from now on as they are loaded and destroyed (a debugger reads
   * their symbols and line tables); null stops reporting.
   */
  public void setLoaderListener(dev.hipsim.hsa.loader.LoaderListener listener) {
    this.loaderListener = listener;
  }

  /** {@code hsa_executable_create_alt}. */
  public synchronized Executable createExecutable() throws HsaException {
    checkUp();
    // A loop, not removeIf with a method reference: a program's first launch comes here on a cold JVM.
    for (java.util.Iterator<Executable> i = executables.iterator(); i.hasNext(); ) {
      if (i.next().isDestroyed()) i.remove();
    }
    Executable e = new Executable(memory, loaderListener);
    executables.add(e);
    return e;
  }

  /**
   * The kernel whose handle (descriptor address) is {@code kernelObject}, in any live executable: what names a
   * dispatch in the device's errors and statistics.
   */
  public synchronized Optional<ExecutableSymbol.Kernel> kernelAt(long kernelObject) {
    for (Executable e : executables) {
      if (e.isDestroyed()) continue;
      for (ExecutableSymbol s : e.symbols()) {
        if (s instanceof ExecutableSymbol.Kernel k && k.kernelObject() == kernelObject) return Optional.of(k);
      }
    }
    return Optional.empty();
  }

  /** Kernel launches and barrier packets. */
  public Dispatcher dispatcher() {
    return dispatcher;
  }

  /** The simulated machine this runtime drives. */
  public Kfd kfd() {
    return kfd;
  }

  private synchronized void checkUp() throws HsaException {
    if (shutDown) throw new HsaException(HsaStatus.NOT_INITIALIZED, "the runtime was shut down");
  }

  /** {@code hsa_shut_down}: destroys the queues and closes the process's KFD, which frees all its memory. */
  public synchronized void shutdown() {
    if (shutDown) return;
    shutDown = true;
    for (HsaQueue q : queues) {
      if (q.isDestroyed()) continue;
      try {
        q.destroy();
      } catch (HsaException e) {
        // The process teardown below stops the queue anyway.
      }
    }
    queues.clear();
    process.close();
    memory.clear();
  }

  @Override
  public void close() {
    shutdown();
  }
}
