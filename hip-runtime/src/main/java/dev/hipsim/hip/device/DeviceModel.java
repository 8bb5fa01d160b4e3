package dev.hipsim.hip.device;

import java.util.List;
import java.util.Locale;

/**
 * A simulated GPU as HIP describes it: the values that differ between the devices hipsim models. Everything else in
 * {@code hipDeviceProp_t} is common to CDNA GPUs under CLR and lives in {@link DeviceProperties}.
 *
 * <p>Sources: rocminfo and hipDeviceProp dumps of real boards (ROCm/ROCm issue threads; a device benchmark report
 * for MI210 and MI300X VF), CLR's {@code ihipGetDeviceProperties} for how each field is derived.
 */
public record DeviceModel(
    String target,
    String name,
    String gcnArchName,
    int major,
    int minor,
    int stepping,
    long totalGlobalMem,
    int multiProcessorCount,
    int clockRateKhz,
    int memoryClockRateKhz,
    int memoryBusWidth,
    int l2CacheSize,
    int asicRevision,
    int pciBusId,
    String uuid) {

  /**
   * AMD Instinct MI210 (gfx90a, CDNA2): 104 CUs at 1700 MHz, 64 GiB HBM2e (the 67092480 KiB VRAM pool rocminfo
   * reports), 4096-bit bus at 1600 MHz, 8 MiB L2. PCI bus 0xe3 and the UUID are one real board's (rocminfo).
   */
  public static final DeviceModel MI210 = new DeviceModel("gfx90a", "AMD Instinct MI210", "gfx90a:sramecc+:xnack-",
      9, 0, 10, 68_702_699_520L, 104, 1_700_000, 1_600_000, 4096, 8 * 1024 * 1024, 1, 0xe3, "880b91d040da15d8");

  /**
   * AMD Instinct MI300X (gfx942, CDNA3): 304 CUs at 2100 MHz, 192 GiB HBM3 (201310208 KiB VRAM pool), 8192-bit bus
   * at 1300 MHz, 4 MiB L2 per XCD as HIP reports it. PCI bus 0x9d and the UUID are one real board's (rocminfo).
   */
  public static final DeviceModel MI300X = new DeviceModel("gfx942", "AMD Instinct MI300X", "gfx942:sramecc+:xnack-",
      9, 4, 2, 206_141_652_992L, 304, 2_100_000, 1_300_000, 8192, 4 * 1024 * 1024, 1, 0x9d, "8af705259683161c");

  public static final List<DeviceModel> ALL = List.of(MI210, MI300X);

  /** The model for a target name ({@code gfx90a}, {@code gfx942}); the MI210/MI300X names are accepted too. */
  public static DeviceModel forName(String name) {
    String n = name.trim().toLowerCase(Locale.ROOT);
    for (DeviceModel m : ALL) {
      if (m.target.equals(n) || m.name.toLowerCase(Locale.ROOT).endsWith(" " + n)) return m;
    }
    throw new IllegalArgumentException("unknown device '" + name + "' (expected gfx90a or gfx942)");
  }

  /** CLR's legacy {@code gcnArch}: major * 100 + minor * 10 + stepping (910 for gfx90a, 942 for gfx942). */
  public int gcnArch() {
    return major * 100 + minor * 10 + stepping;
  }
}
