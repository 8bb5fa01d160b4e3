package dev.hipsim.kfd.shader;

import dev.hipsim.isa.debug.Debugger;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.dispatch.DispatchGeometry;
import dev.hipsim.isa.dispatch.DispatchPacket;
import dev.hipsim.isa.dispatch.KernelDescriptor;
import dev.hipsim.isa.exec.DispatchOptions;
import dev.hipsim.isa.exec.DispatchRunner;
import dev.hipsim.isa.exec.DispatchStats;
import dev.hipsim.isa.exec.KernelLaunch;
import dev.hipsim.isa.exec.WaveExecutor;
import dev.hipsim.isa.interp.CodeCache;
import dev.hipsim.isa.interp.Interpreter;
import dev.hipsim.isa.interp.Preload;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;
import dev.hipsim.kfd.KfdDevice;
import dev.hipsim.kfd.queue.AqlPacket;
import dev.hipsim.kfd.queue.AqlPacketConsumer;
import dev.hipsim.kfd.queue.PacketExecutionException;
import dev.hipsim.kfd.queue.QueueContext;
import dev.hipsim.kfd.topology.GpuModel;
import dev.hipsim.kfd.vm.GpuVm;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.LongFunction;

/**
 * The device's compute engine: the packet consumer that turns a kernel-dispatch packet into waves on the CDNA
 * interpreter. It reads the kernel descriptor at the packet's kernel object, finds the scratch the runtime set up in
 * the queue's {@code amd_queue_t}, and runs the dispatch on {@link DispatchRunner}; the packet processor then signals
 * completion. A failing dispatch stops the queue with a {@link PacketExecutionException} whose cause is the
 * {@link DispatchException} (wave, PC, instruction).
 */
public final class ShaderEngine implements AqlPacketConsumer {
  /** amd_queue_t offsets of the scratch fields (ROCr's amd_hsa_queue.h). */
  static final int SCRATCH_BACKING_LOCATION = 160;
  static final int SCRATCH_BACKING_SIZE = 168;
  static final int SCRATCH_WAVE64_LANE_SIZE = 176;

  /** Observes each completed dispatch (statistics for `hipsim run --stats`, the debugger). */
  public interface DispatchListener {
    void completed(String kernel, DispatchPacket packet, DispatchStats stats);
  }

  private final KfdDevice device;
  private final Target target;
  private final Map<GpuMemory, Cached> caches = new WeakHashMap<>();
  private volatile DispatchOptions options = DispatchOptions.defaults();
  private volatile LongFunction<String> kernelNames = address -> String.format("kernel@0x%x", address);
  private volatile DispatchListener listener;
  private volatile DispatchRunner running;
  private volatile Debugger debugger;

  private static final class Cached {
    final CodeCache cache;
    long generation;

    Cached(CodeCache cache, long generation) {
      this.cache = cache;
      this.generation = generation;
    }
  }

  public ShaderEngine(KfdDevice device) {
    this.device = device;
    this.target = switch (device.model()) {
      case GFX942 -> Target.GFX942;
      case GFX940 -> Target.GFX940;
      default -> Target.GFX90A;
    };
  }

  /** Creates the engine and registers it as the device's packet consumer. */
  public static ShaderEngine attach(KfdDevice device) {
    ShaderEngine engine = new ShaderEngine(device);
    device.setPacketConsumer(engine);
    // The device is up: ready the decoder's and interpreter's tables while the program prepares its first launch.
    Preload.startInBackground(engine.target);
    return engine;
  }

  public Target target() {
    return target;
  }

  public void setOptions(DispatchOptions options) {
    this.options = options;
  }

  public DispatchOptions options() {
    return options;
  }

  /** How kernel object addresses are named in errors and statistics (the runtime knows the symbols). */
  public void setKernelNames(LongFunction<String> names) {
    this.kernelNames = names;
  }

  public void setListener(DispatchListener listener) {
    this.listener = listener;
  }

  /**
   * How far the dispatch now running is: workgroups completed and in all, or null when none runs (for progress
   * reports from another thread).
   */
  public long[] progress() {
    DispatchRunner r = running;
    return r == null ? null : new long[] {r.completedWorkgroups(), r.totalWorkgroups()};
  }

  /**
   * Runs every dispatch under {@code debugger} from now on (one at a time, deterministically, stoppable), or on the
   * parallel runner again when null. Checked once per dispatch: no cost to the interpreter when none is attached.
   */
  public void setDebugger(Debugger debugger) {
    this.debugger = debugger;
  }

