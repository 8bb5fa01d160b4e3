package dev.hipsim.kfd;

import dev.hipsim.kfd.mem.BuddyAllocator;
import dev.hipsim.kfd.mem.FrameStore;
import dev.hipsim.kfd.queue.AqlPacketConsumer;
import dev.hipsim.kfd.sdma.SdmaEngine;
import dev.hipsim.kfd.topology.DeviceConfig;
import dev.hipsim.kfd.topology.GpuModel;
import dev.hipsim.kfd.topology.NodeProperties;

/**
 * One simulated GPU: its VRAM (lazily backed frames and their buddy allocator), its SDMA engine, its topology node,
 * and the packet consumer that executes what its queues receive.
 */
public final class KfdDevice {
  private final NodeProperties properties;
  private final GpuModel model;
  private final FrameStore vram;
  private final BuddyAllocator vramFrames;
  private final SdmaEngine sdma = new SdmaEngine();
  private volatile AqlPacketConsumer consumer;

  KfdDevice(int nodeId, int gpuId, int index, DeviceConfig config) {
    this.model = config.model();
    this.properties = NodeProperties.gpu(nodeId, gpuId, index, config.model(), config.vramBytes());
    this.vram = new FrameStore(config.vramBytes());
    this.vramFrames = new BuddyAllocator(vram.frames());
  }

  public int gpuId() {
    return properties.gpuId();
  }

  public NodeProperties properties() {
    return properties;
  }

  public GpuModel model() {
    return model;
  }

  public FrameStore vram() {
    return vram;
  }

  public BuddyAllocator vramAllocator() {
    return vramFrames;
  }

  public SdmaEngine sdma() {
    return sdma;
  }

  /** VRAM handed out (buffers and page tables), in bytes. */
  public long vramUsedBytes() {
    return (vram.frames() - vramFrames.freeFrames()) * FrameStore.PAGE_SIZE;
  }

  /** Registers what executes the packets of this device's queues (the dispatcher); {@code null} to detach. */
  public void setPacketConsumer(AqlPacketConsumer consumer) {
    this.consumer = consumer;
  }

  public AqlPacketConsumer packetConsumer() {
    return consumer;
  }
}
