package dev.hipsim.hsa;

import dev.hipsim.hsa.loader.CodeObjectReader;
import dev.hipsim.hsa.loader.Executable;
import dev.hipsim.kfd.Kfd;
import dev.hipsim.kfd.KfdDevice;
import dev.hipsim.kfd.topology.DeviceConfig;
import dev.hipsim.kfd.topology.GpuModel;
import dev.hipsim.testing.Corpus;
import java.util.List;

/** A simulated MI210 (gfx90a) and MI300X (gfx942) with 4 GiB of VRAM each, and an HSA runtime on them. */
public final class TestMachine implements AutoCloseable {
  public static final long VRAM = 4L << 30;

  public final Kfd kfd;
  public final HsaRuntime runtime;
  public final GpuAgent gfx90a;
  public final GpuAgent gfx942;

  public TestMachine(HsaOptions options) throws HsaException {
    this(options, VRAM);
  }

  public TestMachine(HsaOptions options, long vram) throws HsaException {
    kfd = Kfd.create(8L << 30, List.of(new DeviceConfig(GpuModel.GFX90A, vram), new DeviceConfig(GpuModel.GFX942, vram)));
    runtime = HsaRuntime.init(kfd, options);
    gfx90a = runtime.gpuAgents().get(0);
    gfx942 = runtime.gpuAgents().get(1);
  }

  public static TestMachine standard() throws HsaException {
    return new TestMachine(HsaOptions.defaults());
  }

  /** The kfd-sim device behind an agent (to register a packet consumer). */
  public KfdDevice device(GpuAgent agent) {
    return kfd.device(agent.gpuId());
  }

  /** A corpus code object by variant, program and target ID (e.g. {@code gfx90a:xnack-}). */
  public static Corpus.CodeObject codeObject(String variant, String program, String targetId) {
    return Corpus.codeObjects().stream()
        .filter(c -> c.variant().equals(variant) && c.program().equals(program) && c.targetId().equals(targetId))
        .findFirst().orElseThrow(() -> new IllegalArgumentException(variant + "/" + program + " " + targetId));
  }

  /** Loads a corpus code object on {@code agent} in a new frozen executable. */
  public Executable load(Corpus.CodeObject c, GpuAgent agent) throws HsaException {
    Executable e = runtime.createExecutable();
    e.loadAgentCodeObject(CodeObjectReader.fromFile(c.hsaco()), agent);
    e.freeze();
    return e;
  }

  @Override
  public void close() {
    runtime.shutdown();
  }
}
