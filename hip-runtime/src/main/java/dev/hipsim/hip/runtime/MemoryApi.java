package dev.hipsim.hip.runtime;

import dev.hipsim.hip.api.ApiProvider;
import dev.hipsim.hip.api.ApiRegistry;
import dev.hipsim.hip.api.Args;
import dev.hipsim.hip.api.HipError;
import dev.hipsim.hip.api.HipException;
import dev.hipsim.hip.api.HostMemory;
import dev.hipsim.hip.gpu.GpuRuntime;
import dev.hipsim.hip.gpu.Machine;
import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.loader.ExecutableSymbol;
import dev.hipsim.hsa.memory.MemoryManager;
import java.nio.ByteBuffer;

/**
 * Device and pinned host memory: allocation, copies in every direction, memset, symbols. Device pointers are GPU
 * virtual addresses in the simulated machine; host pointers are the program's own. Copies complete before the call
 * returns (also the Async forms), which keeps stream order.
 */
final class MemoryApi implements ApiProvider {
  static final int HOST_TO_HOST = 0;
  static final int HOST_TO_DEVICE = 1;
  static final int DEVICE_TO_HOST = 2;
  static final int DEVICE_TO_DEVICE = 3;
  static final int DEFAULT = 4;
  private static final long CHUNK = 1L << 30;

  private final GpuRuntime gpu;

  MemoryApi(GpuRuntime gpu) {
    this.gpu = gpu;
  }

  @Override
  public void register(ApiRegistry api) {
    api.hipError("hipMalloc", a -> {
      long size = a.i64(1);
      a.memory().writeLong(a.pointer(0), size == 0 ? 0 : allocate(size));
      return HipError.SUCCESS;
    });
    api.hipError("hipFree", a -> {
      free(a.pointer(0));
      return HipError.SUCCESS;
    });
    api.hipError("hipMemcpy", a -> {
      copy(a.memory(), a.pointer(0), a.pointer(1), a.i64(2), a.i32(3));
      return HipError.SUCCESS;
    });
    api.hipError("hipMemcpyAsync", a -> {
      copy(a.memory(), a.pointer(0), a.pointer(1), a.i64(2), a.i32(3));
      return HipError.SUCCESS;
    });
    api.hipError("hipMemcpyHtoD", a -> {
      copy(a.memory(), a.pointer(0), a.pointer(1), a.i64(2), HOST_TO_DEVICE);
      return HipError.SUCCESS;
    });
    api.hipError("hipMemcpyDtoH", a -> {
      copy(a.memory(), a.pointer(0), a.pointer(1), a.i64(2), DEVICE_TO_HOST);
      return HipError.SUCCESS;
    });
    api.hipError("hipMemcpyDtoD", a -> {
      copy(a.memory(), a.pointer(0), a.pointer(1), a.i64(2), DEVICE_TO_DEVICE);
      return HipError.SUCCESS;
    });
    api.hipError("hipMemset", a -> memset(a, 1, a.i32(1)));
    api.hipError("hipMemsetAsync", a -> memset(a, 1, a.i32(1)));
    api.hipError("hipMemsetD8", a -> memset(a, 1, a.small(1)));
    api.hipError("hipMemsetD8Async", a -> memset(a, 1, a.small(1)));
    api.hipError("hipMemsetD16", a -> memset(a, 2, a.small(1)));
    api.hipError("hipMemsetD16Async", a -> memset(a, 2, a.small(1)));
    api.hipError("hipMemsetD32", a -> memset(a, 4, a.i32(1)));
    api.hipError("hipMemsetD32Async", a -> memset(a, 4, a.i32(1)));
    api.hipError("hipHostMalloc", a -> {
      a.memory().writeLong(a.pointer(0), hostAllocate(a.memory(), a.i64(1)));
      return HipError.SUCCESS;
    });
    api.hipError("hipMallocHost", a -> {
      a.memory().writeLong(a.pointer(0), hostAllocate(a.memory(), a.i64(1)));
      return HipError.SUCCESS;
    });
    api.hipError("hipHostFree", a -> {
      hostFree(a.memory(), a.pointer(0));
      return HipError.SUCCESS;
    });
    api.hipError("hipFreeHost", a -> {
      hostFree(a.memory(), a.pointer(0));
      return HipError.SUCCESS;
    });
    api.hipError("hipMemGetInfo", a -> {
      Machine m = gpu.machine();
      long total = m.agent().vramPool().size();
      long used = m.hsa().kfd().devices().get(0).vramUsedBytes();
      if (a.pointer(0) != 0) a.memory().writeLong(a.pointer(0), Math.max(0, total - used));
      if (a.pointer(1) != 0) a.memory().writeLong(a.pointer(1), total);
      return HipError.SUCCESS;
    });
    api.hipError("hipMemcpyToSymbol", a -> symbolCopy(a, true));
    api.hipError("hipMemcpyToSymbolAsync", a -> symbolCopy(a, true));
    api.hipError("hipMemcpyFromSymbol", a -> symbolCopy(a, false));
    api.hipError("hipMemcpyFromSymbolAsync", a -> symbolCopy(a, false));
    api.hipError("hipGetSymbolAddress", a -> {
      a.memory().writeLong(a.pointer(0), symbol(a.pointer(1)).address());
      return HipError.SUCCESS;
    });
    api.hipError("hipGetSymbolSize", a -> {
      a.memory().writeLong(a.pointer(0), symbol(a.pointer(1)).size());
      return HipError.SUCCESS;
    });
  }

