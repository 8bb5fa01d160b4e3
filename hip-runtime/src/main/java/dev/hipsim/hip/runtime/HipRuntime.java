package dev.hipsim.hip.runtime;

import dev.hipsim.hip.debug.DebugAgent;
import dev.hipsim.hip.gpu.Faults;
import dev.hipsim.hip.gpu.GpuRuntime;
import java.util.Map;

import dev.hipsim.hip.abi.ApiTable;
import dev.hipsim.hip.api.ApiProvider;
import dev.hipsim.hip.api.ApiRegistry;
import dev.hipsim.hip.api.Diagnostics;
import dev.hipsim.hip.api.Dispatcher;
import dev.hipsim.hip.api.HostMemory;
import dev.hipsim.hip.api.LastError;
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
  private final DebugAgent debugAgent;

  private HipRuntime(ApiTable table, RuntimeConfig config, HostMemory memory, Diagnostics diagnostics, Faults faults,
      Map<String, String> env) {
    this.config = config;
    this.memory = memory;
    this.diagnostics = diagnostics;
    this.devices = new Devices(List.of(config.device()));
    this.gpu = new GpuRuntime(config.device(), env, memory, faults);
    // Under `hipsim debug` / `hipsim dap`: connect to the front end and wait for its breakpoints.
    this.debugAgent = DebugAgent.startIfRequested(env, diagnostics);
    if (debugAgent != null) gpu.onMachineStart(debugAgent::attach);
    ApiRegistry registry = new ApiRegistry(table);
    for (ApiProvider p : providers()) p.register(registry);
    this.dispatcher = registry.dispatcher(memory, diagnostics, lastError);
  }

  public static HipRuntime start(ApiTable table, RuntimeConfig config, HostMemory memory, Diagnostics diagnostics,
      Faults faults, Map<String, String> env) {
    return new HipRuntime(table, config, memory, diagnostics, faults, env);
  }

  /** A runtime whose fatal device errors throw (for tests). */
  public static HipRuntime start(ApiTable table, RuntimeConfig config, HostMemory memory, Diagnostics diagnostics) {
    return new HipRuntime(table, config, memory, diagnostics, message -> {
      throw new IllegalStateException(message);
    }, Map.of());
  }

  /** Every API group; each registers the functions it implements. */
  private List<ApiProvider> providers() {
    return List.of(new ErrorApi(lastError), new VersionApi(), new DeviceApi(devices), new RegistrationApi(gpu),
        new MemoryApi(gpu), new LaunchApi(gpu), new SyncApi());
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

  /** Called once at process exit, after the program's own exit handlers: finish outstanding work, report. */
  public void shutdown() {
    gpu.shutdown();
    if (debugAgent != null) debugAgent.close();
  }

  public GpuRuntime gpu() {
    return gpu;
  }
}
