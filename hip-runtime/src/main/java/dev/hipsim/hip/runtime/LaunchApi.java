package dev.hipsim.hip.runtime;

import dev.hipsim.bundle.metadata.KernelArgument;
import dev.hipsim.hip.api.ApiCall;
import dev.hipsim.hip.api.ApiProvider;
import dev.hipsim.hip.api.ApiRegistry;
import dev.hipsim.hip.api.Args;
import dev.hipsim.hip.api.Dim3;
import dev.hipsim.hip.api.HipError;
import dev.hipsim.hip.api.HipException;
import dev.hipsim.hip.api.HostMemory;
import dev.hipsim.hip.gpu.GpuRuntime;
import dev.hipsim.hip.gpu.Launcher;
import dev.hipsim.hip.gpu.Occupancy;
import dev.hipsim.hsa.dispatch.KernargBuilder;
import dev.hipsim.hsa.loader.ExecutableSymbol;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * Kernel launches and what programs ask about kernels: the {@code <<<>>>} path (the stub pushes and pops the call
 * configuration, then calls hipLaunchKernel with an array of argument addresses), the cooperative, extended and
 * module forms (kernelParams or a packed {@code extra} buffer), function attributes and the occupancy queries
 * (hip_module.cpp, hip_platform.cpp).
 */
final class LaunchApi implements ApiProvider {
  /** {@code extra} array markers (hip_runtime_api.h). */
  static final long PARAM_BUFFER_POINTER = 1;
  static final long PARAM_BUFFER_SIZE = 2;
  static final long PARAM_END = 3;
  /** hipFunction_attribute values. */
  static final int ATTR_MAX_THREADS_PER_BLOCK = 0;
  static final int ATTR_SHARED_SIZE_BYTES = 1;
  static final int ATTR_CONST_SIZE_BYTES = 2;
  static final int ATTR_LOCAL_SIZE_BYTES = 3;
  static final int ATTR_NUM_REGS = 4;
  static final int ATTR_PTX_VERSION = 5;
  static final int ATTR_BINARY_VERSION = 6;
  static final int ATTR_CACHE_MODE_CA = 7;
  static final int ATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
  static final int ATTR_PREFERRED_SHARED_MEMORY_CARVEOUT = 9;
  /** sizeof(hipFuncAttributes). */
  static final int FUNC_ATTRIBUTES_SIZE = 56;

  private record CallConfiguration(Dim3 grid, Dim3 block, long sharedMem, long stream) {}

  private final GpuRuntime gpu;
  private final Launcher launcher;
  private final StreamTable streams;
  private final EventTable events;
  private final ThreadLocal<Deque<CallConfiguration>> configurations = ThreadLocal.withInitial(ArrayDeque::new);

  LaunchApi(GpuRuntime gpu, StreamTable streams, EventTable events) {
    this.gpu = gpu;
    this.launcher = new Launcher(gpu);
    this.streams = streams;
    this.events = events;
  }

  @Override
  public void register(ApiRegistry api) {
    api.hipErrorFrom("__hipPushCallConfiguration", this);
    api.hipErrorFrom("__hipPopCallConfiguration", this);
    api.hipErrorFrom("hipLaunchKernel", this);
    api.hipErrorFrom("hipLaunchCooperativeKernel", this);
    api.hipErrorFrom("hipExtLaunchKernel", this);
    api.hipErrorFrom("hipModuleLaunchKernel", this);
    api.hipErrorFrom("hipModuleLaunchCooperativeKernel", this);
    api.hipErrorFrom("hipExtModuleLaunchKernel", this);
    api.hipErrorFrom("hipLaunchCooperativeKernelMultiDevice", this);
    api.hipErrorFrom("hipExtLaunchMultiKernelMultiDevice", this);
    api.hipErrorFrom("hipFuncGetAttributes", this);
    api.hipErrorFrom("hipFuncGetAttribute", this);
    api.hipErrorFrom("hipGetFuncBySymbol", this);
    api.hipErrorFrom("hipFuncSetCacheConfig", this);
    api.hipErrorFrom("hipFuncSetSharedMemConfig", this);
    api.hipErrorFrom("hipFuncSetAttribute", this);
    api.hipErrorFrom("hipOccupancyMaxActiveBlocksPerMultiprocessor", this);
    api.hipErrorFrom("hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", this);
    api.hipErrorFrom("hipModuleOccupancyMaxActiveBlocksPerMultiprocessor", this);
    api.hipErrorFrom("hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", this);
    api.hipErrorFrom("hipOccupancyMaxPotentialBlockSize", this);
    api.hipErrorFrom("hipModuleOccupancyMaxPotentialBlockSize", this);
    api.hipErrorFrom("hipModuleOccupancyMaxPotentialBlockSizeWithFlags", this);
  }

