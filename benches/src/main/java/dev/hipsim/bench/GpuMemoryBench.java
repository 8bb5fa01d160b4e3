package dev.hipsim.bench;

import dev.hipsim.isa.mem.AtomicOp;
import dev.hipsim.isa.mem.FlatMemory;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;
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
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Translated loads, stores and atomics on the TLB-hit path: 1024 accesses per invocation over a 64 KiB VRAM buffer
 * (16 pages, all cached), through kfd-sim's page tables ({@code vm}) or a flat array ({@code flat}, the floor).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class GpuMemoryBench {
  private static final long VA = 0x10_0000_0000L;
  private static final int SIZE = 64 << 10;
  private static final int N = 1024;

  @Param({"vm", "flat"})
  public String memory;

  private KfdProcess process;
  private GpuMemory m;
  private final byte[] chunk = new byte[4096];

  @Setup(Level.Trial)
  public void setUp() throws KfdException, GpuMemoryFault {
    if (memory.equals("flat")) {
      m = new FlatMemory(VA, SIZE);
      return;
    }
    Kfd kfd = Kfd.create(1L << 30, List.of(new DeviceConfig(GpuModel.GFX90A, 64L << 20)));
    int gpu = kfd.devices().get(0).gpuId();
    process = kfd.open();
    process.acquireVm(gpu);
    long h = process.allocMemoryOfGpu(AllocRequest.of(VA, SIZE, gpu, AllocFlags.VRAM | AllocFlags.WRITABLE)).handle();
    process.mapMemoryToGpu(h, gpu);
    m = process.gpuVm(gpu);
    for (long a = VA; a < VA + SIZE; a += 4096) m.store32(a, 0); // warm the TLB
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    if (process != null) process.close();
  }

  private static long at(int i) {
    return VA + ((i * 64L) & (SIZE - 1));
  }

  @Benchmark
  @OperationsPerInvocation(N)
  public int load32() throws GpuMemoryFault {
    int sum = 0;
    for (int i = 0; i < N; i++) sum += m.load32(at(i));
    return sum;
  }

  @Benchmark
  @OperationsPerInvocation(N)
  public long load64() throws GpuMemoryFault {
    long sum = 0;
    for (int i = 0; i < N; i++) sum += m.load64(at(i));
    return sum;
  }

  @Benchmark
  @OperationsPerInvocation(N)
  public void store32() throws GpuMemoryFault {
    for (int i = 0; i < N; i++) m.store32(at(i), i);
  }

  @Benchmark
  @OperationsPerInvocation(N)
  public void store64() throws GpuMemoryFault {
    for (int i = 0; i < N; i++) m.store64(at(i), i);
  }

  @Benchmark
  @OperationsPerInvocation(N)
  public int atomicAdd32() throws GpuMemoryFault {
    int sum = 0;
    for (int i = 0; i < N; i++) sum += m.atomic32(AtomicOp.ADD, at(i), 1, 0);
    return sum;
  }

  /** Bulk copy of one page out of device memory (per 4 KiB). */
  @Benchmark
  public byte[] read4k() throws GpuMemoryFault {
    m.read(VA + 8192, chunk, 0, chunk.length);
    return chunk;
  }
}
