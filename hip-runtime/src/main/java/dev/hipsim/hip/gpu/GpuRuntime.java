package dev.hipsim.hip.gpu;

import dev.hipsim.hip.api.HipError;
import dev.hipsim.hip.api.HipException;
import dev.hipsim.hip.api.Diagnostics;
import dev.hipsim.hip.api.HostMemory;
import dev.hipsim.hip.api.ProgramStreams;
import dev.hipsim.hip.device.DeviceModel;
import dev.hipsim.hsa.HsaException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The GPU side of the HIP runtime of one process: the simulated machine (built on first use), the modules the
 * program registered or loaded, and the host-side handles of its kernels and device variables — what CLR keeps in
 * its StatCO/DynCO tables.
 */
public final class GpuRuntime {
  /** A kernel a host stub stands for: its module and (mangled) name. */
  public record Function(CodeModule module, String name) {}

  /** A device variable a host shadow stands for. */
  public record Variable(CodeModule module, String name, long size) {}

  private final DeviceModel model;
  private final Map<String, String> env;
  private final HostMemory host;
  private final Faults faults;
  private final ProgramStreams streams;
  private final Diagnostics diagnostics;
  private final KernelStatistics statistics;
  private volatile Machine machine;
  private volatile DeviceServices services;
  private long multiGridInfo;
  private volatile java.util.function.Consumer<Machine> onStart;
  /** Whether registered modules are prepared on a background thread ({@link #prepare}). */
  private volatile boolean prepareAhead = true;
  /** The background preparation; the first launch stops its rehearsals. */
  private final HeadStart headStart;
  private final Map<Long, CodeModule> modules = new ConcurrentHashMap<>();
  private final Map<Long, Function> functions = new ConcurrentHashMap<>();
  private final Map<Long, Variable> variables = new ConcurrentHashMap<>();
  /** hipFunction_t handles of kernels found with hipModuleGetFunction (or hipGetFuncBySymbol). */
  private final Map<Long, Function> moduleFunctions = new ConcurrentHashMap<>();
  private final AtomicLong nextHandle = new AtomicLong(0x48_0000_0000L);

  public GpuRuntime(DeviceModel model, Map<String, String> env, HostMemory host, Faults faults) {
    this(model, env, host, faults, ProgramStreams.NONE, message -> {}, false, new HeadStart());
  }

  /**
   * @param streams the program's stdout and stderr (device printf, progress lines)
   * @param diagnostics the runtime's one-line messages
   * @param stats whether to collect per-kernel statistics ({@link #statistics()})
   * @param headStart where registered modules are prepared ahead of their first launch ({@link #prepare}); it may
   *     be rehearsing the program's code already
   */
  public GpuRuntime(DeviceModel model, Map<String, String> env, HostMemory host, Faults faults,
      ProgramStreams streams, Diagnostics diagnostics, boolean stats, HeadStart headStart) {
    this.headStart = headStart;
    this.model = model;
    this.env = Map.copyOf(env);
    this.host = host;
    this.faults = faults;
    this.streams = streams;
    this.diagnostics = diagnostics;
    this.statistics = stats ? new KernelStatistics() : null;
  }

  public DeviceModel model() {
    return model;
  }

  public ProgramStreams streams() {
    return streams;
  }

  public Diagnostics diagnostics() {
    return diagnostics;
  }

  /** Per-kernel statistics, or null when they are not collected. */
  public KernelStatistics statistics() {
    return statistics;
  }

  /** The device services (hostcall, printf buffer, heap) of the machine, set up with it. */
  public DeviceServices services() throws HipException {
    machine();
    return services;
  }