  @Override
  public ApiCall.ReturningError errorFunction(String symbol) {
    switch (symbol) {
      case "__hipPushCallConfiguration":
        return a -> {
          configurations.get().push(new CallConfiguration(a.dim3(0), a.dim3(1), a.i64(2), a.pointer(3)));
          return HipError.SUCCESS;
        };
      case "__hipPopCallConfiguration":
        return a -> {
          CallConfiguration c = configurations.get().poll();
          if (c == null) throw new HipException(HipError.MISSING_CONFIGURATION, "no call configuration was pushed");
          HostMemory host = a.memory();
          writeDim3(host, a.pointer(0), c.grid());
          writeDim3(host, a.pointer(1), c.block());
          if (a.pointer(2) != 0) host.writeLong(a.pointer(2), c.sharedMem());
          if (a.pointer(3) != 0) host.writeLong(a.pointer(3), c.stream());
          return HipError.SUCCESS;
        };
      case "hipLaunchKernel":
        // hipLaunchKernel(function, grid, block, args, sharedMem, stream)
        return a -> launch(a, gpu.function(a.pointer(0)), a.dim3(1), a.dim3(2), a.i64(4),
            a.pointer(5), a.pointer(3), 0, Launcher.Mode.NORMAL);
      case "hipLaunchCooperativeKernel":
        return a -> launch(a, gpu.function(a.pointer(0)), a.dim3(1), a.dim3(2),
            a.u32(4), a.pointer(5), a.pointer(3), 0, Launcher.Mode.COOPERATIVE);
      case "hipExtLaunchKernel":
        // hipExtLaunchKernel(function, grid, block, args, sharedMem, stream, startEvent, stopEvent, flags)
        return a -> {
          if (a.pointer(6) != 0) events.record(a.pointer(6));
          HipError e = launch(a, gpu.function(a.pointer(0)), a.dim3(1), a.dim3(2), a.i64(4), a.pointer(5), a.pointer(3),
              0, Launcher.Mode.NORMAL);
          if (a.pointer(7) != 0) events.record(a.pointer(7));
          return e;
        };
      case "hipModuleLaunchKernel":
        // hipModuleLaunchKernel(f, gx, gy, gz, bx, by, bz, sharedMem, stream, kernelParams, extra): grid in blocks
        return a -> launch(a, gpu.moduleFunction(a.pointer(0)),
            new Dim3(a.i32(1), a.i32(2), a.i32(3)), new Dim3(a.i32(4), a.i32(5), a.i32(6)), a.u32(7), a.pointer(8),
            a.pointer(9), a.pointer(10), Launcher.Mode.NORMAL);
      case "hipModuleLaunchCooperativeKernel":
        return a -> launch(a, gpu.moduleFunction(a.pointer(0)),
            new Dim3(a.i32(1), a.i32(2), a.i32(3)), new Dim3(a.i32(4), a.i32(5), a.i32(6)), a.u32(7), a.pointer(8),
            a.pointer(9), 0, Launcher.Mode.COOPERATIVE);
      case "hipExtModuleLaunchKernel":
        // hipExtModuleLaunchKernel: the grid is in work-items, not blocks.
        return this::extModuleLaunch;
      case "hipLaunchCooperativeKernelMultiDevice":
        return a -> multiDevice(a, false);
      case "hipExtLaunchMultiKernelMultiDevice":
        return a -> multiDevice(a, true);
      case "hipFuncGetAttributes":
        return this::funcAttributes;
      case "hipFuncGetAttribute":
        return a -> {
          if (a.pointer(0) == 0) return HipError.INVALID_VALUE;
          long[] v = attributes(kernel(gpu.moduleFunction(a.pointer(2))));
          int attr = a.i32(1);
          if (attr < 0 || attr >= v.length) return HipError.INVALID_VALUE;
          a.memory().writeInt(a.pointer(0), (int) v[attr]);
          return HipError.SUCCESS;
        };
      case "hipGetFuncBySymbol":
        return a -> {
          if (a.pointer(0) == 0) return HipError.INVALID_VALUE;
          a.memory().writeLong(a.pointer(0), gpu.functionHandle(gpu.function(a.pointer(1))));
          return HipError.SUCCESS;
        };
      case "hipFuncSetCacheConfig":
        // Cache and shared-memory preferences have no effect on CDNA; CLR accepts and ignores them.
        return a -> {
          gpu.anyFunction(a.pointer(0));
          return HipError.SUCCESS;
        };
      case "hipFuncSetSharedMemConfig":
        return a -> {
          gpu.anyFunction(a.pointer(0));
          return HipError.SUCCESS;
        };
      case "hipFuncSetAttribute":
        return a -> {
          gpu.anyFunction(a.pointer(0));
          return HipError.SUCCESS;
        };
      case "hipOccupancyMaxActiveBlocksPerMultiprocessor":
        return a -> activeBlocks(a, gpu.function(a.pointer(1)));
      case "hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags":
        return a -> activeBlocks(a, gpu.function(a.pointer(1)));
      case "hipModuleOccupancyMaxActiveBlocksPerMultiprocessor":
        return a -> activeBlocks(a, gpu.moduleFunction(a.pointer(1)));
      case "hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags":
        return a -> activeBlocks(a, gpu.moduleFunction(a.pointer(1)));
      case "hipOccupancyMaxPotentialBlockSize":
        // (gridSize, blockSize, f, dynSharedMemPerBlk, blockSizeLimit)
        return a -> potentialBlockSize(a, gpu.function(a.pointer(2)));
      case "hipModuleOccupancyMaxPotentialBlockSize":
        return a -> potentialBlockSize(a, gpu.moduleFunction(a.pointer(2)));
      case "hipModuleOccupancyMaxPotentialBlockSizeWithFlags":
        return a -> potentialBlockSize(a, gpu.moduleFunction(a.pointer(2)));
      default:
        return null;
    }
  }


