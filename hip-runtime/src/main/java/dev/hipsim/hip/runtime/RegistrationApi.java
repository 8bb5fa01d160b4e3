package dev.hipsim.hip.runtime;

import dev.hipsim.hip.api.ApiCall;
import dev.hipsim.hip.api.ApiProvider;
import dev.hipsim.hip.api.ApiRegistry;
import dev.hipsim.hip.api.HipError;
import dev.hipsim.hip.api.HipException;
import dev.hipsim.hip.api.HostMemory;
import dev.hipsim.hip.gpu.CodeModule;
import dev.hipsim.hip.gpu.GpuRuntime;
import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.loader.ExecutableSymbol;
import java.nio.ByteBuffer;

/**
 * What hipcc's module constructor calls before main: {@code __hipRegisterFatBinary} for the translation unit's
 * {@code .hipFatBinSegment} wrapper, then {@code __hipRegisterFunction} and {@code __hipRegisterVar} for each kernel
 * stub and device variable; {@code __hipUnregisterFatBinary} at exit. Code is loaded lazily, on first use.
 */
final class RegistrationApi implements ApiProvider {
  /** "HIPF": the clang offload wrapper's magic. */
  static final int HIPF = 0x48495046;
  /** "HIPK": newer CLR's kpack wrapper, whose code lives in an external archive. */
  static final int HIPK = 0x4B504948;

  /** Allocates managed memory (host memory the GPU maps at the same address). */
  @FunctionalInterface
  interface ManagedAllocator {
    long allocate(HostMemory host, long size) throws HipException;
  }

  private final GpuRuntime gpu;
  private final ManagedAllocator managed;

  RegistrationApi(GpuRuntime gpu, ManagedAllocator managed) {
    this.gpu = gpu;
    this.managed = managed;
  }

  @Override
  public void register(ApiRegistry api) {
    api.valueFrom("__hipRegisterFatBinary", this);
    api.valueFrom("__hipUnregisterFatBinary", this);
    api.valueFrom("__hipRegisterFunction", this);
    api.valueFrom("__hipRegisterManagedVar", this);
    api.valueFrom("__hipRegisterVar", this);
  }

  @Override
  public ApiCall.ReturningValue valueFunction(String symbol) {
    switch (symbol) {
      case "__hipRegisterFatBinary":
        return a -> registerFatBinary(a.memory(), a.pointer(0));
      case "__hipUnregisterFatBinary":
        return a -> {
          long handle = a.pointer(0);
          if (handle != 0) gpu.removeModule(handle);
          return 0;
        };
      case "__hipRegisterFunction":
        return a -> {
          CodeModule module = gpu.module(a.pointer(0));
          String deviceName = a.string(3);
          if (deviceName == null) deviceName = a.string(2);
          gpu.addFunction(a.pointer(1), new GpuRuntime.Function(module, deviceName));
          return 0;
        };
      case "__hipRegisterManagedVar":
        // __hipRegisterManagedVar(module, void** pointer, init_value, name, size, align): the host shadow holds the
        // address of managed memory initialised from init_value; the device variable of that name is a pointer to it,
        // set when the module's code is loaded.
        return a -> {
          CodeModule module = gpu.module(a.pointer(0));
          String name = a.string(3);
          long size = a.i64(4);
          long pointer = a.pointer(1);
          if (pointer == 0 || name == null || size <= 0) {
            throw new HipException(HipError.INVALID_VALUE, "__hipRegisterManagedVar: bad arguments for " + name);
          }
          HostMemory host = a.memory();
          long address = managed.allocate(host, size);
          if (a.pointer(2) != 0) host.copy(address, a.pointer(2), size);
          host.writeLong(pointer, address);
          module.onLoad(gpu.machine(), (machine, executable) -> {
            ExecutableSymbol.Variable v = module.variable(machine, name);
            byte[] bytes = new byte[8];
            for (int i = 0; i < 8; i++) bytes[i] = (byte) (address >>> (8 * i));
            try {
              machine.hsa().memory().write(v.address(), bytes, 0, 8);
            } catch (HsaException e) {
              throw new HipException(HipError.INVALID_SYMBOL, "managed variable " + name + ": " + e.getMessage());
            }
          });
          return 0;
        };
      case "__hipRegisterVar":
        return a -> {
          CodeModule module = gpu.module(a.pointer(0));
          String deviceName = a.string(3);
          gpu.addVariable(a.pointer(1), new GpuRuntime.Variable(module, deviceName, a.i64(5)));
          return 0;
        };
      default:
        return null;
    }
  }


  private long registerFatBinary(HostMemory host, long wrapper) throws HipException {
    if (wrapper == 0) throw new HipException(HipError.INVALID_VALUE, "__hipRegisterFatBinary: null wrapper");
    int magic = host.readInt(wrapper);
    int version = host.readInt(wrapper + 4);
    if (magic == HIPK) {
      throw new HipException(HipError.NOT_SUPPORTED, String.format(
          "fat-binary wrapper at 0x%x is a kpack (HIPK) wrapper, whose code lives outside the program", wrapper));
    }
    if (magic != HIPF || version != 1) {
      throw new HipException(HipError.INVALID_IMAGE, String.format(
          "fat-binary wrapper at 0x%x has magic 0x%08x version %d (expected HIPF 0x%08x version 1)", wrapper, magic,
          version, HIPF));
    }
    long binary = host.readLong(wrapper + 8);
    long size = CodeModule.imageSize((offset, length) -> host.map(binary + offset, length));
    ByteBuffer image = host.map(binary, size);
    CodeModule module = new CodeModule(gpu.newHandle(), String.format("fat binary at 0x%x", binary), image,
        gpu.faults());
    gpu.addModule(module);
    gpu.prepare(module);
    return module.handle();
  }
}
