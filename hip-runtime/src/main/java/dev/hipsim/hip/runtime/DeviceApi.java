package dev.hipsim.hip.runtime;

import dev.hipsim.hip.api.ApiCall;
import dev.hipsim.hip.api.ApiProvider;
import dev.hipsim.hip.api.ApiRegistry;
import dev.hipsim.hip.api.Args;
import dev.hipsim.hip.api.HipError;
import dev.hipsim.hip.api.HipException;
import dev.hipsim.hip.api.HostMemory;
import dev.hipsim.hip.device.DeviceAttributes;
import dev.hipsim.hip.device.DeviceModel;
import dev.hipsim.hip.device.DevicePropertiesLayouts;
import dev.hipsim.hip.device.StructLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** Device enumeration, selection and description (hipamd/src/hip_device.cpp, hip_device_runtime.cpp). */
final class DeviceApi implements ApiProvider {
  /** hipLimit_t. */
  static final int LIMIT_STACK_SIZE = 0;
  static final int LIMIT_PRINTF_FIFO_SIZE = 1;
  static final int LIMIT_MALLOC_HEAP_SIZE = 2;

  private final Devices devices;
  private final Runnable reset;
  /** hipDeviceSetLimit values: stack bytes per work-item, printf buffer and malloc heap bytes. */
  private final long[] limits = {1024, 4L << 20, 128L << 20};
  private volatile int deviceFlags;

  /** @param reset what hipDeviceReset releases (the program's memory, streams and events) */
  DeviceApi(Devices devices, Runnable reset) {
    this.devices = devices;
    this.reset = reset;
  }

  @Override
  public void register(ApiRegistry api) {
    api.hipErrorFrom("hipGetDeviceCount", this);
    api.hipErrorFrom("hipGetDevice", this);
    api.hipErrorFrom("hipSetDevice", this);
    api.hipErrorFrom("hipDeviceGet", this);
    api.hipErrorFrom("hipDeviceGetAttribute", this);
    api.hipErrorFrom("hipGetDeviceProperties", this);
    api.hipErrorFrom("hipGetDevicePropertiesR0000", this);
    api.hipErrorFrom("hipGetDevicePropertiesR0600", this);
    api.hipErrorFrom("hipDeviceGetName", this);
    api.hipErrorFrom("hipDeviceTotalMem", this);
    api.hipErrorFrom("hipDeviceComputeCapability", this);
    api.hipErrorFrom("hipDeviceReset", this);
    api.hipErrorFrom("hipDeviceGetLimit", this);
    api.hipErrorFrom("hipDeviceSetLimit", this);
    api.hipErrorFrom("hipDeviceGetPCIBusId", this);
    api.hipErrorFrom("hipDeviceGetByPCIBusId", this);
    api.hipErrorFrom("hipChooseDevice", this);
    api.hipErrorFrom("hipSetDeviceFlags", this);
    api.hipErrorFrom("hipGetDeviceFlags", this);
    api.hipErrorFrom("hipDeviceGetCacheConfig", this);
    api.hipErrorFrom("hipDeviceSetCacheConfig", this);
    api.hipErrorFrom("hipDeviceGetSharedMemConfig", this);
    api.hipErrorFrom("hipDeviceSetSharedMemConfig", this);
    api.hipErrorFrom("hipDeviceCanAccessPeer", this);
    api.hipErrorFrom("hipDeviceEnablePeerAccess", this);
    api.hipErrorFrom("hipDeviceDisablePeerAccess", this);
    api.hipErrorFrom("hipDeviceGetUuid", this);
  }