  private static void writeDim3(HostMemory host, long address, Dim3 d) {
    if (address == 0) return;
    host.writeInt(address, d.x());
    host.writeInt(address + 4, d.y());
    host.writeInt(address + 8, d.z());
  }

  private ExecutableSymbol.Kernel kernel(GpuRuntime.Function f) throws HipException {
    return f.module().kernel(gpu.machine(), f.name());
  }

  /**
   * A launch with arguments as an array of pointers to each value ({@code params}) or as one packed buffer in
   * {@code extra} (HIP_LAUNCH_PARAM_BUFFER_POINTER / _SIZE / _END).
   */
  private HipError launch(Args a, GpuRuntime.Function f, Dim3 grid, Dim3 block, long sharedMem, long stream,
      long params, long extra, Launcher.Mode mode) throws HipException {
    streams.check(stream);
    HostMemory host = a.memory();
    launcher.launch(f, grid, block, sharedMem, mode, (builder, k) -> {
      if (params != 0 || extra == 0) {
        fillFromPointers(host, builder, k, params);
      } else {
        builder.explicitBlock(extraBuffer(host, k, extra));
      }
    });
    return HipError.SUCCESS;
  }

  private static void fillFromPointers(HostMemory host, KernargBuilder builder, ExecutableSymbol.Kernel k,
      long params) throws HipException, dev.hipsim.hsa.HsaException {
    if (k.metadata().isEmpty()) {
      throw new HipException(HipError.INVALID_IMAGE, k.kernelName() + " has no metadata: its arguments cannot be"
          + " laid out");
    }
    List<KernelArgument> explicit = k.metadata().get().explicitArguments();
    if (!explicit.isEmpty() && params == 0) {
      throw new HipException(HipError.INVALID_VALUE, k.kernelName() + " takes " + explicit.size()
          + " arguments but none were passed");
    }
    for (int i = 0; i < explicit.size(); i++) {
      long argument = host.readLong(params + 8L * i);
      if (argument == 0) {
        throw new HipException(HipError.INVALID_VALUE, "argument " + i + " of " + k.kernelName()
            + " is a null pointer");
      }
      byte[] value = new byte[(int) explicit.get(i).size()];
      host.read(argument, value, 0, value.length);
      builder.set(i, value);
    }
  }

