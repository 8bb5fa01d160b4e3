package dev.hipsim.hip.runtime;

import dev.hipsim.hip.device.DeviceModel;
import java.util.Map;

/**
 * How {@code hipsim run} configured this process, from environment variables: {@code HIPSIM_DEVICE} (gfx90a, the
 * default, or gfx942) and {@code HIPSIM_STATS} (any non-empty value: print per-kernel statistics at exit).
 */
public record RuntimeConfig(DeviceModel device, boolean stats, int abiMajor) {
  public static final String DEVICE_VARIABLE = "HIPSIM_DEVICE";
  public static final String STATS_VARIABLE = "HIPSIM_STATS";

  /** A configuration for programs built against ROCm 5 (libamdhip64.so.5). */
  public RuntimeConfig(DeviceModel device, boolean stats) {
    this(device, stats, 5);
  }

  public static RuntimeConfig defaults() {
    return new RuntimeConfig(DeviceModel.MI210, false);
  }

  /**
   * The same configuration for a program linked against {@code libamdhip64.so.N} (its path, as the library found
   * itself): N decides the ABI of types whose values ROCm 6 renumbered (hipMemoryType).
   */
  public RuntimeConfig forLibrary(String libraryPath) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\.so\\.(\\d+)$").matcher(
        libraryPath == null ? "" : libraryPath);
    return m.find() ? new RuntimeConfig(device, stats, Integer.parseInt(m.group(1))) : this;
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
    return new RuntimeConfig(model, !stats.isBlank() && !stats.equals("0"), 5);
  }
}
