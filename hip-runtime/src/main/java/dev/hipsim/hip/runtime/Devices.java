package dev.hipsim.hip.runtime;

import dev.hipsim.hip.api.HipError;
import dev.hipsim.hip.api.HipException;
import dev.hipsim.hip.device.DeviceModel;
import dev.hipsim.hip.device.DeviceProperties;
import java.util.List;
import java.util.Map;

/** The simulated devices of this process and each host thread's current device ({@code hipSetDevice}). */
public final class Devices {
  private final List<DeviceModel> models;
  private final List<Map<String, Object>> properties;
  private final ThreadLocal<int[]> current = ThreadLocal.withInitial(() -> new int[1]);

  public Devices(List<DeviceModel> models) {
    if (models.isEmpty()) throw new IllegalArgumentException("no devices");
    this.models = List.copyOf(models);
    this.properties = models.stream().map(DeviceProperties::of).toList();
  }

  public int count() {
    return models.size();
  }

  /** @throws HipException hipErrorInvalidDevice for an ordinal out of range */
  public DeviceModel model(int ordinal) throws HipException {
    check(ordinal);
    return models.get(ordinal);
  }

  /** Every {@code hipDeviceProp_t} field of a device, by name. */
  public Map<String, Object> properties(int ordinal) throws HipException {
    check(ordinal);
    return properties.get(ordinal);
  }

  public int current() {
    return current.get()[0];
  }

  public void setCurrent(int ordinal) throws HipException {
    check(ordinal);
    current.get()[0] = ordinal;
  }

  private void check(int ordinal) throws HipException {
    if (ordinal < 0 || ordinal >= models.size()) {
      throw new HipException(HipError.INVALID_DEVICE, "device " + ordinal + " of " + models.size());
    }
  }
}
