package dev.hipsim.hip.runtime;

import dev.hipsim.hip.api.ApiCall;
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

/**
 * Device, pinned, managed and registered host memory: allocation, copies in every direction (1D and 2D), memset,
 * symbols, pointer attributes. Device pointers are GPU virtual addresses in the simulated machine; host pointers are
 * the program's own, and host memory the GPU may touch (pinned, managed, registered) is mapped for it at the same
 * address, so one pointer serves both sides as on a large-BAR system with unified addressing. Copies complete before
 * the call returns (also the Async forms), which keeps stream order.
 */
final class MemoryApi implements ApiProvider {
  static final int HOST_TO_HOST = 0;
  static final int HOST_TO_DEVICE = 1;
  static final int DEVICE_TO_HOST = 2;
  static final int DEVICE_TO_DEVICE = 3;
  static final int DEFAULT = 4;
  private static final long CHUNK = 1L << 30;
  /** hipMallocPitch's row alignment: the device's texture pitch alignment. */
  static final long PITCH_ALIGNMENT = 256;
  /** hipHostRegisterDefault .. hipHostRegisterReadOnly: the flags hipHostRegister accepts. */
  static final int HOST_REGISTER_FLAGS = 0xf;
  /** hipMemAttachGlobal / Host: hipMallocManaged's flags. */
  static final int MEM_ATTACH_GLOBAL = 1;
  static final int MEM_ATTACH_HOST = 2;

  private final GpuRuntime gpu;
  private final AllocationTable allocations;
  private final HostRegistrations registrations;
  private final StreamTable streams;
  private final RuntimeConfig config;

  MemoryApi(GpuRuntime gpu, AllocationTable allocations, HostRegistrations registrations, StreamTable streams,
      RuntimeConfig config) {
    this.gpu = gpu;
    this.allocations = allocations;
    this.registrations = registrations;
    this.streams = streams;
    this.config = config;
  }

  @Override
  public void register(ApiRegistry api) {
    api.hipErrorFrom("hipMalloc", this);
    api.hipErrorFrom("hipExtMallocWithFlags", this);
    api.hipErrorFrom("hipMallocAsync", this);
    api.hipErrorFrom("hipFree", this);
    api.hipErrorFrom("hipFreeAsync", this);
    api.hipErrorFrom("hipMallocPitch", this);
    api.hipErrorFrom("hipMemAllocPitch", this);
    api.hipErrorFrom("hipMemcpy", this);
    api.hipErrorFrom("hipMemcpyAsync", this);
    api.hipErrorFrom("hipMemcpyWithStream", this);
    api.hipErrorFrom("hipMemcpyHtoD", this);
    api.hipErrorFrom("hipMemcpyDtoH", this);
    api.hipErrorFrom("hipMemcpyDtoD", this);
    api.hipErrorFrom("hipMemcpyHtoDAsync", this);
    api.hipErrorFrom("hipMemcpyDtoHAsync", this);
    api.hipErrorFrom("hipMemcpyDtoDAsync", this);
    api.hipErrorFrom("hipMemcpyPeer", this);
    api.hipErrorFrom("hipMemcpyPeerAsync", this);
    api.hipErrorFrom("hipMemcpy2D", this);
    api.hipErrorFrom("hipMemcpy2DAsync", this);
    api.hipErrorFrom("hipMemset", this);
    api.hipErrorFrom("hipMemsetAsync", this);
    api.hipErrorFrom("hipMemsetD8", this);
    api.hipErrorFrom("hipMemsetD8Async", this);
    api.hipErrorFrom("hipMemsetD16", this);
    api.hipErrorFrom("hipMemsetD16Async", this);
    api.hipErrorFrom("hipMemsetD32", this);
    api.hipErrorFrom("hipMemsetD32Async", this);
    api.hipErrorFrom("hipMemset2D", this);
    api.hipErrorFrom("hipMemset2DAsync", this);
    api.hipErrorFrom("hipHostMalloc", this);
    api.hipErrorFrom("hipHostAlloc", this);
    api.hipErrorFrom("hipMallocHost", this);
    api.hipErrorFrom("hipMemAllocHost", this);
    api.hipErrorFrom("hipHostFree", this);
    api.hipErrorFrom("hipFreeHost", this);
    api.hipErrorFrom("hipMallocManaged", this);
    api.hipErrorFrom("hipMemAdvise", this);
    api.hipErrorFrom("hipMemPrefetchAsync", this);
    api.hipErrorFrom("hipStreamAttachMemAsync", this);
    api.hipErrorFrom("hipHostRegister", this);
    api.hipErrorFrom("hipHostUnregister", this);
    api.hipErrorFrom("hipHostGetDevicePointer", this);
    api.hipErrorFrom("hipHostGetFlags", this);
    api.hipErrorFrom("hipPointerGetAttributes", this);
    api.hipErrorFrom("hipPointerGetAttribute", this);
    api.hipErrorFrom("hipDrvPointerGetAttributes", this);
    api.hipErrorFrom("hipMemGetAddressRange", this);
    api.hipErrorFrom("hipMemPtrGetInfo", this);
    api.hipErrorFrom("hipMemGetInfo", this);
    api.hipErrorFrom("hipMemcpyToSymbol", this);
    api.hipErrorFrom("hipMemcpyToSymbolAsync", this);
    api.hipErrorFrom("hipMemcpyFromSymbol", this);
    api.hipErrorFrom("hipMemcpyFromSymbolAsync", this);
    api.hipErrorFrom("hipGetSymbolAddress", this);
    api.hipErrorFrom("hipGetSymbolSize", this);
  }