  /** The packed argument buffer an {@code extra} array points at. */
  private static byte[] extraBuffer(HostMemory host, ExecutableSymbol.Kernel k, long extra) throws HipException {
    long buffer = 0;
    long sizePointer = 0;
    for (int i = 0; i < 64; i += 2) {
      long key = host.readLong(extra + 8L * i);
      if (key == PARAM_END) break;
      long value = host.readLong(extra + 8L * (i + 1));
      if (key == PARAM_BUFFER_POINTER) {
        buffer = value;
      } else if (key == PARAM_BUFFER_SIZE) {
        sizePointer = value;
      } else {
        throw new HipException(HipError.INVALID_VALUE, String.format("extra[%d] of the launch of %s is 0x%x, not "
            + "HIP_LAUNCH_PARAM_BUFFER_POINTER, _SIZE or _END", i, k.kernelName(), key));
      }
    }
    if (buffer == 0 || sizePointer == 0) {
      throw new HipException(HipError.INVALID_VALUE, "the extra array of the launch of " + k.kernelName()
          + " lacks HIP_LAUNCH_PARAM_BUFFER_POINTER or HIP_LAUNCH_PARAM_BUFFER_SIZE");
    }
    long size = host.readLong(sizePointer);
    if (size < 0 || size > k.kernargSegmentSize()) {
      throw new HipException(HipError.INVALID_VALUE, "the " + size + "-byte argument buffer exceeds the "
          + k.kernargSegmentSize() + "-byte kernel argument segment of " + k.kernelName());
    }
    byte[] bytes = new byte[(int) size];
    host.read(buffer, bytes, 0, bytes.length);
    return bytes;
  }

  /** hipExtModuleLaunchKernel(f, global xyz, local xyz, sharedMem, stream, kernelParams, extra, start, stop, flags). */
  private HipError extModuleLaunch(Args a) throws HipException {
    long[] global = {a.u32(1), a.u32(2), a.u32(3)};
    int[] local = {a.i32(4), a.i32(5), a.i32(6)};
    for (int i = 0; i < 3; i++) {
      if (local[i] <= 0 || global[i] == 0) {
        throw new HipException(HipError.INVALID_VALUE, "an empty global or local work size");
      }
    }
    // CLR launches the global size as given; hipsim's grids are whole blocks, so the size must divide.
    for (int i = 0; i < 3; i++) {
      if (global[i] % local[i] != 0) {
        throw new HipException(HipError.NOT_SUPPORTED, "a global work size that is not a multiple of the work-group "
            + "size (partial work-groups) is not supported");
      }
    }
    Dim3 grid = new Dim3((int) (global[0] / local[0]), (int) (global[1] / local[1]), (int) (global[2] / local[2]));
    if (a.pointer(11) != 0) events.record(a.pointer(11));
    HipError e = launch(a, gpu.moduleFunction(a.pointer(0)), grid, new Dim3(local[0], local[1], local[2]), a.i64(7),
        a.pointer(8), a.pointer(9), a.pointer(10), Launcher.Mode.NORMAL);
    if (a.pointer(12) != 0) events.record(a.pointer(12));
    return e;
  }

  /**
   * hipLaunchCooperativeKernelMultiDevice / hipExtLaunchMultiKernelMultiDevice over hipLaunchParams {func, gridDim,
   * blockDim, args, sharedMem, stream} (56 bytes each): with one device, one launch.
   */
  private HipError multiDevice(Args a, boolean plain) throws HipException {
    long list = a.pointer(0);
    int count = a.i32(1);
    if (list == 0 || count <= 0 || count > 1) return HipError.INVALID_VALUE;
    HostMemory host = a.memory();
    for (int i = 0; i < count; i++) {
      long p = list + 56L * i;
      Dim3 grid = new Dim3(host.readInt(p + 8), host.readInt(p + 12), host.readInt(p + 16));
      Dim3 block = new Dim3(host.readInt(p + 20), host.readInt(p + 24), host.readInt(p + 28));
      launch(a, gpu.function(host.readLong(p)), grid, block, host.readLong(p + 40), host.readLong(p + 48),
          host.readLong(p + 32), 0, plain ? Launcher.Mode.NORMAL : Launcher.Mode.COOPERATIVE_MULTI_DEVICE);
    }
    return HipError.SUCCESS;
  }

