package dev.hipsim.bench;

import dev.hipsim.kfd.AllocFlags;
import dev.hipsim.kfd.AllocRequest;
import dev.hipsim.kfd.Kfd;
import dev.hipsim.kfd.KfdDevice;
import dev.hipsim.kfd.KfdProcess;
import dev.hipsim.kfd.mem.FrameStore;
import dev.hipsim.kfd.topology.DeviceConfig;
import dev.hipsim.kfd.topology.GpuModel;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * Host memory of a 64 GiB gfx90a with 1 GiB of VRAM allocated, mapped and written (SDMA fill), measured two ways:
 * the frame store's own accounting and the JVM's heap in use after a full GC. Not a JMH benchmark:
 * {@code java -Xmx3g -cp benches/target/benchmarks.jar dev.hipsim.bench.VramFootprint [GiB]}.
 */
public final class VramFootprint {
  private VramFootprint() {}

  public static void main(String[] args) throws Exception {
    long gib = 1L << 30;
    long touched = (args.length > 0 ? Long.parseLong(args[0]) : 1) * gib;
    long base = heapAfterGc();
    Kfd kfd = Kfd.create(DeviceConfig.of(GpuModel.GFX90A));
    KfdDevice dev = kfd.devices().get(0);
    FrameStore vram = dev.vram();
    report("idle 64 GiB device", vram, heapAfterGc() - base);
    try (KfdProcess p = kfd.open()) {
      p.acquireVm(dev.gpuId());
      long va = 0x40_0000_0000L;
      long h = p.allocMemoryOfGpu(AllocRequest.of(va, touched, dev.gpuId(), AllocFlags.VRAM | AllocFlags.WRITABLE))
          .handle();
      p.mapMemoryToGpu(h, dev.gpuId());
      report("allocated and mapped", vram, heapAfterGc() - base);
      p.sdmaFill(dev.gpuId(), va, 0x12345678, touched, 0);
      report(String.format("%d GiB touched", touched / gib), vram, heapAfterGc() - base);
      p.unmapMemoryFromGpu(h, dev.gpuId());
      p.freeMemoryOfGpu(h);
      report("freed", vram, heapAfterGc() - base);
    }
  }

  private static void report(String what, FrameStore vram, long heap) {
    System.out.printf("%-24s backing %,15d B (accounting)   JVM heap %,15d B%n", what, vram.hostBytes(), heap);
  }

  private static long heapAfterGc() throws InterruptedException {
    MemoryMXBean mx = ManagementFactory.getMemoryMXBean();
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(100);
    }
    return mx.getHeapMemoryUsage().getUsed();
  }
}