  @Override
  public ApiCall.ReturningError errorFunction(String symbol) {
    switch (symbol) {
      case "hipMalloc":
        return a -> deviceMalloc(a, a.i64(1), 0);
      case "hipExtMallocWithFlags":
        return a -> deviceMalloc(a, a.i64(1), a.i32(2));
      case "hipMallocAsync":
        return a -> {
          streams.check(a.pointer(2));
          return deviceMalloc(a, a.i64(1), 0);
        };
      case "hipFree":
        return a -> {
          free(a.memory(), a.pointer(0));
          return HipError.SUCCESS;
        };
      case "hipFreeAsync":
        return a -> {
          streams.check(a.pointer(1));
          free(a.memory(), a.pointer(0));
          return HipError.SUCCESS;
        };
      case "hipMallocPitch":
        return a -> pitched(a, a.i64(2), a.i64(3));
      case "hipMemAllocPitch":
        return a -> pitched(a, a.i64(2), a.i64(3));
      case "hipMemcpy":
        return a -> copied(a, 0, 1, 2, a.i32(3), -1);
      case "hipMemcpyAsync":
        return a -> copied(a, 0, 1, 2, a.i32(3), 4);
      case "hipMemcpyWithStream":
        return a -> copied(a, 0, 1, 2, a.i32(3), 4);
      case "hipMemcpyHtoD":
        return a -> copied(a, 0, 1, 2, HOST_TO_DEVICE, -1);
      case "hipMemcpyDtoH":
        return a -> copied(a, 0, 1, 2, DEVICE_TO_HOST, -1);
      case "hipMemcpyDtoD":
        return a -> copied(a, 0, 1, 2, DEVICE_TO_DEVICE, -1);
      case "hipMemcpyHtoDAsync":
        return a -> copied(a, 0, 1, 2, HOST_TO_DEVICE, 3);
      case "hipMemcpyDtoHAsync":
        return a -> copied(a, 0, 1, 2, DEVICE_TO_HOST, 3);
      case "hipMemcpyDtoDAsync":
        return a -> copied(a, 0, 1, 2, DEVICE_TO_DEVICE, 3);
      case "hipMemcpyPeer":
        // hipMemcpyPeer(dst, dstDevice, src, srcDevice, size[, stream]): one device, so a plain copy.
        return a -> peer(a, -1);
      case "hipMemcpyPeerAsync":
        return a -> peer(a, 5);
      case "hipMemcpy2D":
        return a -> copy2d(a, -1);
      case "hipMemcpy2DAsync":
        return a -> copy2d(a, 7);
      case "hipMemset":
        return a -> memset(a, 1, a.i32(1), -1);
      case "hipMemsetAsync":
        return a -> memset(a, 1, a.i32(1), 3);
      case "hipMemsetD8":
        return a -> memset(a, 1, a.small(1), -1);
      case "hipMemsetD8Async":
        return a -> memset(a, 1, a.small(1), 3);
      case "hipMemsetD16":
        return a -> memset(a, 2, a.small(1), -1);
      case "hipMemsetD16Async":
        return a -> memset(a, 2, a.small(1), 3);
      case "hipMemsetD32":
        return a -> memset(a, 4, a.i32(1), -1);
      case "hipMemsetD32Async":
        return a -> memset(a, 4, a.i32(1), 3);
      case "hipMemset2D":
        return a -> memset2d(a, -1);
      case "hipMemset2DAsync":
        return a -> memset2d(a, 5);
      case "hipHostMalloc":
        return a -> hostMalloc(a, a.i64(1), a.i32(2));
      case "hipHostAlloc":
        return a -> hostMalloc(a, a.i64(1), a.i32(2));
      case "hipMallocHost":
        return a -> hostMalloc(a, a.i64(1), 0);
      case "hipMemAllocHost":
        return a -> hostMalloc(a, a.i64(1), 0);
      case "hipHostFree":
        return a -> {
          hostFree(a.memory(), a.pointer(0), AllocationTable.Kind.HOST);
          return HipError.SUCCESS;
        };
      case "hipFreeHost":
        return a -> {
          hostFree(a.memory(), a.pointer(0), AllocationTable.Kind.HOST);
          return HipError.SUCCESS;
        };
      case "hipMallocManaged":
        return a -> {
          long out = a.pointer(0);
          int flags = a.i32(2);
          if (out == 0 || (flags != MEM_ATTACH_GLOBAL && flags != MEM_ATTACH_HOST)) return HipError.INVALID_VALUE;
          long size = a.i64(1);
          if (size == 0) return HipError.INVALID_VALUE;
          a.memory().writeLong(out, hostBlock(a.memory(), size, AllocationTable.Kind.MANAGED, flags));
          return HipError.SUCCESS;
        };
      case "hipMemAdvise":
        // Managed memory is host memory the GPU maps: advice and prefetches have nothing to move.
        return a -> checkRange(a.pointer(0), a.i64(1));
      case "hipMemPrefetchAsync":
        return a -> {
          streams.check(a.pointer(3));
          return checkRange(a.pointer(0), a.i64(1));
        };
      case "hipStreamAttachMemAsync":
        return a -> {
          streams.check(a.pointer(0));
          return HipError.SUCCESS;
        };
      case "hipHostRegister":
        return this::hostRegister;
      case "hipHostUnregister":
        return a -> {
          long p = a.pointer(0);
          AllocationTable.Block b = allocations.at(p);
          if (b == null || b.kind() != AllocationTable.Kind.REGISTERED) return HipError.HOST_MEMORY_NOT_REGISTERED;
          allocations.remove(p);
          try {
            registrations.unregister(gpu.machine().hsa().memory(), b.base(), b.size());
          } catch (HsaException e) {
            throw new HipException(HipError.INVALID_VALUE, e.getMessage());
          }
          return HipError.SUCCESS;
        };
      case "hipHostGetDevicePointer":
        return a -> {
          long out = a.pointer(0);
          long p = a.pointer(1);
          if (out == 0 || a.i32(2) != 0) return HipError.INVALID_VALUE;
          AllocationTable.Block b = allocations.find(p);
          if (b == null || b.kind() == AllocationTable.Kind.DEVICE) return HipError.INVALID_VALUE;
          a.memory().writeLong(out, p); // mapped at the same address
          return HipError.SUCCESS;
        };
      case "hipHostGetFlags":
        return a -> {
          AllocationTable.Block b = allocations.find(a.pointer(1));
          if (a.pointer(0) == 0 || b == null || b.kind() == AllocationTable.Kind.DEVICE) return HipError.INVALID_VALUE;
          a.memory().writeInt(a.pointer(0), b.flags());
          return HipError.SUCCESS;
        };
      case "hipPointerGetAttributes":
        return this::pointerAttributes;
      case "hipPointerGetAttribute":
        return a -> {
          if (a.pointer(0) == 0) return HipError.INVALID_VALUE;
          return pointerAttribute(a.memory(), a.pointer(0), a.i32(1), a.pointer(2));
        };
      case "hipDrvPointerGetAttributes":
        return a -> {
          int n = a.i32(0);
          long kinds = a.pointer(1);
          long data = a.pointer(2);
          if (n <= 0 || kinds == 0 || data == 0) return HipError.INVALID_VALUE;
          for (int i = 0; i < n; i++) {
            HipError e = pointerAttribute(a.memory(), a.memory().readLong(data + 8L * i),
                a.memory().readInt(kinds + 4L * i), a.pointer(3));
            if (e != HipError.SUCCESS) return e;
          }
          return HipError.SUCCESS;
        };
      case "hipMemGetAddressRange":
        return a -> {
          AllocationTable.Block b = allocations.find(a.pointer(2));
          if (b == null) return HipError.NOT_FOUND;
          if (a.pointer(0) != 0) a.memory().writeLong(a.pointer(0), b.base());
          if (a.pointer(1) != 0) a.memory().writeLong(a.pointer(1), b.size());
          return HipError.SUCCESS;
        };
      case "hipMemPtrGetInfo":
        return a -> {
          AllocationTable.Block b = allocations.find(a.pointer(0));
          if (b == null || a.pointer(1) == 0) return HipError.INVALID_VALUE;
          a.memory().writeLong(a.pointer(1), b.size());
          return HipError.SUCCESS;
        };
      case "hipMemGetInfo":
        return a -> {
          Machine m = gpu.machine();
          long total = m.agent().vramPool().size();
          long used = m.hsa().kfd().devices().get(0).vramUsedBytes();
          if (a.pointer(0) != 0) a.memory().writeLong(a.pointer(0), Math.max(0, total - used));
          if (a.pointer(1) != 0) a.memory().writeLong(a.pointer(1), total);
          return HipError.SUCCESS;
        };
      case "hipMemcpyToSymbol":
        return a -> symbolCopy(a, true, -1);
      case "hipMemcpyToSymbolAsync":
        return a -> symbolCopy(a, true, 5);
      case "hipMemcpyFromSymbol":
        return a -> symbolCopy(a, false, -1);
      case "hipMemcpyFromSymbolAsync":
        return a -> symbolCopy(a, false, 5);
      case "hipGetSymbolAddress":
        return a -> {
          if (a.pointer(0) == 0) return HipError.INVALID_VALUE;
          a.memory().writeLong(a.pointer(0), symbol(a.pointer(1)).address());
          return HipError.SUCCESS;
        };
      case "hipGetSymbolSize":
        return a -> {
          if (a.pointer(0) == 0) return HipError.INVALID_VALUE;
          a.memory().writeLong(a.pointer(0), symbol(a.pointer(1)).size());
          return HipError.SUCCESS;
        };
      default:
        return null;
    }
  }


