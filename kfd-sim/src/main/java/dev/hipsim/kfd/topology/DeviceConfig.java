package dev.hipsim.kfd.topology;

/** One simulated GPU: its model and VRAM size (defaults to the model's; any multiple of 2 MiB). */
public record DeviceConfig(GpuModel model, long vramBytes) {
  public DeviceConfig {
    if (model == null) throw new IllegalArgumentException("model is required");
    if (vramBytes < (4L << 20) || vramBytes % (2L << 20) != 0 || vramBytes > (4L << 40)) {
      throw new IllegalArgumentException("VRAM must be a multiple of 2 MiB between 4 MiB and 4 TiB: " + vramBytes);
    }
  }

  public static DeviceConfig of(GpuModel model) {
    return new DeviceConfig(model, model.defaultVramBytes());
  }
}
