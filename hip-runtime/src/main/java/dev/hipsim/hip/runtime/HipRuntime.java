package dev.hipsim.hip.runtime;

import dev.hipsim.hip.debug.DebugAgent;
import dev.hipsim.hip.gpu.Faults;
import dev.hipsim.hip.gpu.GpuRuntime;
import dev.hipsim.hip.gpu.HeadStart;
import java.util.Map;

import dev.hipsim.hip.abi.ApiTable;
import dev.hipsim.hip.api.ApiProvider;
import dev.hipsim.hip.api.ApiRegistry;
import dev.hipsim.hip.api.Diagnostics;
import dev.hipsim.hip.api.Dispatcher;
import dev.hipsim.hip.api.HostMemory;
import dev.hipsim.hip.api.LastError;
import dev.hipsim.hip.api.ProgramStreams;
import java.util.List;

/**
 * The HIP runtime of one process: the simulated devices, per-thread state and the dispatch table that serves the
 * calls arriving through libamdhip64. New API groups are added to {@link #providers()}.
 */
public final class HipRuntime {
  /**
   * {@code HIP_VERSION} reported by {@code hipRuntimeGetVersion} and {@code hipDriverGetVersion}: ROCm 6.3.0
   * (HIP 6.3.42134), the release whose CLR semantics (last error, device properties) this runtime follows.
   */
  public static final int HIP_VERSION = 60342134;

  private final RuntimeConfig config;
  private final HostMemory memory;
  private final Diagnostics diagnostics;
  private final LastError lastError = new LastError();
  private final Devices devices;
  private final Dispatcher dispatcher;
  private final GpuRuntime gpu;
  private final java.util.concurrent.atomic.AtomicLong handles = new java.util.concurrent.atomic.AtomicLong(
      0x5700_0000_0000L);
  private final StreamTable streams = new StreamTable(handles);
  private final EventTable events = new EventTable(handles);
  private final AllocationTable allocations = new AllocationTable();
  private final HostRegistrations registrations = new HostRegistrations();
  private MemoryApi memoryApi;
  private final DebugAgent debugAgent;

  /** Every implemented function, most made at their first call (for tests: {@link ApiRegistry#makeAll}). */
  private final ApiRegistry registry;

  private HipRuntime(ApiTable table, RuntimeConfig config, HostMemory memory, Diagnostics diagnostics, Faults faults,
      ProgramStreams streams, Map<String, String> env, HeadStart headStart) {
    this.config = config;
    this.memory = memory;
    this.diagnostics = diagnostics;
    this.devices = new Devices(List.of(config.device()));
    this.gpu = new GpuRuntime(config.device(), env, memory, faults, streams, diagnostics, config.stats(), headStart);
    // Under `hipsim debug` / `hipsim dap`: connect to the front end and wait for its breakpoints.
    this.debugAgent = DebugAgent.startIfRequested(env, diagnostics);
    if (debugAgent != null) gpu.onMachineStart(debugAgent::attach);
    this.registry = new ApiRegistry(table);
    for (ApiProvider p : providers()) p.register(registry);
    aliasPerThreadForms(registry);
    this.dispatcher = registry.dispatcher(memory, diagnostics, lastError);
  }

  public static HipRuntime start(ApiTable table, RuntimeConfig config, HostMemory memory, Diagnostics diagnostics,
      Faults faults, Map<String, String> env) {
    return new HipRuntime(table, config, memory, diagnostics, faults, ProgramStreams.NONE, env, new HeadStart());
  }

  /** The runtime of a program: device printf and progress lines go to {@code streams}. */
  public static HipRuntime start(ApiTable table, RuntimeConfig config, HostMemory memory, Diagnostics diagnostics,
      Faults faults, ProgramStreams streams, Map<String, String> env) {
    return start(table, config, memory, diagnostics, faults, streams, env, new HeadStart());
  }

  /**
   * The runtime of a program whose preparation began before it ({@code headStart} may be rehearsing the program's
   * code already: {@link HeadStart#rehearseProgram}).
   */
  public static HipRuntime start(ApiTable table, RuntimeConfig config, HostMemory memory, Diagnostics diagnostics,
      Faults faults, ProgramStreams streams, Map<String, String> env, HeadStart headStart) {
    return new HipRuntime(table, config, memory, diagnostics, faults, streams, env, headStart);
  }

  /** A runtime whose fatal device errors throw (for tests). */
  public static HipRuntime start(ApiTable table, RuntimeConfig config, HostMemory memory, Diagnostics diagnostics) {
    return new HipRuntime(table, config, memory, diagnostics, message -> {
      throw new IllegalStateException(message);
    }, ProgramStreams.NONE, Map.of(), new HeadStart());
  }

  ApiRegistry registry() {
    return registry;
  }

  /** Every API group; each registers the functions it implements. */
  private List<ApiProvider> providers() {
    memoryApi = new MemoryApi(gpu, allocations, registrations, streams, config);
    return List.of(new ErrorApi(lastError), new VersionApi(), new DeviceApi(devices, this::resetDevice),
        new RegistrationApi(gpu, (host, size) -> memoryApi.hostBlock(host, size, AllocationTable.Kind.MANAGED,
            MemoryApi.MEM_ATTACH_GLOBAL)),
        memoryApi, new LaunchApi(gpu, streams, events), new ModuleApi(gpu), new SyncApi(streams, events));
  }

  /**
   * The {@code _spt} (per-thread default stream) forms behave as their plain forms: every stream is synchronous,
   * so the per-thread default stream and the null stream cannot be told apart.
   */
  private static void aliasPerThreadForms(ApiRegistry registry) {
    java.util.Set<String> implemented = new java.util.HashSet<>();
    for (var f : registry.implemented()) implemented.add(f.symbol());
    ApiTable table = registry.table();
    for (int id = 0; id < table.size(); id++) {
      String s = table.symbol(id);
      if (s.endsWith("_spt") && !implemented.contains(s)) {
        String plain = s.substring(0, s.length() - 4);
        if (implemented.contains(plain)) registry.alias(s, plain);
      }
    }
  }

  /** hipDeviceReset: the program's allocations, streams and events are released; registered code stays. */
  private void resetDevice() {
    if (!gpu.started()) return;
    memoryApi.releaseAll(memory);
    streams.clear();
    events.clear();
  }

  public Dispatcher dispatcher() {
    return dispatcher;
  }

  public RuntimeConfig config() {
    return config;
  }

  public Devices devices() {
    return devices;
  }

  public HostMemory memory() {
    return memory;
  }

  public Diagnostics diagnostics() {
    return diagnostics;
  }

  public LastError lastError() {
    return lastError;
  }

  /** Finishes outstanding work, reports, and tears the simulated machine down (tests; a runtime that stays). */
  public void shutdown() {
    gpu.shutdown();
    if (debugAgent != null) debugAgent.close();
  }

  /**
   * Called once at process exit, after the program's own exit handlers: finishes outstanding work and reports, and
   * leaves the machine's memory to the process's end ({@link GpuRuntime#exit}).
   */
  public void exit() {
    gpu.exit();
    if (debugAgent != null) debugAgent.close();
  }

  public GpuRuntime gpu() {
    return gpu;
  }
}