  // ---------------------------------------------------------------- allocation

  private HipError deviceMalloc(Args a, long size, int flags) throws HipException {
    long out = a.pointer(0);
    if (out == 0) return HipError.INVALID_VALUE;
    if (size == 0) {
      a.memory().writeLong(out, 0);
      return HipError.SUCCESS;
    }
    if (size < 0) return HipError.OUT_OF_MEMORY;
    long address;
    try {
      address = gpu.machine().agent().vramPool().allocate(size);
    } catch (HsaException e) {
      throw new HipException(HipError.OUT_OF_MEMORY, "hipMalloc of " + size + " bytes: " + e.getMessage());
    }
    allocations.add(new AllocationTable.Block(address, size, AllocationTable.Kind.DEVICE, flags));
    a.memory().writeLong(out, address);
    return HipError.SUCCESS;
  }

  /** hipMallocPitch(ptr, pitch, width, height): rows padded to the pitch alignment. */
  private HipError pitched(Args a, long width, long height) throws HipException {
    if (a.pointer(0) == 0 || a.pointer(1) == 0) return HipError.INVALID_VALUE;
    long pitch = (width + PITCH_ALIGNMENT - 1) / PITCH_ALIGNMENT * PITCH_ALIGNMENT;
    HipError e = deviceMalloc(a, pitch * height, 0);
    if (e == HipError.SUCCESS) a.memory().writeLong(a.pointer(1), pitch);
    return e;
  }

