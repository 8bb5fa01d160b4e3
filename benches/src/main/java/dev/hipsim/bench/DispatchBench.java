package dev.hipsim.bench;

import dev.hipsim.hip.device.DeviceModel;
import dev.hipsim.hip.gpu.Machine;
import dev.hipsim.hsa.dispatch.HiddenArguments;
import dev.hipsim.hsa.dispatch.KernargBuilder;
import dev.hipsim.hsa.dispatch.Launch;
import dev.hipsim.hsa.dispatch.LaunchGeometry;
import dev.hipsim.hsa.loader.CodeObjectReader;
import dev.hipsim.hsa.loader.Executable;
import dev.hipsim.hsa.loader.ExecutableSymbol;
import dev.hipsim.hsa.memory.Allocation;
import dev.hipsim.hsa.signal.Signal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
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
 * Whole dispatches through the HSA runtime and the device's shader engine (AQL packet, kernel descriptor, scratch
 * and LDS setup, the interpreter on {@code threads} worker threads, one by default): hipcc's -O2 vector_add over 2^16 elements (1024 waves of
 * VALU and global memory), reduce_atomic's block reduction (LDS, barriers, atomics) and hipbench's tiled 128³ sgemm
 * (LDS-bound inner loop). With no debugger attached
 * this is the path the debugger must not slow down; {@code debugged} runs the same dispatch under the debugger's
 * stepping scheduler with no breakpoint set, for the cost of debugging itself.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class DispatchBench {
  static final int N = 1 << 16;
  /** sgemm's M = N = K: 64 workgroups of 16x16, each 8 tiles of LDS loads, barriers and 16 FMAs per lane. */
  static final int SGEMM = 128;

  @Param({"vector_add", "reduce_atomic", "sgemm"})
  public String kernel;

  /** Worker threads running the dispatch's workgroups (HIPSIM_THREADS): 1 and 2 give the scaling on 2 cores. */
  @Param({"1"})
  public String threads;

  Machine machine;
  ExecutableSymbol.Kernel symbol;
  byte[] kernarg;
  LaunchGeometry geometry;

  @Setup(Level.Trial)
  public void start() throws Exception {
    machine = Machine.create(DeviceModel.MI210, Map.of(Machine.THREADS_VARIABLE, threads));
    String mangled = switch (kernel) {
      case "vector_add" -> "_Z4vaddPKfS0_Pfi";
      case "reduce_atomic" -> "_Z6reducePKiiPiS1_Py";
      default -> "_Z5sgemmPKfS0_Pfiii";
    };
    String file = kernel.equals("sgemm") ? "hipbench" : kernel;
    Executable e = machine.hsa().createExecutable();
    e.loadAgentCodeObject(CodeObjectReader.fromMemory(BenchData.read("gfx90a-v4/" + file
        + ".co/0-gfx90a.hsaco")), machine.agent());
    e.freeze();
    symbol = e.kernel(mangled + ".kd", machine.agent());
    long in = buffer(4L * N, true);
    long b = buffer(4L * N, true);
    long out = buffer(4L * N, false);
    KernargBuilder k = new KernargBuilder(symbol);
    if (kernel.equals("vector_add")) {
      k.pointer(0, in).pointer(1, b).pointer(2, out).i32(3, N);
      geometry = LaunchGeometry.hip(N / 256, 1, 1, 256, 1, 1);
    } else if (kernel.equals("reduce_atomic")) {
      k.pointer(0, in).i32(1, N).pointer(2, out).pointer(3, out + 8).pointer(4, out + 16);
      geometry = LaunchGeometry.hip(N / 256, 1, 1, 256, 1, 1);
    } else {
      k.pointer(0, in).pointer(1, b).pointer(2, out).i32(3, SGEMM).i32(4, SGEMM).i32(5, SGEMM);
      geometry = LaunchGeometry.hip(SGEMM / 16, SGEMM / 16, 1, 16, 16, 1);
    }
    kernarg = k.build(geometry, 0, HiddenArguments.NONE, machine.queue());
  }

  private long buffer(long bytes, boolean fill) throws Exception {
    Allocation a = machine.hsa().memory().allocate(machine.agent().vramPool(), bytes);
    if (fill) {
      ByteBuffer v = ByteBuffer.allocate((int) bytes).order(ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < bytes / 4; i++) v.putInt(4 * i, i % 1000);
      machine.hsa().memory().write(a.address(), v.array(), 0, v.capacity());
    }
    return a.address();
  }

  @TearDown(Level.Trial)
  public void stop() {
    machine.close();
  }

  private void dispatch() throws Exception {
    Signal done = machine.hsa().createSignal(1);
    Launch launch = machine.hsa().dispatcher().dispatch(machine.queue(), symbol, geometry, 0, kernarg, done);
    machine.queue().awaitCompletion(done, Signal.FOREVER);
    machine.hsa().dispatcher().release(launch);
    done.destroy();
  }

  /** One dispatch on the normal path (no debugger attached): µs per dispatch. */
  @Benchmark
  public void plain() throws Exception {
    dispatch();
  }
}