  /** The instruction cache of a process's address space on this device. */
  public synchronized CodeCache codeCache(GpuMemory memory) {
    long generation = memory instanceof GpuVm vm ? vm.unmapGeneration() : 0;
    Cached c = caches.get(memory);
    if (c == null) {
      c = new Cached(new CodeCache(target), generation);
      caches.put(memory, c);
    } else if (c.generation != generation) {
      c.cache.invalidate();
      c.generation = generation;
    }
    return c.cache;
  }

  @Override
  public void execute(AqlPacket packet, QueueContext queue) throws GpuMemoryFault, PacketExecutionException {
    DispatchPacket p = DispatchPacket.parse(java.nio.ByteBuffer.wrap(packet.raw()));
    if (p.type() != DispatchPacket.TYPE_KERNEL_DISPATCH) {
      throw new PacketExecutionException("packet type " + p.type() + " is not supported by the compute engine");
    }
    GpuMemory memory = queue.memory();
    byte[] kdBytes = new byte[KernelDescriptor.SIZE];
    memory.read(p.kernelObject(), kdBytes, 0, kdBytes.length);
    KernelDescriptor kd = KernelDescriptor.parse(kdBytes, 0);
    String name = kernelNames.apply(p.kernelObject());
    try {
      DispatchGeometry geometry = DispatchGeometry.of(p, 64);
      long queueAddress = queue.queueAddress();
      int perLane = (Math.max(p.privateSegmentSize(), kd.privateSegmentFixedSize()) + 3) & ~3;
      long scratchBase = 0;
      int slots = 0;
      if (perLane > 0 || kd.enablePrivateSegment()) {
        scratchBase = memory.load64(queueAddress + SCRATCH_BACKING_LOCATION);
        long bytes = memory.load64(queueAddress + SCRATCH_BACKING_SIZE);
        long laneBytes = memory.load32(queueAddress + SCRATCH_WAVE64_LANE_SIZE) & 0xffff_ffffL;
        if (perLane > 0 && (scratchBase == 0 || laneBytes < perLane)) {
          throw new PacketExecutionException("kernel " + name + " needs " + perLane + " bytes of scratch per lane; "
              + "the queue's scratch backing provides " + laneBytes + " bytes per lane at "
              + String.format("0x%x", scratchBase));
        }
        perLane = (int) Math.max(perLane, laneBytes);
        slots = perLane == 0 ? 0 : (int) Math.min(Integer.MAX_VALUE, bytes / (64L * perLane));
      }
      int[] preload = preloadedKernargs(memory, kd, p);
      KernelLaunch launch = new KernelLaunch(name, p, packet.address(), queueAddress, packet.index(), kd, geometry,
          scratchBase, perLane, slots, true, target.isCdna3(), queue.apertures().scratchBase(),
          queue.apertures().ldsBase(), preload);
      CodeCache code = codeCache(memory);
      int lds = queue.node().ldsSizeInKb() * 1024;
      Debugger d = debugger;
      DispatchStats stats;
      if (d != null) {
        stats = d.runDispatch(launch, code, memory, lds);
      } else {
        DispatchRunner runner = new DispatchRunner(launch, options, new Interpreters(code, memory, launch), lds);
        running = runner;
        try {
          stats = runner.run();
        } finally {
          running = null;
        }
      }
      DispatchListener l = listener;
      if (l != null) l.completed(name, p, stats);
    } catch (DispatchException e) {
      throw new PacketExecutionException(e.getMessage(), e);
    }
  }

  /**
   * An interpreter per worker of a dispatch. A record rather than a lambda: linking the lambda took the first
   * dispatch's packet processor 0.5 ms in a cold process. (A record's own methods would link too; none is called.)
   */
  private record Interpreters(CodeCache code, GpuMemory memory, KernelLaunch launch)
      implements java.util.function.Function<Integer, WaveExecutor> {
    @Override
    public WaveExecutor apply(Integer worker) {
      return new Interpreter(code, memory, launch);
    }
  }

  private static int[] preloadedKernargs(GpuMemory memory, KernelDescriptor kd, DispatchPacket p)
      throws GpuMemoryFault {
    int n = kd.kernargPreloadLength();
    int[] out = new int[n];
    long base = p.kernargAddress() + 4L * kd.kernargPreloadOffset();
    for (int i = 0; i < n; i++) out[i] = memory.load32(base + 4L * i);
    return out;
  }
}