  /** hipFuncAttributes values by hipFunction_attribute, as CLR fills them. */
  private long[] attributes(ExecutableSymbol.Kernel k) throws HipException {
    var model = gpu.machine().model();
    int version = model.major() * 10 + model.minor();
    long[] v = new long[10];
    v[ATTR_MAX_THREADS_PER_BLOCK] = Occupancy.maxBlockSize(k);
    v[ATTR_SHARED_SIZE_BYTES] = k.groupSegmentSize();
    v[ATTR_CONST_SIZE_BYTES] = 0;
    v[ATTR_LOCAL_SIZE_BYTES] = k.privateSegmentSize();
    v[ATTR_NUM_REGS] = k.metadata().map(m -> m.vgprCount()).orElse(k.descriptor().nextFreeVgpr(8));
    v[ATTR_PTX_VERSION] = version;
    v[ATTR_BINARY_VERSION] = version;
    v[ATTR_CACHE_MODE_CA] = 0;
    v[ATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES] = 65536 - k.groupSegmentSize();
    v[ATTR_PREFERRED_SHARED_MEMORY_CARVEOUT] = 0;
    return v;
  }

  /** hipFuncGetAttributes(hipFuncAttributes*, const void* hostStub). */
  private HipError funcAttributes(Args a) throws HipException {
    long out = a.pointer(0);
    if (out == 0) return HipError.INVALID_VALUE;
    long[] v = attributes(kernel(gpu.anyFunction(a.pointer(1))));
    HostMemory m = a.memory();
    m.fill(out, 0, FUNC_ATTRIBUTES_SIZE);
    m.writeInt(out, (int) v[ATTR_BINARY_VERSION]);
    m.writeInt(out + 4, (int) v[ATTR_CACHE_MODE_CA]);
    m.writeLong(out + 8, v[ATTR_CONST_SIZE_BYTES]);
    m.writeLong(out + 16, v[ATTR_LOCAL_SIZE_BYTES]);
    m.writeInt(out + 24, (int) v[ATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES]);
    m.writeInt(out + 28, (int) v[ATTR_MAX_THREADS_PER_BLOCK]);
    m.writeInt(out + 32, (int) v[ATTR_NUM_REGS]);
    m.writeInt(out + 36, (int) v[ATTR_PREFERRED_SHARED_MEMORY_CARVEOUT]);
    m.writeInt(out + 40, (int) v[ATTR_PTX_VERSION]);
    m.writeLong(out + 48, v[ATTR_SHARED_SIZE_BYTES]);
    return HipError.SUCCESS;
  }

  /** (numBlocks*, f, blockSize, dynSharedMemPerBlk[, flags]). */
  private HipError activeBlocks(Args a, GpuRuntime.Function f) throws HipException {
    if (a.pointer(0) == 0) return HipError.INVALID_VALUE;
    int blockSize = a.i32(2);
    if (blockSize <= 0) return HipError.INVALID_VALUE;
    ExecutableSymbol.Kernel k = kernel(f);
    int blocks = blockSize > Occupancy.maxBlockSize(k) ? 0
        : Occupancy.of(gpu.machine().model(), k, blockSize, a.i64(3)).blocksPerCu();
    a.memory().writeInt(a.pointer(0), blocks);
    return HipError.SUCCESS;
  }

  /** (gridSize*, blockSize*, f, dynSharedMemPerBlk, blockSizeLimit[, flags]). */
  private HipError potentialBlockSize(Args a, GpuRuntime.Function f) throws HipException {
    if (a.pointer(0) == 0 || a.pointer(1) == 0) return HipError.INVALID_VALUE;
    int[] r = Occupancy.bestBlockSize(gpu.machine().model(), kernel(f), a.i64(3), a.i32(4));
    a.memory().writeInt(a.pointer(0), r[0]);
    a.memory().writeInt(a.pointer(1), r[1]);
    return HipError.SUCCESS;
  }
}
