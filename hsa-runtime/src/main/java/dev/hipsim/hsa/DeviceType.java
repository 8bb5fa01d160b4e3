package dev.hipsim.hsa;

/** {@code hsa_device_type_t}. */
public enum DeviceType {
  CPU,
  GPU
}
