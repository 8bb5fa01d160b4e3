package dev.hipsim.hip.gpu;

import dev.hipsim.hip.device.DeviceModel;
import dev.hipsim.hsa.GpuAgent;
import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.HsaStatus;
import dev.hipsim.hsa.HsaRuntime;
import dev.hipsim.hsa.queue.HsaQueue;
import dev.hipsim.isa.exec.DispatchOptions;
import dev.hipsim.isa.exec.DispatchRunner;
import dev.hipsim.kfd.Kfd;
import dev.hipsim.kfd.mem.BackingPolicy;
import dev.hipsim.kfd.shader.ShaderEngine;
import dev.hipsim.kfd.topology.DeviceConfig;
import dev.hipsim.kfd.topology.GpuModel;
import java.util.List;
import java.util.Map;

/**
 * The simulated machine behind the HIP API of one process: the KFD driver with one GPU of the configured model,
 * its shader engine (the interpreter) as the packet consumer, the HSA runtime on top, and the queue the null stream
 * submits to. Built on the first call that needs the GPU.
 */
public final class Machine implements AutoCloseable {
  /** Worker threads per dispatch ({@code HIPSIM_THREADS}; default: the number of processors). */
  public static final String THREADS_VARIABLE = "HIPSIM_THREADS";
  /** Watchdog, in seconds of wall time per dispatch ({@code HIPSIM_WATCHDOG_SECONDS}; default 0, none). */
  public static final String WATCHDOG_VARIABLE = "HIPSIM_WATCHDOG_SECONDS";

  private final DeviceModel model;
  private final Kfd kfd;
  private final HsaRuntime hsa;
  private final GpuAgent agent;
  private final ShaderEngine engine;
  private final HsaQueue queue;

  private Machine(DeviceModel model, Map<String, String> env) throws HsaException {
    this.model = model;
    GpuModel gpu = gpuModel(model);
    this.kfd = Kfd.create(Kfd.DEFAULT_SYSTEM_MEMORY, List.of(new DeviceConfig(gpu, gpu.defaultVramBytes())),
        BackingPolicy.quarterOfHeap());
    this.engine = ShaderEngine.attach(kfd.devices().get(0));
    engine.setOptions(options(env));
    DispatchRunner.prestartWorkers(engine.options());
    this.hsa = HsaRuntime.init(kfd);
    this.agent = hsa.gpuAgents().get(0);
    engine.setKernelNames(this::kernelName);
    this.queue = hsa.createQueue(agent, 1024);
    // Every launch waits on a signal, and the process's first signal maps the page of its event mailboxes. Made
    // here, the page is mapped with the machine's other memory, before any of the program's (where the first launch
    // put it, after the program's buffers), and the first launch does not spend 1.7-2.3 ms of a cold JVM on it.
    hsa.createSignal(0).destroy();
    // The kernarg segments' first block, likewise: 1-2 ms of the first launch when it was taken there.
    hsa.dispatcher().reserveKernargs();
  }

  /**
   * The name of the kernel whose descriptor is at {@code address}, for the engine's errors and statistics. Written
   * without a lambda or a format: linking those at the first dispatch took its packet processor 0.7 ms.
   */
  private String kernelName(long address) {
    java.util.Optional<dev.hipsim.hsa.loader.ExecutableSymbol.Kernel> k = hsa.kernelAt(address);
    return k.isPresent() ? k.get().kernelName() : "kernel@0x".concat(Long.toHexString(address));
  }

  /** The kfd-sim device that plays a HIP device model. */
  public static GpuModel gpuModel(DeviceModel model) {
    for (GpuModel g : GpuModel.values()) {
      if (g.gfxName().equals(model.target())) return g;
    }
    throw new IllegalArgumentException("no simulated GPU for " + model.target());
  }

  public static Machine create(DeviceModel model, Map<String, String> env) throws HsaException {
    return new Machine(model, env);
  }

  static DispatchOptions options(Map<String, String> env) throws HsaException {
    DispatchOptions o = DispatchOptions.defaults();
    String threads = env.getOrDefault(THREADS_VARIABLE, "").trim();
    if (!threads.isEmpty()) o = o.withThreads((int) number(THREADS_VARIABLE, threads, 1, 4096, true));
    String watchdog = env.getOrDefault(WATCHDOG_VARIABLE, "").trim();
    if (!watchdog.isEmpty()) o = o.withTimeLimit((long) (number(WATCHDOG_VARIABLE, watchdog, 0, 1e9, false) * 1e9));
    return o;
  }

  /** A setting's value from the environment, or an error naming the variable and what it accepts. */
  private static double number(String variable, String text, double min, double max, boolean integer)
      throws HsaException {
    double v;
    try {
      v = integer ? Integer.parseInt(text) : Double.parseDouble(text);
    } catch (NumberFormatException e) {
      v = Double.NaN;
    }
    if (!(v >= min && v <= max)) {
      String range = integer ? (long) min + " to " + (long) max : min + " to " + max;
      throw new HsaException(HsaStatus.INVALID_ARGUMENT, variable + "=" + text + ": expected "
          + (integer ? "a whole number" : "a number") + " from " + range);
    }
    return v;
  }

  public DeviceModel model() {
    return model;
  }

  public HsaRuntime hsa() {
    return hsa;
  }

  public GpuAgent agent() {
    return agent;
  }

  public ShaderEngine engine() {
    return engine;
  }

  /** The queue of the null stream. */
  public HsaQueue queue() {
    return queue;
  }

  @Override
  public void close() {
    hsa.shutdown();
  }
}
