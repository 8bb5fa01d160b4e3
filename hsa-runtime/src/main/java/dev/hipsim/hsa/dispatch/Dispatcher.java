package dev.hipsim.hsa.dispatch;

import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.HsaOptions;
import dev.hipsim.hsa.HsaStatus;
import dev.hipsim.hsa.loader.ExecutableSymbol;
import dev.hipsim.hsa.memory.MemoryManager;
import dev.hipsim.hsa.queue.HsaQueue;
import dev.hipsim.hsa.queue.PacketType;
import dev.hipsim.hsa.signal.Signal;
import dev.hipsim.isa.dispatch.DispatchPacket;
import java.util.List;

/**
 * Launches kernels the way CLR's VirtualGPU does: copies the kernarg segment into the kernarg pool, fills the
 * dispatch packet (grid and work-group sizes, group segment = static LDS + dynamic LDS, private segment raised to the
 * device stack size for kernels with a dynamic call stack, kernel object, kernarg address, completion signal) and
 * submits it to the queue; and writes barrier-AND packets.
 */
public final class Dispatcher {
  /** CLR aligns kernarg segments to at least this (rockernel.cpp). */
  public static final long KERNARG_ALIGNMENT = 128;

  private final KernargArena kernargs;
  private final MemoryManager memory;
  private final HsaOptions options;

  public Dispatcher(KernargArena kernargs, MemoryManager memory, HsaOptions options) {
    this.kernargs = kernargs;
    this.memory = memory;
    this.options = options;
  }

  /** Sets up the kernarg segments' memory ahead of the first dispatch ({@link KernargArena#reserve}). */
  public void reserveKernargs() throws HsaException {
    kernargs.reserve();
  }

  /**
   * Dispatches {@code kernel} on {@code queue} with {@code kernarg} (the whole segment, e.g. from
   * {@link KernargBuilder#build}); {@code completion} may be null. CLR's default header: barrier bit, system-scope
   * acquire and release.
   */
  public Launch dispatch(HsaQueue queue, ExecutableSymbol.Kernel kernel, LaunchGeometry geometry, int dynamicLdsBytes,
      byte[] kernarg, Signal completion) throws HsaException {
    return dispatch(queue, kernel, geometry, dynamicLdsBytes, kernarg, completion, AqlPackets.defaultDispatchHeader());
  }

  public Launch dispatch(HsaQueue queue, ExecutableSymbol.Kernel kernel, LaunchGeometry geometry, int dynamicLdsBytes,
      byte[] kernarg, Signal completion, int header) throws HsaException {
    if (kernel.agent().gpuId() != queue.agent().gpuId()) {
      throw new HsaException(HsaStatus.INVALID_ARGUMENT, "kernel " + kernel.kernelName() + " was loaded for "
          + kernel.agent() + ", not for the queue's agent " + queue.agent());
    }
    if ((header & 0xff) != PacketType.KERNEL_DISPATCH.ordinal()) {
      throw new HsaException(HsaStatus.INVALID_PACKET_FORMAT, "header 0x" + Integer.toHexString(header)
          + " is not a kernel dispatch header");
    }
    if (kernarg.length != kernel.kernargSegmentSize()) {
      throw new HsaException(HsaStatus.INVALID_ARGUMENT, "kernel " + kernel.kernelName() + " takes a "
          + kernel.kernargSegmentSize() + "-byte kernarg segment, " + kernarg.length + " bytes given");
    }
    geometry.validate();
    long limit = 1024;
    if (kernel.metadata().isPresent() && kernel.metadata().get().maxFlatWorkgroupSize() > 0) {
      limit = kernel.metadata().get().maxFlatWorkgroupSize();
    }
    if (geometry.workgroupSize() > limit) {
      throw new HsaException(HsaStatus.INVALID_ARGUMENT, String.format("kernel %s allows work-groups of at most %d "
          + "work-items; %dx%dx%d = %d requested", kernel.kernelName(), limit, geometry.groupX(), geometry.groupY(),
          geometry.groupZ(), geometry.workgroupSize()));
    }
    if (dynamicLdsBytes < 0) {
      throw new HsaException(HsaStatus.INVALID_ARGUMENT, "dynamic LDS size is negative: " + dynamicLdsBytes);
    }
    long group = kernel.groupSegmentSize() + dynamicLdsBytes;
    if (group > queue.agent().ldsBytes()) {
      throw new HsaException(HsaStatus.INVALID_ARGUMENT, String.format("kernel %s needs %d bytes of LDS (%d static + "
          + "%d dynamic); %s has %d per work-group", kernel.kernelName(), group, kernel.groupSegmentSize(),
          dynamicLdsBytes, queue.agent().name(), queue.agent().ldsBytes()));
    }
    long privateSize = privateSegmentSize(kernel);
    long kernargAddress = kernargs.allocate(kernarg.length, Math.max(KERNARG_ALIGNMENT, kernel.kernargSegmentAlignment()));
    try {
      memory.write(kernargAddress, kernarg, 0, kernarg.length);
      DispatchPacket packet = new DispatchPacket(header, geometry.dimensions(), geometry.groupX(), geometry.groupY(),
          geometry.groupZ(), (int) geometry.gridX(), (int) geometry.gridY(), (int) geometry.gridZ(), (int) privateSize,
          (int) group, kernel.kernelObject(), kernargAddress, completion == null ? 0 : completion.handle());
      long id = queue.dispatch(AqlPackets.kernelDispatch(packet), Math.max(privateSize, kernel.privateSegmentSize()));
      return new Launch(id, packet, kernargAddress);
    } catch (HsaException e) {
      kernargs.release(kernargAddress);
      throw e;
    }
  }

  /**
   * The packet's private segment size: the kernel's, raised to the device stack size (at most 16 KiB) when its
   * call stack is dynamic, as CLR does.
   */
  public long privateSegmentSize(ExecutableSymbol.Kernel kernel) {
    long size = kernel.privateSegmentSize();
    if (kernel.dynamicCallStack()) {
      size = Math.min(Math.max(size, options.stackSizeBytes()), HsaOptions.MAX_STACK_SIZE);
    }
    return size;
  }

  /** Submits a barrier-AND packet waiting on {@code dependencies} (at most 5); returns its dispatch id. */
  public long barrierAnd(HsaQueue queue, List<Signal> dependencies, Signal completion) throws HsaException {
    List<Long> handles = dependencies.stream().map(Signal::handle).toList();
    return queue.submit(AqlPackets.barrierAnd(handles, completion == null ? 0 : completion.handle(), true,
        FenceScope.SYSTEM, FenceScope.SYSTEM));
  }

  /** Gives back a finished launch's kernarg segment. */
  public void release(Launch launch) throws HsaException {
    kernargs.release(launch.kernargAddress());
  }

  public KernargArena kernargs() {
    return kernargs;
  }
}