  /** hipFree of device memory, or of host memory a HIP allocation gave (CLR frees either). */
  private void free(HostMemory host, long address) throws HipException {
    if (address == 0) return;
    AllocationTable.Block b = allocations.at(address);
    if (b == null) {
      throw new HipException(HipError.INVALID_VALUE, String.format("0x%x was not returned by a HIP allocation",
          address));
    }
    if (b.kind() == AllocationTable.Kind.DEVICE) {
      allocations.remove(address);
      releaseDevice(address);
    } else {
      hostFree(host, address, b.kind());
    }
  }

  private void releaseDevice(long address) throws HipException {
    try {
      gpu.machine().hsa().memory().free(address);
    } catch (HsaException e) {
      throw new HipException(HipError.INVALID_VALUE, e.getMessage());
    }
  }

  private HipError hostMalloc(Args a, long size, int flags) throws HipException {
    long out = a.pointer(0);
    if (out == 0) return HipError.INVALID_VALUE;
    a.memory().writeLong(out, size == 0 ? 0 : hostBlock(a.memory(), size, AllocationTable.Kind.HOST, flags));
    return HipError.SUCCESS;
  }

  /** Page-aligned, zeroed host memory, mapped for the GPU at its own address. */
  long hostBlock(HostMemory host, long size, AllocationTable.Kind kind, int flags) throws HipException {
    long bytes = (size + 4095) & ~4095L;
    long address = host.allocate(bytes, 4096);
    if (address == 0) throw new HipException(HipError.OUT_OF_MEMORY, "no host memory for " + size + " bytes");
    host.fill(address, 0, bytes);
    try {
      Machine m = gpu.machine();
      registrations.register(m.hsa().memory(), m.hsa().cpuAgent().fineGrainedPool(), host, address, bytes);
    } catch (HsaException e) {
      host.free(address);
      throw new HipException(HipError.OUT_OF_MEMORY, "pinning host memory: " + e.getMessage());
    }
    allocations.add(new AllocationTable.Block(address, size, kind, flags));
    return address;
  }

