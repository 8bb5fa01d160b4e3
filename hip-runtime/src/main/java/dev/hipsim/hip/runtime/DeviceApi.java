package dev.hipsim.hip.runtime;

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
  private final Devices devices;

  DeviceApi(Devices devices) {
    this.devices = devices;
  }

  @Override
  public void register(ApiRegistry api) {
    api.hipError("hipGetDeviceCount", a -> writeInt(a, 0, devices.count()));
    api.hipError("hipGetDevice", a -> writeInt(a, 0, devices.current()));
    api.hipError("hipSetDevice", a -> {
      devices.setCurrent(a.i32(0));
      return HipError.SUCCESS;
    });
    api.hipError("hipDeviceGet", a -> {
      devices.model(a.i32(1));
      return writeInt(a, 0, a.i32(1));
    });
    api.hipError("hipDeviceGetAttribute", this::attribute);
    api.hipError("hipGetDeviceProperties", a -> properties(a, DevicePropertiesLayouts.R0000));
    api.hipError("hipGetDevicePropertiesR0000", a -> properties(a, DevicePropertiesLayouts.R0000));
    api.hipError("hipGetDevicePropertiesR0600", a -> properties(a, DevicePropertiesLayouts.R0600));
    api.hipError("hipDeviceGetName", this::name);
    api.hipError("hipDeviceTotalMem", a -> {
      DeviceModel m = devices.model(a.i32(1));
      if (a.pointer(0) == 0) return HipError.INVALID_VALUE;
      a.memory().writeLong(a.pointer(0), m.totalGlobalMem());
      return HipError.SUCCESS;
    });
    api.hipError("hipDeviceComputeCapability", a -> {
      DeviceModel m = devices.model(a.i32(2));
      if (a.pointer(0) == 0 || a.pointer(1) == 0) return HipError.INVALID_VALUE;
      a.memory().writeInt(a.pointer(0), m.major());
      a.memory().writeInt(a.pointer(1), m.minor());
      return HipError.SUCCESS;
    });
    api.hipError("hipDeviceGetUuid", a -> {
      DeviceModel m = devices.model(a.i32(1));
      if (a.pointer(0) == 0) return HipError.INVALID_VALUE;
      byte[] uuid = m.uuid().getBytes(StandardCharsets.US_ASCII);
      a.memory().write(a.pointer(0), uuid, 0, 16);
      return HipError.SUCCESS;
    });
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
