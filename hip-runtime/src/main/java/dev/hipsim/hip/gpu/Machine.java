package dev.hipsim.hip.gpu;

import dev.hipsim.hip.device.DeviceModel;
import dev.hipsim.hsa.GpuAgent;
import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.HsaRuntime;
import dev.hipsim.hsa.queue.HsaQueue;
import dev.hipsim.isa.exec.DispatchOptions;
import dev.hipsim.kfd.Kfd;
import dev.hipsim.kfd.shader.ShaderEngine;
import dev.hipsim.kfd.topology.DeviceConfig;
import dev.hipsim.kfd.topology.GpuModel;
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
    GpuModel gpu = model.target().equals("gfx942") ? GpuModel.GFX942 : GpuModel.GFX90A;
    this.kfd = Kfd.create(new DeviceConfig(gpu, gpu.defaultVramBytes()));
    this.engine = ShaderEngine.attach(kfd.devices().get(0));
    engine.setOptions(options(env));
    this.hsa = HsaRuntime.init(kfd);
    this.agent = hsa.gpuAgents().get(0);
    engine.setKernelNames(address -> hsa.kernelAt(address).map(k -> k.kernelName())
        .orElse(String.format("kernel@0x%x", address)));
    this.queue = hsa.createQueue(agent, 1024);
  }

  public static Machine create(DeviceModel model, Map<String, String> env) throws HsaException {
    return new Machine(model, env);
  }

  static DispatchOptions options(Map<String, String> env) {
    DispatchOptions o = DispatchOptions.defaults();
    String threads = env.getOrDefault(THREADS_VARIABLE, "");
    if (!threads.isBlank()) o = o.withThreads(Math.max(1, Integer.parseInt(threads.trim())));
    String watchdog = env.getOrDefault(WATCHDOG_VARIABLE, "");
    if (!watchdog.isBlank()) o = o.withTimeLimit((long) (Double.parseDouble(watchdog.trim()) * 1e9));
    return o;
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
