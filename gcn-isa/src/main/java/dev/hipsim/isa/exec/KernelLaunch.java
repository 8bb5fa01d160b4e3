package dev.hipsim.isa.exec;

import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.dispatch.DispatchGeometry;
import dev.hipsim.isa.dispatch.DispatchPacket;
import dev.hipsim.isa.dispatch.KernelDescriptor;

/**
 * Everything fixed for one dispatch that a wave's initial state is built from: the packet and where it lives, the
 * kernel descriptor, the geometry, the scratch the packet processor set aside, and target facts.
 *
 * @param kernelName the kernel's symbol name (for errors and the debugger), or a hex address when unknown
 * @param packetAddress GPU address of the AQL packet (the dispatch pointer user SGPR)
 * @param queueAddress GPU address of the {@code amd_queue_t} (the queue pointer user SGPR)
 * @param dispatchId the packet's index in its queue (the dispatch ID user SGPR)
 * @param scratchBase GPU address of the scratch backing memory for this dispatch (flat scratch init, and the base
 *     of the private segment buffer descriptor)
 * @param scratchPerLane bytes of private memory per work-item, a multiple of 4
 * @param scratchWaveSlots how many waves' worth of scratch ({@code 64 * scratchPerLane} bytes each) the backing holds
 * @param packedWorkItemIds whether work-item IDs are packed into v0 (gfx90a, gfx940+)
 * @param architectedFlatScratch whether the hardware sets FLAT_SCRATCH itself (gfx940+)
 * @param privateApertureBase base of the private (scratch) aperture in the flat address space
 * @param sharedApertureBase base of the LDS aperture in the flat address space
 * @param preloadedKernargs kernel-argument dwords preloaded into user SGPRs (gfx940+), possibly empty
 * @param shared state shared by all workgroups of this dispatch (grid-wide barriers)
 */
public record KernelLaunch(
    String kernelName,
    DispatchPacket packet,
    long packetAddress,
    long queueAddress,
    long dispatchId,
    KernelDescriptor descriptor,
    DispatchGeometry geometry,
    long scratchBase,
    int scratchPerLane,
    int scratchWaveSlots,
    boolean packedWorkItemIds,
    boolean architectedFlatScratch,
    long privateApertureBase,
    long sharedApertureBase,
    int[] preloadedKernargs,
    DispatchShared shared) {

  /** A launch with fresh dispatch-wide state. */
  public KernelLaunch(String kernelName, DispatchPacket packet, long packetAddress, long queueAddress, long dispatchId,
      KernelDescriptor descriptor, DispatchGeometry geometry, long scratchBase, int scratchPerLane,
      int scratchWaveSlots, boolean packedWorkItemIds, boolean architectedFlatScratch, long privateApertureBase,
      long sharedApertureBase, int[] preloadedKernargs) {
    this(kernelName, packet, packetAddress, queueAddress, dispatchId, descriptor, geometry, scratchBase,
        scratchPerLane, scratchWaveSlots, packedWorkItemIds, architectedFlatScratch, privateApertureBase,
        sharedApertureBase, preloadedKernargs, new DispatchShared());
  }

  /** GPU address of the first instruction. */
  public long entryPoint() {
    return packet.kernelObject() + descriptor.kernelCodeEntryByteOffset();
  }

  /** Bytes of LDS per workgroup: the packet's group segment size (static plus dynamic). */
  public int groupSegmentSize() {
    return Math.max(packet.groupSegmentSize(), descriptor.groupSegmentFixedSize());
  }

  /** Vector registers each wave allocates (architectural and accumulation), from the descriptor. */
  public int vgprsPerWave() {
    return Math.min(Wave.MAX_VGPRS, descriptor.nextFreeVgpr(8));
  }

  /** First AGPR of the unified file. */
  public int accumulationOffset() {
    return descriptor.accumOffset();
  }

  /** Scratch bytes one wave uses. */
  public long scratchPerWave() {
    return 64L * scratchPerLane;
  }

  /** Throws when a workgroup needs more LDS than the device's {@code ldsCapacity} bytes. */
  public void checkFitsLds(int ldsCapacity) throws DispatchException {
    if (groupSegmentSize() > ldsCapacity) {
      throw new DispatchException("kernel " + kernelName + " needs " + groupSegmentSize()
          + " bytes of LDS per workgroup; the device has " + ldsCapacity);
    }
  }

  /**
   * How many full workgroups can hold scratch at once in the queue's backing ({@link Long#MAX_VALUE} when the kernel
   * uses none): what bounds residency on every scheduler. Throws when not even one workgroup fits.
   */
  public long workgroupsScratchHolds() throws DispatchException {
    if (scratchPerLane <= 0) return Long.MAX_VALUE;
    int wavesPerGroup = geometry.wavesPerFullWorkgroup();
    long groupsFit = scratchWaveSlots / wavesPerGroup;
    if (groupsFit < 1) {
      throw new DispatchException("kernel " + kernelName + " needs scratch for " + wavesPerGroup + " waves of "
          + scratchPerWave() + " bytes; the queue's scratch backing holds " + scratchWaveSlots + " wave(s)");
    }
    return groupsFit;
  }
}
