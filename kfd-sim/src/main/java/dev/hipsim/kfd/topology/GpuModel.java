package dev.hipsim.kfd.topology;

/**
 * The simulated agents and the figures {@code rocminfo} reports for the real parts (AMD's GPU specification table
 * and rocminfo output posted in ROCm issues): an MI210 (gfx90a, CDNA2) and an MI300X (gfx942, CDNA3, SPX mode).
 */
public enum GpuModel {
  /** AMD Instinct MI210: chip 0x740f, 104 CUs in 8 shader engines, 64 GiB HBM2e, 1700 MHz, L2 8 MiB. */
  GFX90A("gfx90a", "AMD Instinct MI210", 0x740f, 90010, 104, 8, 1700, 64L << 30, "HBM2e", 16, 8192, 0, 1, 2, 3),
  /** AMD Instinct MI300X: chip 0x74a1, 304 CUs in 32 shader engines over 8 XCDs, 192 GiB HBM3, 2100 MHz. */
  GFX942("gfx942", "AMD Instinct MI300X", 0x74a1, 90402, 304, 32, 2100, 192L << 30, "HBM3", 32, 4096, 262144, 8, 2,
      14);

  public static final int SIMDS_PER_CU = 4;
  public static final int WAVE_SIZE = 64;
  public static final int LDS_KIB = 64;
  public static final int MAX_WAVES_PER_SIMD = 8;
  public static final int VENDOR_AMD = 0x1002;

  private final String gfxName;
  private final String marketingName;
  private final int deviceId;
  private final int gfxTargetVersion;
  private final int computeUnits;
  private final int shaderEngines;
  private final int maxClockMhz;
  private final long defaultVramBytes;
  private final String memoryType;
  private final int l1KiB;
  private final int l2KiB;
  private final int l3KiB;
  private final int xccCount;
  private final int sdmaEngines;
  private final int sdmaXgmiEngines;

  GpuModel(String gfxName, String marketingName, int deviceId, int gfxTargetVersion, int computeUnits,
      int shaderEngines, int maxClockMhz, long defaultVramBytes, String memoryType, int l1KiB, int l2KiB, int l3KiB,
      int xccCount, int sdmaEngines, int sdmaXgmiEngines) {
    this.gfxName = gfxName;
    this.marketingName = marketingName;
    this.deviceId = deviceId;
    this.gfxTargetVersion = gfxTargetVersion;
    this.computeUnits = computeUnits;
    this.shaderEngines = shaderEngines;
    this.maxClockMhz = maxClockMhz;
    this.defaultVramBytes = defaultVramBytes;
    this.memoryType = memoryType;
    this.l1KiB = l1KiB;
    this.l2KiB = l2KiB;
    this.l3KiB = l3KiB;
    this.xccCount = xccCount;
    this.sdmaEngines = sdmaEngines;
    this.sdmaXgmiEngines = sdmaXgmiEngines;
  }

  /** The LLVM processor name, as in the code object's target ID. */
  public String gfxName() {
    return gfxName;
  }

  public String marketingName() {
    return marketingName;
  }

  /** PCI device ID, rocminfo's "Chip ID". */
  public int deviceId() {
    return deviceId;
  }

  /** KFD's gfx_target_version: major*10000 + minor*100 + stepping. */
  public int gfxTargetVersion() {
    return gfxTargetVersion;
  }

  public int computeUnits() {
    return computeUnits;
  }

  public int shaderEngines() {
    return shaderEngines;
  }

  public int maxClockMhz() {
    return maxClockMhz;
  }

  public long defaultVramBytes() {
    return defaultVramBytes;
  }

  public String memoryType() {
    return memoryType;
  }

  /** rocminfo "Cache Info": L1 per CU, L2 (per XCD on MI300X) and L3 (Infinity Cache), in KiB. */
  public int l1KiB() {
    return l1KiB;
  }

  public int l2KiB() {
    return l2KiB;
  }

  public int l3KiB() {
    return l3KiB;
  }

  public int xccCount() {
    return xccCount;
  }

  public int sdmaEngines() {
    return sdmaEngines;
  }

  public int sdmaXgmiEngines() {
    return sdmaXgmiEngines;
  }
}