  private void hostFree(HostMemory host, long address, AllocationTable.Kind expected) throws HipException {
    if (address == 0) return;
    AllocationTable.Block b = allocations.at(address);
    if (b == null || b.kind() == AllocationTable.Kind.DEVICE || b.kind() == AllocationTable.Kind.REGISTERED
        || (expected == AllocationTable.Kind.HOST && b.kind() != AllocationTable.Kind.HOST)) {
      throw new HipException(HipError.INVALID_VALUE, String.format("0x%x was not returned by hipHostMalloc",
          address));
    }
    allocations.remove(address);
    try {
      registrations.unregister(gpu.machine().hsa().memory(), address, (b.size() + 4095) & ~4095L);
    } catch (HsaException e) {
      throw new HipException(HipError.INVALID_VALUE, e.getMessage());
    }
    host.free(address);
  }

  /** hipHostRegister(ptr, size, flags): the program's memory, mapped for the GPU where it is. */
  private HipError hostRegister(Args a) throws HipException {
    long p = a.pointer(0);
    long size = a.i64(1);
    int flags = a.i32(2);
    if (p == 0 || size <= 0 || (flags & ~HOST_REGISTER_FLAGS) != 0) return HipError.INVALID_VALUE;
    if (allocations.find(p) != null || allocations.find(p + size - 1) != null) {
      return HipError.HOST_MEMORY_ALREADY_REGISTERED;
    }
    try {
      Machine m = gpu.machine();
      registrations.register(m.hsa().memory(), m.hsa().cpuAgent().fineGrainedPool(), a.memory(), p, size);
    } catch (HsaException e) {
      throw new HipException(HipError.INVALID_VALUE, "hipHostRegister: " + e.getMessage());
    }
    allocations.add(new AllocationTable.Block(p, size, AllocationTable.Kind.REGISTERED, flags));
    return HipError.SUCCESS;
  }

  private HipError checkRange(long p, long count) {
    AllocationTable.Block b = allocations.find(p);
    if (p == 0 || count < 0 || b == null || b.kind() == AllocationTable.Kind.DEVICE && count > 0
        && p + count > b.base() + b.size()) {
      return HipError.INVALID_VALUE;
    }
    return HipError.SUCCESS;
  }