  @Override
  public ApiCall.ReturningError errorFunction(String symbol) {
    switch (symbol) {
      case "hipGetDeviceCount":
        return a -> writeInt(a, 0, devices.count());
      case "hipGetDevice":
        return a -> writeInt(a, 0, devices.current());
      case "hipSetDevice":
        return a -> {
          devices.setCurrent(a.i32(0));
          return HipError.SUCCESS;
        };
      case "hipDeviceGet":
        return a -> {
          devices.model(a.i32(1));
          return writeInt(a, 0, a.i32(1));
        };
      case "hipDeviceGetAttribute":
        return this::attribute;
      case "hipGetDeviceProperties":
        return a -> properties(a, DevicePropertiesLayouts.R0000);
      case "hipGetDevicePropertiesR0000":
        return a -> properties(a, DevicePropertiesLayouts.R0000);
      case "hipGetDevicePropertiesR0600":
        return a -> properties(a, DevicePropertiesLayouts.R0600);
      case "hipDeviceGetName":
        return this::name;
      case "hipDeviceTotalMem":
        return a -> {
          DeviceModel m = devices.model(a.i32(1));
          if (a.pointer(0) == 0) return HipError.INVALID_VALUE;
          a.memory().writeLong(a.pointer(0), m.totalGlobalMem());
          return HipError.SUCCESS;
        };
      case "hipDeviceComputeCapability":
        return a -> {
          DeviceModel m = devices.model(a.i32(2));
          if (a.pointer(0) == 0 || a.pointer(1) == 0) return HipError.INVALID_VALUE;
          a.memory().writeInt(a.pointer(0), m.major());
          a.memory().writeInt(a.pointer(1), m.minor());
          return HipError.SUCCESS;
        };
      case "hipDeviceReset":
        return a -> {
          reset.run();
          return HipError.SUCCESS;
        };
      case "hipDeviceGetLimit":
        return a -> {
          int limit = a.i32(1);
          if (a.pointer(0) == 0 || limit < 0 || limit >= limits.length) return HipError.UNSUPPORTED_LIMIT;
          a.memory().writeLong(a.pointer(0), limits[limit]);
          return HipError.SUCCESS;
        };
      case "hipDeviceSetLimit":
        return a -> {
          int limit = a.i32(0);
          if (limit < 0 || limit >= limits.length) return HipError.UNSUPPORTED_LIMIT;
          limits[limit] = a.i64(1);
          return HipError.SUCCESS;
        };
      case "hipDeviceGetPCIBusId":
        return a -> {
          DeviceModel m = devices.model(a.i32(2));
          long out = a.pointer(0);
          int len = a.i32(1);
          if (out == 0 || len <= 0) return HipError.INVALID_VALUE;
          byte[] id = String.format("%04x:%02x:%02x.%01x", 0, m.pciBusId(), 0, 0).getBytes(StandardCharsets.US_ASCII);
          int n = Math.min(id.length, len - 1);
          byte[] buf = new byte[n + 1];
          System.arraycopy(id, 0, buf, 0, n);
          a.memory().write(out, buf, 0, buf.length);
          return HipError.SUCCESS;
        };
      case "hipDeviceGetByPCIBusId":
        return a -> {
          String id = a.string(1);
          if (a.pointer(0) == 0 || id == null) return HipError.INVALID_VALUE;
          for (int d = 0; d < devices.count(); d++) {
            DeviceModel m = devices.model(d);
            if (id.trim().equalsIgnoreCase(String.format("%04x:%02x:%02x.%01x", 0, m.pciBusId(), 0, 0))
                || id.trim().equalsIgnoreCase(String.format("%02x:%02x.%01x", m.pciBusId(), 0, 0))) {
              a.memory().writeInt(a.pointer(0), d);
              return HipError.SUCCESS;
            }
          }
          return HipError.INVALID_DEVICE;
        };
      case "hipChooseDevice":
        return a -> writeInt(a, 0, 0);
      case "hipSetDeviceFlags":
        return a -> {
          deviceFlags = a.i32(0);
          return HipError.SUCCESS;
        };
      case "hipGetDeviceFlags":
        return a -> writeInt(a, 0, deviceFlags);
      case "hipDeviceGetCacheConfig":
        // Cache and bank configuration do not exist on CDNA: CLR reports the defaults and accepts any setting.
        return a -> writeInt(a, 0, 0);
      case "hipDeviceSetCacheConfig":
        return a -> HipError.SUCCESS;
      case "hipDeviceGetSharedMemConfig":
        return a -> writeInt(a, 0, 1);
      case "hipDeviceSetSharedMemConfig":
        return a -> HipError.SUCCESS;
      case "hipDeviceCanAccessPeer":
        return a -> {
          devices.model(a.i32(1));
          devices.model(a.i32(2));
          return writeInt(a, 0, 0);
        };
      case "hipDeviceEnablePeerAccess":
        return a -> {
          devices.model(a.i32(0));
          return HipError.INVALID_DEVICE;
        };
      case "hipDeviceDisablePeerAccess":
        return a -> {
          devices.model(a.i32(0));
          return HipError.PEER_ACCESS_NOT_ENABLED;
        };
      case "hipDeviceGetUuid":
        return a -> {
          DeviceModel m = devices.model(a.i32(1));
          if (a.pointer(0) == 0) return HipError.INVALID_VALUE;
          byte[] uuid = m.uuid().getBytes(StandardCharsets.US_ASCII);
          a.memory().write(a.pointer(0), uuid, 0, 16);
          return HipError.SUCCESS;
        };
      default:
        return null;
    }
  }


  private static HipError writeInt(Args a, int param, int value) {
    long p = a.pointer(param);
    if (p == 0) return HipError.INVALID_VALUE;
    a.memory().writeInt(p, value);
    return HipError.SUCCESS;
  }

  private HipError attribute(Args a) throws HipException {
    long out = a.pointer(0);
    if (out == 0) return HipError.INVALID_VALUE;
    var props = devices.properties(a.i32(2));
    DeviceAttributes.Attribute attr = DeviceAttributes.forCode(a.i32(1));
    if (attr == null) return HipError.INVALID_VALUE;
    long value = attr.value().applyAsLong(props);
    if (attr.pointer()) {
      a.memory().writeLong(out, value);
    } else {
      a.memory().writeInt(out, (int) value);
    }
    return HipError.SUCCESS;
  }

  private HipError properties(Args a, StructLayout layout) throws HipException {
    long out = a.pointer(0);
    if (out == 0) return HipError.INVALID_VALUE;
    var props = devices.properties(a.i32(1));
    HostMemory m = a.memory();
    layout.write(m.map(out, layout.size()).order(ByteOrder.LITTLE_ENDIAN), props);
    return HipError.SUCCESS;
  }

  /** Copies the board name, truncated to {@code len - 1} bytes plus NUL like CLR. */
  private HipError name(Args a) throws HipException {
    DeviceModel m = devices.model(a.i32(2));
    long out = a.pointer(0);
    int len = a.i32(1);
    if (out == 0 || len <= 0) return HipError.INVALID_VALUE;
    byte[] name = m.name().getBytes(StandardCharsets.UTF_8);
    int n = Math.min(name.length, len - 1);
    byte[] buf = new byte[n + 1];
    System.arraycopy(name, 0, buf, 0, n);
    a.memory().write(out, buf, 0, buf.length);
    return HipError.SUCCESS;
  }
}
