package dev.hipsim.bench;

import dev.hipsim.kfd.AllocFlags;
import dev.hipsim.kfd.AllocRequest;
import dev.hipsim.kfd.Kfd;
import dev.hipsim.kfd.KfdException;
import dev.hipsim.kfd.KfdProcess;
import dev.hipsim.kfd.topology.DeviceConfig;
import dev.hipsim.kfd.topology.GpuModel;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The driver's allocation path: ALLOC + MAP + UNMAP + FREE of one buffer on a 64 GiB gfx90a, as hipMalloc/hipFree
 * would drive it. 4 KiB and 64 KiB buffers use 4 KiB PTEs; 4 MiB ones two 2 MiB pages.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class AllocationBench {
  private static final long VA = 0x10_0000_0000L;

  @Param({"4096", "65536", "4194304"})
  public long size;

  private KfdProcess process;
  private int gpu;

  @Setup(Level.Trial)
  public void setUp() throws KfdException {
    Kfd kfd = Kfd.create(DeviceConfig.of(GpuModel.GFX90A));
    gpu = kfd.devices().get(0).gpuId();
    process = kfd.open();
    process.acquireVm(gpu);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    process.close();
  }

  @Benchmark
  public long allocMapUnmapFree() throws KfdException {
    long h = process.allocMemoryOfGpu(AllocRequest.of(VA, size, gpu, AllocFlags.VRAM | AllocFlags.WRITABLE)).handle();
    process.mapMemoryToGpu(h, gpu);
    process.unmapMemoryFromGpu(h, gpu);
    process.freeMemoryOfGpu(h);
    return h;
  }

  @Benchmark
  public long allocFreeGtt() throws KfdException {
    long h = process.allocMemoryOfGpu(AllocRequest.of(VA, size, gpu, AllocFlags.GTT | AllocFlags.WRITABLE)).handle();
    process.freeMemoryOfGpu(h);
    return h;
  }
}
