package dev.hipsim.kfd;

import dev.hipsim.isa.mem.AtomicOp;
import dev.hipsim.kfd.mem.BackingPolicy;
import dev.hipsim.kfd.mem.BuddyAllocator;
import dev.hipsim.kfd.mem.FrameStore;
import dev.hipsim.kfd.mem.PageBacking;
import dev.hipsim.kfd.mem.SystemBus;
import dev.hipsim.kfd.topology.DeviceConfig;
import dev.hipsim.kfd.topology.NodeProperties;
import dev.hipsim.kfd.topology.Topology;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The simulated machine as KFD presents it: system memory, the GPUs (topology nodes 1..n after the CPU node 0) and
 * the processes that opened /dev/kfd. Create one with {@link #create}, then {@link #open()} a process.
 */
public final class Kfd {
  /** Default size of simulated system memory (GTT and registered user memory live beside it). */
  public static final long DEFAULT_SYSTEM_MEMORY = 128L << 30;

  private final SystemBus bus;
  private final BackingPolicy backing;
  private final Map<Integer, KfdDevice> devices = new LinkedHashMap<>();
  private final Topology topology;
  private final Map<KfdDevice, Long> mmioRemap = new HashMap<>();
  private final List<KfdProcess> processes = new ArrayList<>();
  private int nextPasid = 0x8001;

  private Kfd(List<DeviceConfig> configs, long systemMemoryBytes, BackingPolicy backing) {
    if (configs.isEmpty()) throw new IllegalArgumentException("at least one GPU is required");
    if (backing == null) throw new IllegalArgumentException("a backing policy is required");
    this.bus = new SystemBus(systemMemoryBytes);
    this.backing = backing;
    List<NodeProperties> nodes = new ArrayList<>();
    nodes.add(NodeProperties.cpu(Runtime.getRuntime().availableProcessors(), systemMemoryBytes));
    for (int i = 0; i < configs.size(); i++) {
      DeviceConfig c = configs.get(i);
      int gpuId = gpuId(c, i);
      KfdDevice d = new KfdDevice(i + 1, gpuId, i, c);
      devices.put(gpuId, d);
      nodes.add(d.properties());
    }
    this.topology = new Topology(nodes);
  }

  /** A machine whose memory is backed on first touch ({@link BackingPolicy#LAZY}). */
  public static Kfd create(DeviceConfig... devices) {
    return new Kfd(List.of(devices), DEFAULT_SYSTEM_MEMORY, BackingPolicy.LAZY);
  }

  public static Kfd create(long systemMemoryBytes, List<DeviceConfig> devices) {
    return new Kfd(devices, systemMemoryBytes, BackingPolicy.LAZY);
  }

  public static Kfd create(long systemMemoryBytes, List<DeviceConfig> devices, BackingPolicy backing) {
    return new Kfd(devices, systemMemoryBytes, backing);
  }

  public BackingPolicy backingPolicy() {
    return backing;
  }

  /** Backs a new VRAM or GTT buffer's frames now if the policy's budget allows it (else they back on first touch). */
  void backAtAllocation(FrameStore store, BuddyAllocator.Blocks blocks) {
    if (!backing.backsAtAllocation(blocks.totalFrames() * FrameStore.PAGE_HOST_BYTES, backedHostBytes())) return;
    for (int i = 0; i < blocks.size(); i++) store.back(blocks.frame(i), 1 << blocks.order(i));
  }

  /** Host memory held by the simulated memories: system RAM and every device's VRAM. */
  public long backedHostBytes() {
    long bytes = bus.ram().hostBytes();
    for (KfdDevice d : devices.values()) bytes += d.vram().hostBytes();
    return bytes;
  }

  // KFD hashes node properties into a 16-bit gpu_id; any stable non-zero, distinct value serves.
  private int gpuId(DeviceConfig c, int index) {
    int h = (c.model().deviceId() * 0x9e37 + index * 0x7f4b + 0x2c1b) & 0xffff;
    while (h == 0 || devices.containsKey(h)) h = (h + 0x3b5) & 0xffff;
    return h;
  }

  public Topology topology() {
    return topology;
  }

  public SystemBus bus() {
    return bus;
  }

  public List<KfdDevice> devices() {
    return List.copyOf(devices.values());
  }

  /** The GPU with this gpu_id, or {@code null}. */
  public KfdDevice device(int gpuId) {
    return devices.get(gpuId);
  }

  /** Opens /dev/kfd for a new process. */
  public synchronized KfdProcess open() {
    KfdProcess p = new KfdProcess(this, nextPasid++);
    processes.add(p);
    return p;
  }

  synchronized void closed(KfdProcess p) {
    processes.remove(p);
  }

  public synchronized List<KfdProcess> processes() {
    return Collections.unmodifiableList(new ArrayList<>(processes));
  }

  /** The DMA address of the device's MMIO remap page (HDP flush registers: writes accepted, reads zero). */
  synchronized long mmioRemapPage(KfdDevice device) {
    return mmioRemap.computeIfAbsent(device, d -> bus.registerMmio(new HdpFlushPage()));
  }

  /** HDP flush registers: the caches they flush do not exist here, so writes do nothing and reads are zero. */
  private static final class HdpFlushPage implements PageBacking {
    @Override
    public long load(int offset, int size) {
      return 0;
    }

    @Override
    public void store(int offset, long value, int size) {}

    @Override
    public int atomic32(int offset, AtomicOp op, int value, int compare) {
      return 0;
    }

    @Override
    public long atomic64(int offset, AtomicOp op, long value, long compare) {
      return 0;
    }

    @Override
    public void read(int offset, byte[] dst, int dstOffset, int length) {
      java.util.Arrays.fill(dst, dstOffset, dstOffset + length, (byte) 0);
    }

    @Override
    public void write(int offset, byte[] src, int srcOffset, int length) {}
  }
}
