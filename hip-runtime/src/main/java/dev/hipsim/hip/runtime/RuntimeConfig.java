package dev.hipsim.hip.runtime;

import dev.hipsim.hip.device.DeviceModel;
import java.util.Map;

/**
 * How {@code hipsim run} configured this process, from environment variables: {@code HIPSIM_DEVICE} (gfx90a, the
 * default, or gfx942) and {@code HIPSIM_STATS} (any non-empty value: print per-kernel statistics at exit).
 */
public record RuntimeConfig(DeviceModel device, boolean stats) {
  public static final String DEVICE_VARIABLE = "HIPSIM_DEVICE";
  public static final String STATS_VARIABLE = "HIPSIM_STATS";

  public static RuntimeConfig defaults() {
    return new RuntimeConfig(DeviceModel.MI210, false);
  }

  /** @throws IllegalArgumentException naming the variable when a value is not understood */
  public static RuntimeConfig fromEnvironment(Map<String, String> env) {
    String device = env.getOrDefault(DEVICE_VARIABLE, "");
    DeviceModel model;
    try {
      model = device.isBlank() ? DeviceModel.MI210 : DeviceModel.forName(device);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(DEVICE_VARIABLE + ": " + e.getMessage(), e);
    }
    String stats = env.getOrDefault(STATS_VARIABLE, "");
    return new RuntimeConfig(model, !stats.isBlank() && !stats.equals("0"));
  }
}
