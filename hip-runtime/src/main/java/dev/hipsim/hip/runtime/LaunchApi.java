package dev.hipsim.hip.runtime;

import dev.hipsim.bundle.metadata.KernelArgument;
import dev.hipsim.hip.api.ApiProvider;
import dev.hipsim.hip.api.ApiRegistry;
import dev.hipsim.hip.api.Args;
import dev.hipsim.hip.api.Dim3;
import dev.hipsim.hip.api.HipError;
import dev.hipsim.hip.api.HipException;
import dev.hipsim.hip.api.HostMemory;
import dev.hipsim.hip.gpu.GpuRuntime;
import dev.hipsim.hip.gpu.Launcher;
import dev.hipsim.hsa.loader.ExecutableSymbol;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * Kernel launches: the {@code <<<>>>} path (the stub pushes and pops the call configuration, then calls
 * hipLaunchKernel with an array of argument addresses) and hipLaunchCooperativeKernel.
 */
final class LaunchApi implements ApiProvider {
  private record CallConfiguration(Dim3 grid, Dim3 block, long sharedMem, long stream) {}

  private final GpuRuntime gpu;
  private final Launcher launcher;
  private final ThreadLocal<Deque<CallConfiguration>> configurations = ThreadLocal.withInitial(ArrayDeque::new);

  LaunchApi(GpuRuntime gpu) {
    this.gpu = gpu;
    this.launcher = new Launcher(gpu);
  }

  @Override
  public void register(ApiRegistry api) {
    api.hipError("__hipPushCallConfiguration", a -> {
      configurations.get().push(new CallConfiguration(a.dim3(0), a.dim3(1), a.i64(2), a.pointer(3)));
      return HipError.SUCCESS;
    });
    api.hipError("__hipPopCallConfiguration", a -> {
      CallConfiguration c = configurations.get().poll();
      if (c == null) throw new HipException(HipError.MISSING_CONFIGURATION, "no call configuration was pushed");
      HostMemory host = a.memory();
      writeDim3(host, a.pointer(0), c.grid());
      writeDim3(host, a.pointer(1), c.block());
      if (a.pointer(2) != 0) host.writeLong(a.pointer(2), c.sharedMem());
      if (a.pointer(3) != 0) host.writeLong(a.pointer(3), c.stream());
      return HipError.SUCCESS;
    });
    api.hipError("hipLaunchKernel", this::launchKernel);
    api.hipError("hipLaunchCooperativeKernel", this::launchKernel);
  }

  private static void writeDim3(HostMemory host, long address, Dim3 d) {
    if (address == 0) return;
    host.writeInt(address, d.x());
    host.writeInt(address + 4, d.y());
    host.writeInt(address + 8, d.z());
  }

  /** hipLaunchKernel(function, grid, block, args, sharedMem, stream) and the cooperative form (same shape). */
  private HipError launchKernel(Args a) throws HipException {
    GpuRuntime.Function f = gpu.function(a.pointer(0));
    ExecutableSymbol.Kernel kernel = f.module().kernel(gpu.machine(), f.name());
    long args = a.pointer(3);
    HostMemory host = a.memory();
    launcher.launch(kernel, a.dim3(1), a.dim3(2), a.i64(4), (builder, k) -> {
      List<KernelArgument> explicit = k.metadata().orElseThrow(() -> new HipException(HipError.INVALID_IMAGE,
          k.kernelName() + " has no metadata: its arguments cannot be laid out")).explicitArguments();
      if (!explicit.isEmpty() && args == 0) {
        throw new HipException(HipError.INVALID_VALUE, k.kernelName() + " takes " + explicit.size()
            + " arguments but none were passed");
      }
      for (int i = 0; i < explicit.size(); i++) {
        long argument = host.readLong(args + 8L * i);
        byte[] value = new byte[(int) explicit.get(i).size()];
        host.read(argument, value, 0, value.length);
        builder.set(i, value);
      }
    });
    return HipError.SUCCESS;
  }
}
