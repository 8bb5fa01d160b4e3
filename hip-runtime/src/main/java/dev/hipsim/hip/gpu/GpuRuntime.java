package dev.hipsim.hip.gpu;

import dev.hipsim.hip.api.HipError;
import dev.hipsim.hip.api.HipException;
import dev.hipsim.hip.api.HostMemory;
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
  private volatile Machine machine;
  private volatile java.util.function.Consumer<Machine> onStart;
  private final Map<Long, CodeModule> modules = new ConcurrentHashMap<>();
  private final Map<Long, Function> functions = new ConcurrentHashMap<>();
  private final Map<Long, Variable> variables = new ConcurrentHashMap<>();
  private final AtomicLong nextHandle = new AtomicLong(0x48_0000_0000L);

  public GpuRuntime(DeviceModel model, Map<String, String> env, HostMemory host, Faults faults) {
    this.model = model;
    this.env = Map.copyOf(env);
    this.host = host;
    this.faults = faults;
  }

  public HostMemory host() {
    return host;
  }

  public Faults faults() {
    return faults;
  }

  /** The simulated machine, built on the first call that needs it. */
  public Machine machine() throws HipException {
    Machine m = machine;
    if (m == null) {
      synchronized (this) {
        m = machine;
        if (m == null) {
          try {
            m = Machine.create(model, env);
            java.util.function.Consumer<Machine> hook = onStart;
            if (hook != null) hook.accept(m);
          } catch (HsaException e) {
            throw new HipException(HipError.NOT_INITIALIZED, "the simulated " + model.name() + " did not start: "
                + e.getMessage());
          }
          machine = m;
        }
      }
    }
    return m;
  }

  /** Runs {@code hook} on the machine as soon as it is built, before any code is loaded (the debugger attaches). */
  public void onMachineStart(java.util.function.Consumer<Machine> hook) {
    this.onStart = hook;
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

  public void shutdown() {
    Machine m = machine;
    if (m != null) m.close();
  }
}