  /** Frees everything the program allocated (hipDeviceReset). */
  void releaseAll(HostMemory host) {
    for (AllocationTable.Block b : allocations.clear()) {
      try {
        MemoryManager memory = gpu.machine().hsa().memory();
        if (b.kind() == AllocationTable.Kind.DEVICE) {
          memory.free(b.base());
        } else {
          registrations.unregister(memory, b.base(), b.kind() == AllocationTable.Kind.REGISTERED ? b.size()
              : (b.size() + 4095) & ~4095L);
          if (b.kind() != AllocationTable.Kind.REGISTERED) host.free(b.base());
        }
      } catch (HsaException | HipException e) {
        // Reset releases what it can; a block that will not go is the simulator's problem, not the program's.
      }
    }
  }

  // ---------------------------------------------------------------- pointer attributes

  /** hipMemoryType in the HIP version the program was built against (ROCm 6 renumbered it). */
  private int memoryType(AllocationTable.Kind kind) {
    boolean rocm6 = config.abiMajor() >= 6;
    switch (kind) {
      case DEVICE: return rocm6 ? 2 : 1;
      case MANAGED: return rocm6 ? 3 : 4;
      default: return rocm6 ? 1 : 0;
    }
  }

  /** hipPointerGetAttributes(hipPointerAttribute_t* {type, device, devicePointer, hostPointer, isManaged, flags}). */
  private HipError pointerAttributes(Args a) throws HipException {
    long out = a.pointer(0);
    long p = a.pointer(1);
    if (out == 0 || p == 0) return HipError.INVALID_VALUE;
    HostMemory m = a.memory();
    AllocationTable.Block b = allocations.find(p);
    m.fill(out, 0, 32);
    if (b == null) {
      // ROCm 6 describes unknown memory as unregistered host memory; ROCm 5 refused it.
      if (config.abiMajor() < 6) return HipError.INVALID_VALUE;
      m.writeInt(out + 4, -2);
      m.writeLong(out + 16, p);
      return HipError.SUCCESS;
    }
    m.writeInt(out, memoryType(b.kind()));
    m.writeInt(out + 4, 0);
    m.writeLong(out + 8, p);
    m.writeLong(out + 16, b.kind() == AllocationTable.Kind.DEVICE ? 0 : p);
    m.writeInt(out + 24, b.kind() == AllocationTable.Kind.MANAGED ? 1 : 0);
    m.writeInt(out + 28, b.flags());
    return HipError.SUCCESS;
  }

  /** One hipPointer_attribute of a pointer into {@code data}. */
  private HipError pointerAttribute(HostMemory m, long data, int attribute, long p) {
    AllocationTable.Block b = allocations.find(p);
    if (b == null) return HipError.INVALID_VALUE;
    switch (attribute) {
      case 2: m.writeInt(data, memoryType(b.kind())); break; // MEMORY_TYPE
      case 3: m.writeLong(data, p); break; // DEVICE_POINTER
      case 4: m.writeLong(data, b.kind() == AllocationTable.Kind.DEVICE ? 0 : p); break; // HOST_POINTER
      case 6: m.writeInt(data, 1); break; // SYNC_MEMOPS: copies are synchronous
      case 7: m.writeLong(data, b.base()); break; // BUFFER_ID
      case 8: m.writeInt(data, b.kind() == AllocationTable.Kind.MANAGED ? 1 : 0); break; // IS_MANAGED
      case 9: m.writeInt(data, 0); break; // DEVICE_ORDINAL
      case 11: m.writeLong(data, b.base()); break; // RANGE_START_ADDR
      case 12: m.writeLong(data, b.size()); break; // RANGE_SIZE
      case 13: m.writeInt(data, 1); break; // MAPPED
      default: return HipError.INVALID_VALUE;
    }
    return HipError.SUCCESS;
  }

  // ---------------------------------------------------------------- copies

  private HipError copied(Args a, int dst, int src, int size, int kind, int stream) throws HipException {
    if (stream >= 0) streams.check(a.pointer(stream));
    copy(a.memory(), a.pointer(dst), a.pointer(src), a.i64(size), kind);
    return HipError.SUCCESS;
  }