  private long allocate(long size) throws HipException {
    Machine m = gpu.machine();
    try {
      return m.agent().vramPool().allocate(size);
    } catch (HsaException e) {
      throw new HipException(HipError.OUT_OF_MEMORY, "hipMalloc of " + size + " bytes: " + e.getMessage());
    }
  }

  private void free(long address) throws HipException {
    if (address == 0) return;
    try {
      gpu.machine().hsa().memory().free(address);
    } catch (HsaException e) {
      throw new HipException(HipError.INVALID_VALUE, e.getMessage());
    }
  }

  private long hostAllocate(HostMemory host, long size) throws HipException {
    if (size == 0) return 0;
    long bytes = (size + 4095) & ~4095L;
    long address = host.allocate(bytes, 4096);
    if (address == 0) throw new HipException(HipError.OUT_OF_MEMORY, "no host memory for " + size + " bytes");
    host.fill(address, 0, bytes);
    try {
      Machine m = gpu.machine();
      m.hsa().memory().registerHostMemory(m.hsa().cpuAgent().fineGrainedPool(), address, host.map(address, bytes));
    } catch (HsaException e) {
      host.free(address);
      throw new HipException(HipError.OUT_OF_MEMORY, "pinning host memory: " + e.getMessage());
    }
    return address;
  }

  private void hostFree(HostMemory host, long address) throws HipException {
    if (address == 0) return;
    try {
      gpu.machine().hsa().memory().unregisterHostMemory(address);
    } catch (HsaException e) {
      throw new HipException(HipError.INVALID_VALUE, e.getMessage());
    }
    host.free(address);
  }

  private boolean onDevice(MemoryManager memory, long address) {
    return memory.find(address).isPresent();
  }

