package dev.hipsim.hip.runtime;

import dev.hipsim.hip.device.DeviceModel;
import dev.hipsim.hip.device.ProgramDevices;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * How {@code hipsim run} configured this process, from environment variables: {@code HIPSIM_DEVICE} (gfx90a, gfx940
 * or gfx942; unset or empty: one the program has code for, see {@link ProgramDevices}, else gfx90a) and
 * {@code HIPSIM_STATS} (any non-empty value: print per-kernel statistics at exit).
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

  /**
   * The configuration of the running program: without a device named, the one its own code is for (read from
   * {@code /proc/self/exe} and the libraries next to it), as {@code hipsim run} would choose.
   *
   * @throws IllegalArgumentException naming the variable when a value is not understood
   */
  public static RuntimeConfig fromEnvironment(Map<String, String> env) {
    return fromEnvironment(env, RuntimeConfig::runningProgramDevice);
  }

  /**
   * @param programDevice the device the program's code is for, asked only when no device is named
   * @throws IllegalArgumentException naming the variable when a value is not understood
   */
  public static RuntimeConfig fromEnvironment(Map<String, String> env, Supplier<Optional<DeviceModel>> programDevice) {
    String device = env.getOrDefault(DEVICE_VARIABLE, "");
    DeviceModel model;
    try {
      model = device.isBlank() ? programDevice.get().orElse(DeviceModel.MI210) : DeviceModel.forName(device);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(DEVICE_VARIABLE + ": " + e.getMessage(), e);
    }
    String stats = env.getOrDefault(STATS_VARIABLE, "");
    return new RuntimeConfig(model, !stats.isBlank() && !stats.equals("0"), 5);
  }

  /** The device the running program's code is for, if it names one hipsim simulates. */
  private static Optional<DeviceModel> runningProgramDevice() {
    try {
      return ProgramDevices.choose(Path.of("/proc/self/exe").toRealPath());
    } catch (java.io.IOException | SecurityException e) {
      return Optional.empty(); // not Linux, or not allowed to see: the default device
    }
  }
}
