package dev.hipsim.kfd;

import dev.hipsim.kfd.topology.DeviceConfig;
import dev.hipsim.kfd.topology.GpuModel;
import dev.hipsim.kfd.vm.GpuVm;
import java.util.List;

/** A small simulated machine for tests: one gfx90a with {@code vramBytes} of VRAM, one process with its VM. */
final class Rig implements AutoCloseable {
  final Kfd kfd;
  final KfdDevice device;
  final KfdProcess process;
  final int gpu;
  final GpuVm vm;

  Rig(long vramBytes) throws KfdException {
    kfd = Kfd.create(1L << 30, List.of(new DeviceConfig(GpuModel.GFX90A, vramBytes)));
    device = kfd.devices().get(0);
    gpu = device.gpuId();
    process = kfd.open();
    process.acquireVm(gpu);
    vm = process.gpuVm(gpu);
  }

  /** Allocates and maps a buffer; returns its handle. */
  long mapped(long va, long size, int flags) throws KfdException {
    long h = process.allocMemoryOfGpu(AllocRequest.of(va, size, gpu, flags)).handle();
    process.mapMemoryToGpu(h, gpu);
    return h;
  }

  @Override
  public void close() {
    process.close();
  }
}