  /**
   * The multi-grid info ({@code mg_info} of ockl's cg.cl) of a cooperative multi-device launch on this one device:
   * the sync words, grid 0 of 1, no threads before it, all of the grid's threads in total.
   */
  synchronized long multiGridInfo(dev.hipsim.hip.api.Dim3 grid, dev.hipsim.hip.api.Dim3 block) throws HipException {
    Machine m = machine();
    try {
      if (multiGridInfo == 0) multiGridInfo = m.hsa().memory().allocate(m.agent().vramPool(), 64).address();
      long threads = (long) grid.x() * grid.y() * grid.z() * block.x() * block.y() * block.z();
      java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(48).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      b.putLong(0, multiGridInfo + 32); // mgs: the mg_sync words, right after
      b.putInt(8, 0); // grid_id
      b.putInt(12, 1); // num_grids
      b.putLong(16, 0); // prev_sum
      b.putLong(24, threads); // all_sum
      m.hsa().memory().write(multiGridInfo, b.array(), 0, 48);
      return multiGridInfo;
    } catch (HsaException e) {
      throw new HipException(HipError.OUT_OF_MEMORY, "multi-grid info: " + e.getMessage());
    }
  }

  public HostMemory host() {
    return host;
  }

  public Faults faults() {
    return faults;
  }

  /** Why the machine could not be built, once that has happened (it is not retried). */
  private String startFailure;

  /** The simulated machine, built on the first call that needs it (or by {@link #prepare} ahead of that). */
  public Machine machine() throws HipException {
    Machine m = machine;
    if (m == null) {
      synchronized (this) {
        m = machine;
        if (m == null) {
          if (startFailure != null) throw new HipException(HipError.NOT_INITIALIZED, startFailure);
          try {
            m = build();
          } catch (HsaException e) {
            // Said once on stderr: the program itself only sees hipErrorNotInitialized.
            String why = "the simulated " + model.name() + " did not start: " + e.getMessage();
            diagnostics.line("hipsim: " + why);
            startFailure = why;
            throw new HipException(HipError.NOT_INITIALIZED, why);
          }
        }
      }
    }
    return m;
  }

  /** Builds the machine and its device services (called holding the lock, with no machine yet). */
  private Machine build() throws HsaException {
    Machine m = Machine.create(model, env);
    java.util.function.Consumer<Machine> hook = onStart;
    if (hook != null) hook.accept(m);
    services = new DeviceServices(m, (toStderr, text) -> {
      if (toStderr) {
        streams.stderr(text);
      } else {
        streams.stdout(text);
      }
    }, diagnostics);
    if (statistics != null) m.engine().setListener(statistics);
    machine = m;
    return m;
  }

  /**
   * Gets {@code module} ready for its first launch on background threads while the program's host code runs
   * ({@link HeadStart}): the machine is built (it depends only on the device model and the environment, so building
   * it early changes nothing) and the module's code object chosen and read; then, on the rehearsals' thread, its code
   * is rehearsed until the first launch ({@link CodeModule#rehearse}: its runs of instructions generated and compiled
   * by the JIT), and, when no rehearsal has generated a run, the interpreter's code generator made ready
   * ({@link dev.hipsim.isa.interp.CodeCache#prepareFusion}). Loading it, which allocates device memory, stays with
   * the first launch, so device addresses never depend on timing. A failure here is left for the program's own call
   * to report. Off once a start hook is set: the debugger attaches on the program's first call.
   */
  public void prepare(CodeModule module) {
    if (!prepareAhead) return;
    headStart.submit(() -> {
      Machine m = startQuietly();
      if (m == null) return;
      module.prepare(m);
      headStart.submitRehearsal(() -> {
        module.rehearse(m, headStart);
        // (the program's rehearsal may have generated this module's runs already: then the generator is ready)
        if (!headStart.generatedRuns() && !headStart.launched()) {
          try {
            dev.hipsim.isa.interp.CodeCache.prepareFusion();
          } catch (RuntimeException | LinkageError e) {
            // Only a head start: the first dispatch makes the generator ready itself, and reports what fails.
          }
        }
      });
    });
  }

  /** A launch is about to run: background rehearsals give the cores back ({@link HeadStart#launching}). */
  public void launching() {
    headStart.launching();
  }

  /** Whether no module is being prepared or waiting to be (for tests). */
  boolean preparationIdle() {
    return headStart.idle();
  }

  /** The machine, built now if it is not yet; null, with nothing said, if it cannot be. */
  private Machine startQuietly() {
    Machine m = machine;
    if (m != null) return m;
    synchronized (this) {
      if (machine != null) return machine;
      if (startFailure != null) return null;
      try {
        return build();
      } catch (HsaException | RuntimeException e) {
        return null; // the program's first call that needs the machine builds it again and says why it fails
      }
    }
  }

