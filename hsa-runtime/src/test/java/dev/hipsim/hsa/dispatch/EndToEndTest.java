package dev.hipsim.hsa.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.hsa.GpuAgent;
import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.TestMachine;
import dev.hipsim.hsa.loader.Executable;
import dev.hipsim.hsa.loader.ExecutableSymbol;
import dev.hipsim.hsa.memory.MemoryManager;
import dev.hipsim.hsa.queue.HsaQueue;
import dev.hipsim.hsa.signal.Signal;
import dev.hipsim.kfd.shader.ShaderEngine;
import dev.hipsim.testing.Corpus;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Corpus kernels launched through the whole runtime path — code object loaded into VRAM, kernargs laid out from the
 * metadata, AQL packet on a queue, doorbell — and executed by kfd-sim's shader engine on the CDNA interpreter, with
 * the results read back and checked as the hipcc-built programs check them.
 */
class EndToEndTest {
  private static final long TIMEOUT = TimeUnit.SECONDS.toNanos(60);
  private static TestMachine m;

  @BeforeAll
  static void machine() throws Exception {
    m = TestMachine.standard();
    ShaderEngine.attach(m.device(m.gfx90a));
    ShaderEngine.attach(m.device(m.gfx942));
  }

  @AfterAll
  static void shutdown() {
    m.close();
  }

  private static GpuAgent agent(String target) {
    return target.startsWith("gfx942") ? m.gfx942 : m.gfx90a;
  }

