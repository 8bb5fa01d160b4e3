package dev.hipsim.bench;

import dev.hipsim.hsa.GpuAgent;
import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.HsaRuntime;
import dev.hipsim.hsa.dispatch.HiddenArguments;
import dev.hipsim.hsa.dispatch.KernargBuilder;
import dev.hipsim.hsa.dispatch.Launch;
import dev.hipsim.hsa.dispatch.LaunchGeometry;
import dev.hipsim.hsa.loader.CodeObjectReader;
import dev.hipsim.hsa.loader.Executable;
import dev.hipsim.hsa.loader.ExecutableSymbol;
import dev.hipsim.hsa.memory.MemoryManager;
import dev.hipsim.hsa.queue.HsaQueue;
import dev.hipsim.hsa.signal.Signal;
import dev.hipsim.isa.exec.DispatchStats;
import dev.hipsim.kfd.Kfd;
import dev.hipsim.kfd.shader.ShaderEngine;
import dev.hipsim.kfd.topology.DeviceConfig;
import dev.hipsim.kfd.topology.GpuModel;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The peer-comparison kernels ({@code ../shared/perf/kernels.hip}, built into {@code testdata/gfx90a-v4/hipbench})
 * on the whole device path, as {@code hipsim run} executes them: code object loaded by the HSA loader into VRAM,
 * kernargs from the metadata, an AQL packet, kfd-sim's shader engine with GPU page tables and TLB, the interpreter.
 * Inputs are those of the HIP program; {@link #check} verifies the results as it does.
 */
public final class KernelRig implements AutoCloseable {
  /** The three kernels with the sizes compare.sh uses. */
  public enum Kernel {
    VADD("_Z4vaddPKfS0_Pfi", 4 << 20),
    SGEMM("_Z5sgemmPKfS0_Pfiii", 256),
    REDUCE("_Z6reducePKiPii", 1 << 20);

    final String symbol;
    final int defaultSize;

    Kernel(String symbol, int defaultSize) {
      this.symbol = symbol;
      this.defaultSize = defaultSize;
    }
  }

  private final Kfd kfd;
  private final HsaRuntime hsa;
  private final GpuAgent agent;
  private final ShaderEngine engine;
  private final HsaQueue queue;
  private final Executable executable;
  private final MemoryManager mem;
  private final AtomicReference<DispatchStats> last = new AtomicReference<>();
  private final Kernel kernel;
  private final int size;
  private final long[] buffers = new long[3];
  private final ExecutableSymbol.Kernel symbol;
  private final byte[] kernarg;
  private final LaunchGeometry geometry;

  public KernelRig(Kernel kernel, int size, int threads) throws HsaException {
    this.kernel = kernel;
    this.size = size;
    kfd = Kfd.create(DeviceConfig.of(GpuModel.GFX90A));
    engine = ShaderEngine.attach(kfd.devices().get(0));
    engine.setOptions(engine.options().withThreads(threads));
    engine.setListener((name, packet, stats) -> last.set(stats));
    hsa = HsaRuntime.init(kfd);
    agent = hsa.gpuAgents().get(0);
    queue = hsa.createQueue(agent, 64);
    mem = hsa.memory();
    executable = hsa.createExecutable();
    executable.loadAgentCodeObject(CodeObjectReader.fromMemory(
        BenchData.read("gfx90a-v4/hipbench.co/0-gfx90a.hsaco")), agent);
    executable.freeze();
    symbol = executable.kernel(kernel.symbol, agent);
    KernargBuilder args = new KernargBuilder(symbol);
    switch (kernel) {
      case VADD: {
        for (int i = 0; i < 3; i++) buffers[i] = agent.vramPool().allocate(4L * size);
        ByteBuffer a = buffer(4 * size);
        ByteBuffer b = buffer(4 * size);
        for (int i = 0; i < size; i++) {
          a.putFloat(4 * i, i);
          b.putFloat(4 * i, 2f * i);
        }
        mem.write(buffers[0], a);
        mem.write(buffers[1], b);
        args.pointer(0, buffers[0]).pointer(1, buffers[1]).pointer(2, buffers[2]).i32(3, size);
        geometry = LaunchGeometry.hip((size + 255) / 256, 1, 1, 256, 1, 1);
        break;
      }
      case SGEMM: {
        int n = size * size;
        for (int i = 0; i < 3; i++) buffers[i] = agent.vramPool().allocate(4L * n);
        ByteBuffer a = buffer(4 * n);
        ByteBuffer b = buffer(4 * n);
        for (int i = 0; i < n; i++) {
          a.putFloat(4 * i, (i % 17) - 8);
          b.putFloat(4 * i, (i % 13) - 6);
        }
        mem.write(buffers[0], a);
        mem.write(buffers[1], b);
        args.pointer(0, buffers[0]).pointer(1, buffers[1]).pointer(2, buffers[2]).i32(3, size).i32(4, size)
            .i32(5, size);
        geometry = LaunchGeometry.hip((size + 15) / 16, (size + 15) / 16, 1, 16, 16, 1);
        break;
      }
      default: {
        buffers[0] = agent.vramPool().allocate(4L * size);
        buffers[1] = agent.vramPool().allocate(4);
        ByteBuffer in = buffer(4 * size);
        for (int i = 0; i < size; i++) in.putInt(4 * i, i % 1000);
        mem.write(buffers[0], in);
        args.pointer(0, buffers[0]).pointer(1, buffers[1]).i32(2, size);
        geometry = LaunchGeometry.hip((size + 255) / 256, 1, 1, 256, 1, 1);
      }
    }
    kernarg = args.build(geometry, 0, HiddenArguments.NONE, queue);
  }

  private static ByteBuffer buffer(int bytes) {
    return ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** Runs one dispatch to completion; returns the shader engine's statistics of it. */
  public DispatchStats launch() throws HsaException {
    if (kernel == Kernel.REDUCE) mem.write(buffers[1], buffer(4));
    Signal done = hsa.createSignal(1);
    Launch l = hsa.dispatcher().dispatch(queue, symbol, geometry, 0, kernarg, done);
    queue.awaitCompletion(done, Signal.FOREVER);
    hsa.dispatcher().release(l);
    done.destroy();
    return last.get();
  }

  /** Checks the output of the last launch as the HIP program does; returns the number of wrong elements. */
  public long check() throws HsaException {
    long bad = 0;
    switch (kernel) {
      case VADD: {
        ByteBuffer c = buffer(4 * size);
        mem.read(buffers[2], c);
        for (int i = 0; i < size; i++) if (c.getFloat(4 * i) != 3f * i) bad++;
        return bad;
      }
      case SGEMM: {
        int n = size;
        ByteBuffer a = buffer(4 * n * n);
        ByteBuffer b = buffer(4 * n * n);
        ByteBuffer c = buffer(4 * n * n);
        mem.read(buffers[0], a);
        mem.read(buffers[1], b);
        mem.read(buffers[2], c);
        for (int i = 0; i < n; i += 7) {
          for (int j = 0; j < n; j += 5) {
            float r = 0;
            for (int k = 0; k < n; k++) r += a.getFloat(4 * (i * n + k)) * b.getFloat(4 * (k * n + j));
            if (r != c.getFloat(4 * (i * n + j))) bad++;
          }
        }
        return bad;
      }
      default: {
        long expect = 0;
        for (int i = 0; i < size; i++) expect += i % 1000;
        ByteBuffer out = buffer(4);
        mem.read(buffers[1], out);
        return out.getInt(0) == (int) expect ? 0 : 1;
      }
    }
  }

  @Override
  public void close() {
    hsa.shutdown();
  }

  /**
   * {@code KernelRig vadd|sgemm|reduce [SIZE [RUNS [THREADS]]]}: launches repeatedly and prints each dispatch's time
   * and active MIPS (for profiling with JFR outside JMH).
   */
  public static void main(String[] argv) throws Exception {
    Kernel k = Kernel.valueOf(argv.length > 0 ? argv[0].toUpperCase() : "VADD");
    int size = argv.length > 1 && Integer.parseInt(argv[1]) > 0 ? Integer.parseInt(argv[1]) : k.defaultSize;
    int runs = argv.length > 2 ? Integer.parseInt(argv[2]) : 10;
    int threads = argv.length > 3 ? Integer.parseInt(argv[3]) : Runtime.getRuntime().availableProcessors();
    try (KernelRig rig = new KernelRig(k, size, threads)) {
      com.sun.management.OperatingSystemMXBean os =
          (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
      for (int r = 0; r < runs; r++) {
        long c0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        DispatchStats s = rig.launch();
        long t1 = System.nanoTime();
        long c1 = os.getProcessCpuTime();
        System.out.printf("%s %d run %d: %.4f s, cpu %.4f s (dispatch %.4f s, %d wave-instructions, %.1f MIPS)%n", k,
            size, r, (t1 - t0) / 1e9, (c1 - c0) / 1e9, s.nanos() / 1e9, s.waveInstructions(), s.activeMips());
      }
      System.out.println("wrong elements: " + rig.check());
    }
  }
}