  /** Runs {@code hook} on the machine as soon as it is built, before any code is loaded (the debugger attaches). */
  public void onMachineStart(java.util.function.Consumer<Machine> hook) {
    this.onStart = hook;
    this.prepareAhead = false;
  }

  /** Whether the machine exists (nothing to shut down otherwise). */
  public boolean started() {
    return machine != null;
  }

  /** A fresh handle for a module (the value the program holds). */
  public long newHandle() {
    return nextHandle.getAndAdd(16);
  }

  public void addModule(CodeModule module) {
    modules.put(module.handle(), module);
  }

  public CodeModule module(long handle) throws HipException {
    CodeModule m = modules.get(handle);
    if (m == null) throw new HipException(HipError.INVALID_HANDLE, String.format("0x%x is not a module", handle));
    return m;
  }

  public void removeModule(long handle) throws HipException {
    CodeModule m = modules.remove(handle);
    if (m == null) throw new HipException(HipError.INVALID_HANDLE, String.format("0x%x is not a module", handle));
    functions.values().removeIf(f -> f.module() == m);
    variables.values().removeIf(v -> v.module() == m);
    moduleFunctions.values().removeIf(f -> f.module() == m);
    m.unload();
  }

  public void addFunction(long hostFunction, Function f) {
    functions.put(hostFunction, f);
  }

  public Function function(long hostFunction) throws HipException {
    Function f = functions.get(hostFunction);
    if (f == null) {
      throw new HipException(HipError.INVALID_DEVICE_FUNCTION, String.format(
          "0x%x is not a registered kernel (no __hipRegisterFunction for it)", hostFunction));
    }
    return f;
  }

  /** Registers a hipFunction_t for a kernel of a module; returns its handle (one per module and name). */
  public synchronized long functionHandle(Function f) {
    for (Map.Entry<Long, Function> e : moduleFunctions.entrySet()) {
      if (e.getValue().equals(f)) return e.getKey();
    }
    long h = newHandle();
    moduleFunctions.put(h, f);
    return h;
  }

  /** The kernel a hipFunction_t stands for. */
  public Function moduleFunction(long handle) throws HipException {
    Function f = moduleFunctions.get(handle);
    if (f == null) {
      throw new HipException(HipError.INVALID_HANDLE, String.format("0x%x is not a hipFunction_t",
          handle));
    }
    return f;
  }

  /** The kernel of a host stub (__hipRegisterFunction) or of a hipFunction_t, whichever {@code pointer} is. */
  public Function anyFunction(long pointer) throws HipException {
    Function f = functions.get(pointer);
    if (f == null) f = moduleFunctions.get(pointer);
    if (f == null) return function(pointer);
    return f;
  }

  /** Every module registered or loaded. */
  public java.util.Collection<CodeModule> modules() {
    return modules.values();
  }

  public void addVariable(long hostVar, Variable v) {
    variables.put(hostVar, v);
  }

  public Variable variable(long hostVar) throws HipException {
    Variable v = variables.get(hostVar);
    if (v == null) {
      throw new HipException(HipError.INVALID_SYMBOL, String.format("0x%x is not a registered device variable",
          hostVar));
    }
    return v;
  }

  /** Reports, stops the device services, and tears the machine down (its queues, its memory, the KFD process). */
  public void shutdown() {
    Machine m = finish();
    if (m != null) m.close();
  }

  /**
   * What the process's exit needs: the statistics reported and the device services stopped. The machine's memory is
   * left to the process's end: tearing it down freed every page and page table one by one, 11 ms of a cold vadd 4M's
   * exit, for a JVM that is about to go. (Its packet processors are daemon threads.)
   */
  public void exit() {
    finish();
  }

  private Machine finish() {
    Machine m = machine;
    if (m == null) return null;
    if (statistics != null) {
      for (String line : statistics.report(model.target() + ", " + model.name())) diagnostics.line(line);
    }
    services.close();
    return m;
  }
}