  /** Copies {@code size} bytes; the kind says which side each pointer is on (DEFAULT: find out). */
  void copy(HostMemory host, long dst, long src, long size, int kind) throws HipException {
    if (size == 0) return;
    if (size < 0) throw new HipException(HipError.INVALID_VALUE, "negative copy size " + size);
    if (dst == 0 || src == 0) throw new HipException(HipError.INVALID_VALUE, "copy with a null pointer");
    MemoryManager memory = gpu.machine().hsa().memory();
    boolean srcDevice;
    boolean dstDevice;
    switch (kind) {
      case HOST_TO_HOST: srcDevice = false; dstDevice = false; break;
      case HOST_TO_DEVICE: srcDevice = false; dstDevice = true; break;
      case DEVICE_TO_HOST: srcDevice = true; dstDevice = false; break;
      case DEVICE_TO_DEVICE: srcDevice = true; dstDevice = true; break;
      case DEFAULT: srcDevice = onDevice(memory, src); dstDevice = onDevice(memory, dst); break;
      default: throw new HipException(HipError.INVALID_MEMCPY_DIRECTION, "copy kind " + kind);
    }
    // Pinned host memory is mapped for the GPU at its own address: copy it like device memory.
    srcDevice |= onDevice(memory, src);
    dstDevice |= onDevice(memory, dst);
    try {
      for (long done = 0; done < size; done += CHUNK) {
        long n = Math.min(CHUNK, size - done);
        if (srcDevice && dstDevice) {
          memory.copy(dst + done, src + done, n);
        } else if (dstDevice) {
          memory.write(dst + done, host.map(src + done, n));
        } else if (srcDevice) {
          memory.read(src + done, host.map(dst + done, n));
        } else {
          host.copy(dst + done, src + done, n);
        }
      }
    } catch (HsaException e) {
      throw new HipException(HipError.INVALID_VALUE, String.format("copy of %d bytes from 0x%x to 0x%x: %s", size,
          src, dst, e.getMessage()));
    }
  }

  /** hipMemset and the D8/D16/D32 forms: the count is in elements of {@code width} bytes. */
  private HipError memset(Args a, int width, int value) throws HipException {
    fill(a.pointer(0), value, width, a.i64(2) * width);
    return HipError.SUCCESS;
  }

  /** Fills {@code bytes} bytes with a repeated 1-, 2- or 4-byte value. */
  private void fill(long dst, int value, int width, long bytes) throws HipException {
    if (bytes == 0) return;
    MemoryManager memory = gpu.machine().hsa().memory();
    int pattern = width == 1 ? (value & 0xff) * 0x0101_0101 : width == 2 ? (value & 0xffff) * 0x0001_0001 : value;
    try {
      if ((dst & 3) == 0 && (bytes & 3) == 0) {
        memory.fill(dst, pattern, bytes / 4);
        return;
      }
      byte[] chunk = new byte[(int) Math.min(bytes, 1 << 20)];
      for (int i = 0; i < chunk.length; i++) chunk[i] = (byte) (pattern >>> (8 * (i & 3)));
      for (long done = 0; done < bytes; done += chunk.length) {
        memory.write(dst + done, chunk, 0, (int) Math.min(chunk.length, bytes - done));
      }
    } catch (HsaException e) {
      throw new HipException(HipError.INVALID_VALUE, String.format("memset of %d bytes at 0x%x: %s", bytes, dst,
          e.getMessage()));
    }
  }

  private ExecutableSymbol.Variable symbol(long hostShadow) throws HipException {
    GpuRuntime.Variable v = gpu.variable(hostShadow);
    return v.module().variable(gpu.machine(), v.name());
  }

  private HipError symbolCopy(Args a, boolean toSymbol) throws HipException {
    long symbolArg = a.pointer(toSymbol ? 0 : 1);
    long other = a.pointer(toSymbol ? 1 : 0);
    long count = a.i64(2);
    long offset = a.i64(3);
    int kind = a.i32(4);
    ExecutableSymbol.Variable v = symbol(symbolArg);
    if (offset < 0 || count < 0 || offset + count > v.size()) {
      throw new HipException(HipError.INVALID_VALUE, "copy of " + count + " bytes at offset " + offset
          + " exceeds the " + v.size() + "-byte symbol " + v.name());
    }
    long device = v.address() + offset;
    if (toSymbol) {
      copy(a.memory(), device, other, count, kind == DEVICE_TO_DEVICE ? DEVICE_TO_DEVICE : HOST_TO_DEVICE);
    } else {
      copy(a.memory(), other, device, count, kind == DEVICE_TO_DEVICE ? DEVICE_TO_DEVICE : DEVICE_TO_HOST);
    }
    return HipError.SUCCESS;
  }
}