  private static ByteBuffer buffer(int bytes) {
    return ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  private static ByteBuffer read(long address, int bytes) throws HsaException {
    ByteBuffer b = buffer(bytes);
    m.runtime.memory().read(address, b);
    return b.flip();
  }

  private static void launch(HsaQueue q, ExecutableSymbol.Kernel k, LaunchGeometry g, byte[] kernarg)
      throws HsaException {
    Signal done = m.runtime.createSignal(1);
    Launch l = m.runtime.dispatcher().dispatch(q, k, g, 0, kernarg, done);
    assertThat(q.awaitCompletion(done, TIMEOUT)).as("%s completes", k.kernelName()).isTrue();
    m.runtime.dispatcher().release(l);
    done.destroy();
  }

  @ParameterizedTest
  @CsvSource({"gfx90a-v4, gfx90a", "gfx90a-v5-xnack, gfx90a:xnack-", "gfx942-v6-ccob3, gfx942"})
  void vectorAdd(String variant, String target) throws Exception {
    GpuAgent agent = agent(target);
    Executable e = m.load(TestMachine.codeObject(variant, "vector_add", target), agent);
    ExecutableSymbol.Kernel k = e.kernel("_Z4vaddPKfS0_Pfi", agent);
    MemoryManager mem = m.runtime.memory();
    int n = 10_000;
    long a = agent.vramPool().allocate(4L * n);
    long b = agent.vramPool().allocate(4L * n);
    long c = agent.vramPool().allocate(4L * n);
    ByteBuffer av = buffer(4 * n);
    ByteBuffer bv = buffer(4 * n);
    for (int i = 0; i < n; i++) {
      av.putFloat(4 * i, 0.5f * i);
      bv.putFloat(4 * i, 1.0f - 0.25f * i);
    }
    mem.write(a, av);
    mem.write(b, bv);
    HsaQueue q = m.runtime.createQueue(agent, 64);
    LaunchGeometry g = LaunchGeometry.hip((n + 255) / 256, 1, 1, 256, 1, 1);
    launch(q, k, g, new KernargBuilder(k).pointer(0, a).pointer(1, b).pointer(2, c).i32(3, n)
        .build(g, 0, HiddenArguments.NONE, q));
    ByteBuffer cv = read(c, 4 * n);
    for (int i = 0; i < n; i++) assertThat(cv.getFloat(4 * i)).as("c[%d]", i).isEqualTo(0.5f * i + (1.0f - 0.25f * i));
    q.destroy();
    e.destroy();
    for (long p : new long[] {a, b, c}) mem.free(p);
  }

  // The gfx942-v6 builds use v_pk_mul_f32, which the interpreter does not implement yet.
  @ParameterizedTest
  @CsvSource({"gfx90a-v4, gfx90a", "gfx90a-v5-xnack, gfx90a:xnack-"})
  void deviceGlobalsCallThroughTheRelocatedFunctionTable(String variant, String target) throws Exception {
    GpuAgent agent = agent(target);
    Corpus.CodeObject co = TestMachine.codeObject(variant, "device_globals", target);
    Executable e = m.load(co, agent);
    MemoryManager mem = m.runtime.memory();
    float[] hc = new float[16];
    ByteBuffer coeffs = buffer(64);
    for (int k = 0; k < 16; k++) coeffs.putFloat(4 * k, hc[k] = 0.25f * k);
    ByteBuffer table = buffer(1024);
    for (int k = 0; k < 256; k++) table.putInt(4 * k, 1000 - k);
    mem.write(e.variable("coeffs", agent).address(), coeffs);
    mem.write(e.variable("table", agent).address(), table);
    mem.write(e.variable("counter", agent).address(), buffer(4));
    assertThat(read(e.variable("scale", agent).address(), 4).getFloat(0)).as("initialised data").isEqualTo(3.0f);
    int n = 5000;
    long out = agent.vramPool().allocate(4L * n);
    ExecutableSymbol.Kernel k = e.kernel("_Z10useGlobalsPfi", agent);
    HsaQueue q = m.runtime.createQueue(agent, 64);
    LaunchGeometry g = LaunchGeometry.hip((n + 255) / 256, 1, 1, 256, 1, 1);
    launch(q, k, g, new KernargBuilder(k).pointer(0, out).i32(1, n).build(g, 0, HiddenArguments.NONE, q));
    ByteBuffer o = read(out, 4 * n);
    for (int i = 0; i < n; i++) {
      float acc = 0;
      for (int j = 0; j < 16; j++) acc += hc[j] * (float) ((i + j) % 5);
      int v = i % 100;
      float want = acc * 3.0f + (float) (1000 - i % 256) + (float) ((i & 1) != 0 ? v * v : 2 * v);
      assertThat(o.getFloat(4 * i)).as("out[%d]", i).isEqualTo(want);
    }
    assertThat(read(e.variable("counter", agent).address(), 4).getInt(0)).isEqualTo(n);
    assertThat(q.scratchBacking()).as("the kernel's private segment got scratch").isPresent();
    q.destroy();
    e.destroy();
    mem.free(out);
  }

  // The gfx90a builds use v_pk_mov_b32, which the interpreter does not implement yet. The gfx90a-v4 one is the
  // case of a dynamic-stack kernel whose fixed private size (16592) passes CLR's 16 KiB packet cap.
  @ParameterizedTest
  @CsvSource({"gfx942-v6-ccob3, gfx942"})
  void scratchArraysAndRecursion(String variant, String target) throws Exception {
    GpuAgent agent = agent(target);
    Executable e = m.load(TestMachine.codeObject(variant, "scratch_recursion", target), agent);
    ExecutableSymbol.Kernel k = e.kernel("_Z8scratchyPKiPiPli", agent);
    MemoryManager mem = m.runtime.memory();
    int n = 1000;
    ByteBuffer idx = buffer(4 * n);
    for (int i = 0; i < n; i++) idx.putInt(4 * i, (i * 13) % 97);
    long didx = agent.vramPool().allocate(4L * n);
    long dout = agent.vramPool().allocate(4L * n);
    long dout2 = agent.vramPool().allocate(8L * n);
    mem.write(didx, idx);
    HsaQueue q = m.runtime.createQueue(agent, 64);
    LaunchGeometry g = LaunchGeometry.hip((n + 63) / 64, 1, 1, 64, 1, 1);
    launch(q, k, g, new KernargBuilder(k).pointer(0, didx).pointer(1, dout).pointer(2, dout2).i32(3, n)
        .build(g, 0, HiddenArguments.NONE, q));
    ByteBuffer out = read(dout, 4 * n);
    ByteBuffer out2 = read(dout2, 8 * n);
    for (int i = 0; i < n; i++) {
      int sum = 0;
      for (int j = 0; j < 10; j++) {
        int x = ((i * 13) % 97 + 7 * j) % 40;
        sum += x * x + i;
      }
      assertThat(out.getInt(4 * i)).as("out[%d]", i).isEqualTo(sum + fib(i % 15));
      assertThat(out2.getLong(8 * i)).as("out2[%d]", i).isEqualTo(ack(i % 20, i));
    }
    q.destroy();
    e.destroy();
  }

  private static int fib(int k) {
    return k < 2 ? k : fib(k - 1) + fib(k - 2);
  }

  private static long ack(int depth, long acc) {
    return depth == 0 ? acc : ack(depth - 1, acc * 3 + depth) ^ depth;
  }
}