  private HipError peer(Args a, int stream) throws HipException {
    if (stream >= 0) streams.check(a.pointer(stream));
    if (a.i32(1) != 0 || a.i32(3) != 0) return HipError.INVALID_DEVICE;
    copy(a.memory(), a.pointer(0), a.pointer(2), a.i64(4), DEVICE_TO_DEVICE);
    return HipError.SUCCESS;
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
    // Host memory the GPU maps is at its own address on both sides: copy it as host memory, with the CPU.
    if (srcDevice && isHostBlock(src)) srcDevice = false;
    if (dstDevice && isHostBlock(dst)) dstDevice = false;
    if (!srcDevice && onDevice(memory, src) && !isHostBlock(src)) srcDevice = true;
    if (!dstDevice && onDevice(memory, dst) && !isHostBlock(dst)) dstDevice = true;
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

  private boolean isHostBlock(long address) {
    AllocationTable.Block b = allocations.find(address);
    return b != null && b.kind() != AllocationTable.Kind.DEVICE;
  }

  /** hipMemcpy2D(dst, dpitch, src, spitch, width, height, kind[, stream]). */
  private HipError copy2d(Args a, int stream) throws HipException {
    if (stream >= 0) streams.check(a.pointer(stream));
    long dst = a.pointer(0);
    long dpitch = a.i64(1);
    long src = a.pointer(2);
    long spitch = a.i64(3);
    long width = a.i64(4);
    long height = a.i64(5);
    if (width > dpitch || width > spitch) return HipError.INVALID_PITCH_VALUE;
    if (dpitch == width && spitch == width) {
      copy(a.memory(), dst, src, width * height, a.i32(6));
    } else {
      for (long row = 0; row < height; row++) {
        copy(a.memory(), dst + row * dpitch, src + row * spitch, width, a.i32(6));
      }
    }
    return HipError.SUCCESS;
  }

  // ---------------------------------------------------------------- memset

  /** hipMemset and the D8/D16/D32 forms: the count is in elements of {@code width} bytes. */
  private HipError memset(Args a, int width, int value, int stream) throws HipException {
    if (stream >= 0) streams.check(a.pointer(stream));
    fill(a.memory(), a.pointer(0), value, width, a.i64(2) * width);
    return HipError.SUCCESS;
  }

  /** hipMemset2D(dst, pitch, value, width, height[, stream]). */
  private HipError memset2d(Args a, int stream) throws HipException {
    if (stream >= 0) streams.check(a.pointer(stream));
    long dst = a.pointer(0);
    long pitch = a.i64(1);
    long width = a.i64(3);
    long height = a.i64(4);
    if (width > pitch) return HipError.INVALID_PITCH_VALUE;
    for (long row = 0; row < height; row++) fill(a.memory(), dst + row * pitch, a.i32(2), 1, width);
    return HipError.SUCCESS;
  }

  /** Fills {@code bytes} bytes with a repeated 1-, 2- or 4-byte value. */
  private void fill(HostMemory host, long dst, int value, int width, long bytes) throws HipException {
    if (bytes == 0) return;
    if (dst == 0) throw new HipException(HipError.INVALID_VALUE, "memset of a null pointer");
    int pattern = width == 1 ? (value & 0xff) * 0x0101_0101 : width == 2 ? (value & 0xffff) * 0x0001_0001 : value;
    if (isHostBlock(dst) || !onDevice(gpu.machine().hsa().memory(), dst)) {
      if (width == 1) {
        host.fill(dst, value, bytes);
      } else {
        byte[] row = new byte[(int) Math.min(bytes, 1 << 16)];
        for (int i = 0; i < row.length; i++) row[i] = (byte) (pattern >>> (8 * (i & 3)));
        for (long done = 0; done < bytes; done += row.length) {
          host.write(dst + done, row, 0, (int) Math.min(row.length, bytes - done));
        }
      }
      return;
    }
    MemoryManager memory = gpu.machine().hsa().memory();
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

  // ---------------------------------------------------------------- symbols

  private ExecutableSymbol.Variable symbol(long hostShadow) throws HipException {
    GpuRuntime.Variable v = gpu.variable(hostShadow);
    return v.module().variable(gpu.machine(), v.name());
  }

  /** hipMemcpyToSymbol(symbol, src, count, offset, kind[, stream]) and FromSymbol(dst, symbol, …). */
  private HipError symbolCopy(Args a, boolean toSymbol, int stream) throws HipException {
    if (stream >= 0) streams.check(a.pointer(stream));
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
