package dev.hipsim.hip.runtime;

import dev.hipsim.hip.api.ApiCall;
import dev.hipsim.hip.api.ApiProvider;
import dev.hipsim.hip.api.ApiRegistry;
import dev.hipsim.hip.api.Args;
import dev.hipsim.hip.api.HipError;
import dev.hipsim.hip.api.HipException;
import dev.hipsim.hip.api.HostMemory;
import dev.hipsim.hip.gpu.CodeModule;
import dev.hipsim.hip.gpu.GpuRuntime;
import dev.hipsim.hsa.loader.ExecutableSymbol;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Paths;

/**
 * The module API (hip_module.cpp): code objects or offload bundles loaded at run time from a file or from memory,
 * their kernels as hipFunction_t handles, their globals, and unloading. Unlike registered fat binaries, a module is
 * loaded when the call is made, so a missing code object for the device fails there, as in CLR.
 */
final class ModuleApi implements ApiProvider {
  private final GpuRuntime gpu;

  ModuleApi(GpuRuntime gpu) {
    this.gpu = gpu;
  }

  @Override
  public void register(ApiRegistry api) {
    api.hipErrorFrom("hipModuleLoad", this);
    api.hipErrorFrom("hipModuleLoadData", this);
    api.hipErrorFrom("hipModuleLoadDataEx", this);
    api.hipErrorFrom("hipModuleLoadFatBinary", this);
    api.hipErrorFrom("hipModuleUnload", this);
    api.hipErrorFrom("hipModuleGetFunction", this);
    api.hipErrorFrom("hipModuleGetGlobal", this);
    api.hipErrorFrom("hipModuleGetFunctionCount", this);
  }

  @Override
  public ApiCall.ReturningError errorFunction(String symbol) {
    switch (symbol) {
      case "hipModuleLoad":
        return a -> {
          String file = a.string(1);
          if (a.pointer(0) == 0 || file == null) return HipError.INVALID_VALUE;
          byte[] bytes;
          try {
            bytes = Files.readAllBytes(Paths.get(file));
          } catch (NoSuchFileException e) {
            throw new HipException(HipError.FILE_NOT_FOUND, "hipModuleLoad: " + file + " does not exist");
          } catch (IOException | java.nio.file.InvalidPathException e) {
            throw new HipException(HipError.FILE_NOT_FOUND, "hipModuleLoad: " + file + ": " + e.getMessage());
          }
          return load(a, 0, file, ByteBuffer.wrap(bytes));
        };
      case "hipModuleLoadData":
        return a -> loadFromMemory(a);
      case "hipModuleLoadDataEx":
        return a -> loadFromMemory(a);
      case "hipModuleLoadFatBinary":
        return a -> loadFromMemory(a);
      case "hipModuleUnload":
        return a -> {
          gpu.removeModule(a.pointer(0));
          return HipError.SUCCESS;
        };
      case "hipModuleGetFunction":
        return a -> {
          long out = a.pointer(0);
          String name = a.string(2);
          if (out == 0 || name == null) return HipError.INVALID_VALUE;
          CodeModule module = gpu.module(a.pointer(1));
          GpuRuntime.Function f = new GpuRuntime.Function(module, name);
          try {
            module.kernel(gpu.machine(), name);
          } catch (HipException e) {
            throw new HipException(HipError.NOT_FOUND, e.getMessage());
          }
          a.memory().writeLong(out, gpu.functionHandle(f));
          return HipError.SUCCESS;
        };
      case "hipModuleGetGlobal":
        return a -> {
          String name = a.string(3);
          if (name == null) return HipError.INVALID_VALUE;
          CodeModule module = gpu.module(a.pointer(2));
          ExecutableSymbol.Variable v = module.variable(gpu.machine(), name);
          if (a.pointer(0) != 0) a.memory().writeLong(a.pointer(0), v.address());
          if (a.pointer(1) != 0) a.memory().writeLong(a.pointer(1), v.size());
          return HipError.SUCCESS;
        };
      case "hipModuleGetFunctionCount":
        return a -> {
          if (a.pointer(0) == 0) return HipError.INVALID_VALUE;
          CodeModule module = gpu.module(a.pointer(1));
          long kernels = module.executable(gpu.machine()).symbols().stream()
              .filter(s -> s instanceof ExecutableSymbol.Kernel).count();
          a.memory().writeInt(a.pointer(0), (int) kernels);
          return HipError.SUCCESS;
        };
      default:
        return null;
    }
  }


  /** hipModuleLoadData(module*, image): the image's size comes from its own headers. */
  private HipError loadFromMemory(Args a) throws HipException {
    long image = a.pointer(1);
    if (a.pointer(0) == 0 || image == 0) return HipError.INVALID_VALUE;
    HostMemory host = a.memory();
    long size = CodeModule.imageSize((offset, length) -> host.map(image + offset, length));
    // The program may free the image once the call returns: keep a copy.
    byte[] copy = new byte[(int) size];
    host.read(image, copy, 0, copy.length);
    return load(a, 0, String.format("image at 0x%x", image), ByteBuffer.wrap(copy));
  }

  private HipError load(Args a, int out, String origin, ByteBuffer image) throws HipException {
    CodeModule module = new CodeModule(gpu.newHandle(), origin, image);
    module.executable(gpu.machine());
    gpu.addModule(module);
    a.memory().writeLong(a.pointer(out), module.handle());
    return HipError.SUCCESS;
  }

}
