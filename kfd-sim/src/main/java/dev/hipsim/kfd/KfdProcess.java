package dev.hipsim.kfd;

import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;
import dev.hipsim.kfd.event.EventData;
import dev.hipsim.kfd.event.EventTable;
import dev.hipsim.kfd.event.EventType;
import dev.hipsim.kfd.event.SlotStore;
import dev.hipsim.kfd.mem.BuddyAllocator;
import dev.hipsim.kfd.mem.FrameStore;
import dev.hipsim.kfd.mem.PageWords;
import dev.hipsim.kfd.queue.AqlPacketConsumer;
import dev.hipsim.kfd.queue.AqlQueue;
import dev.hipsim.kfd.queue.DoorbellSlice;
import dev.hipsim.kfd.queue.QueueError;
import dev.hipsim.kfd.queue.QueueHost;
import dev.hipsim.kfd.vm.GpuVm;
import dev.hipsim.kfd.vm.PageTables;
import dev.hipsim.kfd.vm.Pte;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.eclipse.collections.impl.map.mutable.primitive.LongObjectHashMap;

/**
 * A process that opened /dev/kfd: the ioctl-shaped driver API. Each method mirrors one {@code AMDKFD_IOC_*} call,
 * validates its arguments as kfd_chardev.c and amdgpu_amdkfd_gpuvm.c do, and fails with a {@link KfdException}
 * carrying the errno the real call returns. Besides the ioctls it offers what user space gets by mmap: the CPU view
 * of its buffers ({@link #hostMemory()}), and what the device side needs: each GPU's address space
 * ({@link #gpuVm}) and queues ({@link #queue}).
 *
 * <p>Thread-safe; the ioctls of one process are serialised, as by the process mutex.
 */
public final class KfdProcess implements AutoCloseable {
  /** KFD_MAX_NUM_OF_QUEUES_PER_PROCESS. */
  public static final int MAX_QUEUES = 1024;
  private static final long PAGE = FrameStore.PAGE_SIZE;
  private static final long QUEUE_STOP_MILLIS = 10_000;

  private final Kfd kfd;
  private final int pasid;
  private final Map<Integer, ProcessDevice> devices = new ConcurrentHashMap<>();
  private final LongObjectHashMap<Allocation> allocations = new LongObjectHashMap<>();
  private final ConcurrentSkipListMap<Long, Allocation> byVa = new ConcurrentSkipListMap<>();
  private final AqlQueue[] queues = new AqlQueue[MAX_QUEUES];
  private final ProcessDevice[] queueDevices = new ProcessDevice[MAX_QUEUES];
  private final EventTable events = new EventTable();
  private final HostView host;
  private int nextId = 1;
  private volatile boolean closed;

  KfdProcess(Kfd kfd, int pasid) {
    this.kfd = kfd;
    this.pasid = pasid;
    this.host = new HostView(byVa, kfd.bus());
  }

  /** The process address space id the driver gave this process. */
  public int pasid() {
    return pasid;
  }

  // ---------------------------------------------------------------- version, topology, VM

  /** AMDKFD_IOC_GET_VERSION. */
  public KfdVersion getVersion() {
    return KfdVersion.CURRENT;
  }

  /** AMDKFD_IOC_GET_PROCESS_APERTURES_NEW: one entry per GPU node. */
  public List<ProcessApertures> getProcessAperturesNew() {
    List<ProcessApertures> out = new ArrayList<>();
    for (KfdDevice d : kfd.devices()) out.add(ProcessApertures.gfx9(d.gpuId()));
    return out;
  }

  /**
   * AMDKFD_IOC_ACQUIRE_VM: binds a GPU VM to this process on {@code gpuId} (page-table root, doorbell pages).
   * Buffers and queues on a GPU need it first. Acquiring again is a no-op, as with the same render node.
   */
  public synchronized void acquireVm(int gpuId) throws KfdException {
    String io = "AMDKFD_IOC_ACQUIRE_VM";
    checkOpen(io);
    KfdDevice device = device(io, gpuId);
    if (devices.containsKey(gpuId)) return;
    GpuVm vm;
    try {
      vm = new GpuVm(device.vram(), device.vramAllocator(), kfd.bus());
    } catch (PageTables.OutOfVramException e) {
      throw new KfdException(Errno.ENOMEM, io, "no VRAM for the page-table root");
    }
    devices.put(gpuId, new ProcessDevice(device, vm));
  }

  // ---------------------------------------------------------------- memory

  /** AMDKFD_IOC_ALLOC_MEMORY_OF_GPU. */
  public synchronized AllocResult allocMemoryOfGpu(AllocRequest r) throws KfdException {
    String io = "AMDKFD_IOC_ALLOC_MEMORY_OF_GPU";
    checkOpen(io);
    if (r.size() == 0) throw new KfdException(Errno.EINVAL, io, "size is 0");
    if (r.size() < 0 || r.size() > Pte.VA_LIMIT) {
      throw new KfdException(Errno.EINVAL, io, "size " + Long.toUnsignedString(r.size()) + " exceeds the VM");
    }
    KfdDevice device = device(io, r.gpuId());
    ProcessDevice pdd = devices.get(r.gpuId());
    if (pdd == null) throw new KfdException(Errno.ENODEV, io, hex("no VM acquired on gpu_id ", r.gpuId()));
    int flags = r.flags();
    Allocation.Kind kind = kindOf(flags);
    if (kind == null) {
      throw new KfdException(Errno.EINVAL, io, "flags " + AllocFlags.describe(flags) + " name no memory type");
    }
    long bytes = (r.size() + PAGE - 1) & ~(PAGE - 1);
    long backing = bytes;
    if ((flags & AllocFlags.AQL_QUEUE_MEM) != 0) {
      if ((bytes / 2) % PAGE != 0) {
        throw new KfdException(Errno.EINVAL, io, "AQL queue memory must be an even number of pages: " + r.size());
      }
      backing = bytes / 2;
    }
    long va = r.vaAddr();
    ProcessApertures ap = ProcessApertures.gfx9(r.gpuId());
    if ((va & (PAGE - 1)) != 0) throw new KfdException(Errno.EINVAL, io, hex("va_addr is not page-aligned: ", va));
    if (!ap.inGpuvm(va, bytes)) {
      throw new KfdException(Errno.EINVAL, io, String.format("[0x%x, +0x%x) is outside the GPUVM aperture [0x%x, 0x%x]",
          va, bytes, ap.gpuvmBase(), ap.gpuvmLimit()));
    }
    Allocation clash = overlapping(va, bytes);
    if (clash != null) throw new KfdException(Errno.EINVAL, io, String.format("[0x%x, +0x%x) overlaps %s", va, bytes, clash));

    BuddyAllocator.Blocks blocks = null;
    long dma = 0;
    long userAddress = 0;
    switch (kind) {
      case VRAM:
        blocks = device.vramAllocator().allocate(backing / PAGE);
        if (blocks == null) {
          throw new KfdException(Errno.ENOMEM, io, String.format("out of VRAM: 0x%x bytes wanted, 0x%x free", backing,
              device.vramAllocator().freeFrames() * PAGE));
        }
        kfd.backAtAllocation(device.vram(), blocks);
        break;
      case GTT:
        blocks = kfd.bus().ramAllocator().allocate(backing / PAGE);
        if (blocks == null) throw new KfdException(Errno.ENOMEM, io, hex("out of system memory for 0x", backing));
        kfd.backAtAllocation(kfd.bus().ram(), blocks);
        break;
      case USERPTR:
        userAddress = r.mmapOffset();
        if (userAddress == 0) throw new KfdException(Errno.EINVAL, io, "USERPTR without a CPU address");
        if ((userAddress & (PAGE - 1)) != 0) {
          throw new KfdException(Errno.EINVAL, io, hex("USERPTR CPU address is not page-aligned: ", userAddress));
        }
        if (r.userBuffer() == null || r.userBuffer().capacity() < r.size()) {
          throw new KfdException(Errno.EFAULT, io, hex("user pages missing at CPU address ", userAddress));
        }
        dma = kfd.bus().registerUser(r.userBuffer(), (int) (backing / PAGE));
        break;
      case DOORBELL:
        if (r.size() != DoorbellSlice.BYTES) {
          throw new KfdException(Errno.EINVAL, io, "doorbell buffer must be the process slice, 8 KiB: " + r.size());
        }
        dma = pdd.doorbellDma;
        break;
      case MMIO:
        if (r.size() != PAGE) throw new KfdException(Errno.EINVAL, io, "MMIO remap buffer must be one page: " + r.size());
        dma = kfd.mmioRemapPage(device);
        break;
      default:
        throw new AssertionError(kind);
    }
    int id = nextId++;
    long handle = ((long) r.gpuId() << 32) | id;
    long mmap;
    if (kind == Allocation.Kind.DOORBELL) mmap = MmapCookies.TYPE_DOORBELL | MmapCookies.gpuId(r.gpuId());
    else if (kind == Allocation.Kind.MMIO) mmap = MmapCookies.TYPE_MMIO | MmapCookies.gpuId(r.gpuId());
    else mmap = (0x1_0000_0000L + id) << FrameStore.PAGE_SHIFT; // a DRM mmap offset, unique per buffer
    Allocation a = new Allocation(handle, device, va, backing, flags, kind, mmap, userAddress, blocks, dma);
    allocations.put(handle, a);
    byVa.put(va, a);
    return new AllocResult(handle, mmap);
  }

  /** AMDKFD_IOC_FREE_MEMORY_OF_GPU: the buffer must be unmapped from every GPU first. */
  public synchronized void freeMemoryOfGpu(long handle) throws KfdException {
    String io = "AMDKFD_IOC_FREE_MEMORY_OF_GPU";
    checkOpen(io);
    Allocation a = allocation(io, handle);
    if (!a.mappedOn.isEmpty()) {
      throw new KfdException(Errno.EBUSY, io, a + " is still mapped on " + a.mappedOn.size() + " GPU(s)");
    }
    release(a);
  }

  private void release(Allocation a) {
    allocations.remove(a.handle);
    byVa.remove(a.va);
    switch (a.kind) {
      case VRAM:
        releaseBlocks(a.blocks, a.owner.vram(), a.owner.vramAllocator());
        break;
      case GTT:
        releaseBlocks(a.blocks, kfd.bus().ram(), kfd.bus().ramAllocator());
        break;
      case USERPTR:
        kfd.bus().unregister(a.dmaBase, (int) (a.backingBytes / PAGE));
        break;
      default:
        break;
    }
  }

  private static void releaseBlocks(BuddyAllocator.Blocks blocks, FrameStore store, BuddyAllocator allocator) {
    // Dropping the backing is what makes freed memory read as zero and gives host memory back.
    for (int i = 0; i < blocks.size(); i++) {
      int first = blocks.frame(i);
      for (int f = 0; f < (1 << blocks.order(i)); f++) store.release(first + f);
    }
    allocator.free(blocks);
  }

  /** AMDKFD_IOC_MAP_MEMORY_TO_GPU: maps the buffer into each GPU's page tables; returns n_success. */
  public synchronized int mapMemoryToGpu(long handle, int... gpuIds) throws KfdException {
    String io = "AMDKFD_IOC_MAP_MEMORY_TO_GPU";
    checkOpen(io);
    if (gpuIds.length == 0) throw new KfdException(Errno.EINVAL, io, "n_devices is 0");
    Allocation a = allocation(io, handle);
    int done = 0;
    for (int gpuId : gpuIds) {
      ProcessDevice pdd = mapTarget(io, gpuId, done);
      if (a.kind == Allocation.Kind.VRAM && pdd.device != a.owner) {
        throw new MapException(Errno.EINVAL, io, String.format("%s belongs to gpu_id 0x%x; gpu_id 0x%x has no peer "
            + "access to it", a, a.owner.gpuId(), gpuId), done);
      }
      if (!a.mappedOn.contains(gpuId)) {
        try {
          map(a, pdd);
        } catch (PageTables.OutOfVramException e) {
          throw new MapException(Errno.ENOMEM, io, "out of VRAM for page tables mapping " + a, done);
        }
        a.mappedOn.add(gpuId);
      }
      done++;
    }
    return done;
  }

  /** AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU: clears the PTEs and flushes the TLB; returns n_success. */
  public synchronized int unmapMemoryFromGpu(long handle, int... gpuIds) throws KfdException {
    String io = "AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU";
    checkOpen(io);
    if (gpuIds.length == 0) throw new KfdException(Errno.EINVAL, io, "n_devices is 0");
    Allocation a = allocation(io, handle);
    int done = 0;
    for (int gpuId : gpuIds) {
      ProcessDevice pdd = mapTarget(io, gpuId, done);
      if (!a.mappedOn.contains(gpuId)) {
        throw new MapException(Errno.EINVAL, io, String.format("%s is not mapped on gpu_id 0x%x", a, gpuId), done);
      }
      pdd.vm.unmap(a.va, a.span);
      a.mappedOn.remove(gpuId);
      done++;
    }
    return done;
  }

  private void map(Allocation a, ProcessDevice pdd) throws PageTables.OutOfVramException {
    long flags = pteFlags(a);
    boolean fragments = a.kind == Allocation.Kind.VRAM;
    try {
      for (long copy = 0; copy < a.span; copy += a.backingBytes) {
        for (int i = 0; i < a.runs(); i++) {
          pdd.vm.map(a.va + copy + a.runOffset(i), a.runAddress(i), a.runBytes(i), flags, fragments);
        }
      }
    } catch (PageTables.OutOfVramException e) {
      pdd.vm.unmap(a.va, a.span);
      throw e;
    }
  }

  /** The PTE flags amdgpu gives a KFD buffer on GFX 9.4.x (get_pte_flags in amdgpu_amdkfd_gpuvm.c). */
  private static long pteFlags(Allocation a) {
    long f = Pte.VALID | Pte.READABLE;
    if ((a.flags & AllocFlags.WRITABLE) != 0) f |= Pte.WRITEABLE;
    if ((a.flags & AllocFlags.EXECUTABLE) != 0) f |= Pte.EXECUTABLE;
    boolean uncached = (a.flags & AllocFlags.UNCACHED) != 0;
    boolean coherent = (a.flags & (AllocFlags.COHERENT | AllocFlags.EXT_COHERENT)) != 0;
    switch (a.kind) {
      case VRAM:
        return f | Pte.mtype(uncached ? Pte.MTYPE_UC : coherent ? Pte.MTYPE_CC : Pte.MTYPE_RW);
      case GTT:
      case USERPTR:
        return f | Pte.SYSTEM | Pte.SNOOPED | Pte.mtype(uncached || coherent ? Pte.MTYPE_UC : Pte.MTYPE_NC);
      default:
        return f | Pte.SYSTEM | Pte.SNOOPED | Pte.mtype(Pte.MTYPE_UC);
    }
  }

  private ProcessDevice mapTarget(String io, int gpuId, int done) throws MapException {
    if (kfd.device(gpuId) == null) throw new MapException(Errno.EINVAL, io, hex("no GPU with gpu_id 0x", gpuId), done);
    ProcessDevice pdd = devices.get(gpuId);
    if (pdd == null) throw new MapException(Errno.ENODEV, io, hex("no VM acquired on gpu_id 0x", gpuId), done);
    return pdd;
  }

  // ---------------------------------------------------------------- queues

  /**
   * AMDKFD_IOC_CREATE_QUEUE: an AQL compute queue whose ring, read pointer and write pointer lie in buffers mapped
   * on the GPU (checked as newer kernels do). Its packet processor starts at once.
   */
  public synchronized CreateQueueResult createQueue(CreateQueueArgs q) throws KfdException {
    String io = "AMDKFD_IOC_CREATE_QUEUE";
    checkOpen(io);
    if (q.queuePercentage() < 0 || q.queuePercentage() > CreateQueueArgs.MAX_PERCENTAGE) {
      throw new KfdException(Errno.EINVAL, io, "queue_percentage must be 0..100: " + q.queuePercentage());
    }
    if (q.queuePriority() < 0 || q.queuePriority() > CreateQueueArgs.MAX_PRIORITY) {
      throw new KfdException(Errno.EINVAL, io, "queue_priority must be 0..15: " + q.queuePriority());
    }
    if (q.ringSize() < 0 || (q.ringSize() != 0 && Long.bitCount(q.ringSize()) != 1)) {
      throw new KfdException(Errno.EINVAL, io, "ring_size must be a power of 2 or 0: " + q.ringSize());
    }
    if (q.queueType() != CreateQueueArgs.TYPE_COMPUTE_AQL) {
      throw new KfdException(Errno.ENOTSUPP, io, "queue_type " + q.queueType() + " is not simulated (only AQL, 2)");
    }
    KfdDevice device = device(io, q.gpuId());
    ProcessDevice pdd = devices.get(q.gpuId());
    if (pdd == null) throw new KfdException(Errno.ESRCH, io, hex("no VM acquired on gpu_id 0x", q.gpuId()));
    if (q.ringSize() < 64) throw new KfdException(Errno.EINVAL, io, "an AQL ring holds at least one packet: " + q.ringSize());
    if ((q.ringBaseAddress() & 63) != 0) {
      throw new KfdException(Errno.EINVAL, io, hex("ring_base_address is not 64-byte aligned: 0x", q.ringBaseAddress()));
    }
    requireMapped(io, q.gpuId(), q.ringBaseAddress(), q.ringSize(), "ring buffer");
    for (long pointer : new long[] {q.readPointerAddress(), q.writePointerAddress()}) {
      if ((pointer & 7) != 0) throw new KfdException(Errno.EINVAL, io, hex("queue pointer is not 8-byte aligned: 0x", pointer));
      requireMapped(io, q.gpuId(), pointer, 8, "queue pointer");
    }
    int qid = -1;
    for (int i = 0; i < MAX_QUEUES; i++) {
      if (queues[i] == null) {
        qid = i;
        break;
      }
    }
    if (qid < 0) throw new KfdException(Errno.ENOMEM, io, "all " + MAX_QUEUES + " queues of the process in use");
    AqlQueue queue = new AqlQueue(qid, device.properties(), pdd.vm, ProcessApertures.gfx9(q.gpuId()),
        new AqlQueue.Properties(q.ringBaseAddress(), q.ringSize(), q.readPointerAddress(), q.writePointerAddress(),
            q.queuePriority(), q.queuePercentage()), pdd);
    int doorbell = pdd.doorbells.allocate(queue);
    if (doorbell < 0) throw new KfdException(Errno.ENOMEM, io, "no free doorbell");
    queues[qid] = queue;
    queueDevices[qid] = pdd;
    queue.start();
    long offset = MmapCookies.TYPE_DOORBELL | MmapCookies.gpuId(q.gpuId())
        | (long) doorbell * DoorbellSlice.DOORBELL_SIZE;
    return new CreateQueueResult(qid, offset);
  }

  /** AMDKFD_IOC_DESTROY_QUEUE: stops the packet processor (after the packet in progress) and frees the doorbell. */
  public synchronized void destroyQueue(int queueId) throws KfdException {
    String io = "AMDKFD_IOC_DESTROY_QUEUE";
    checkOpen(io);
    AqlQueue q = queue(queueId);
    if (q == null) throw new KfdException(Errno.EINVAL, io, "no queue " + queueId);
    stop(queueId);
  }

  private void stop(int queueId) {
    AqlQueue q = queues[queueId];
    try {
      q.stop(QUEUE_STOP_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    queueDevices[queueId].doorbells.release(q.doorbellIndex());
    queues[queueId] = null;
    queueDevices[queueId] = null;
  }

  /** The queue with this id (its doorbell, state and error), or {@code null}. */
  public synchronized AqlQueue queue(int queueId) {
    return queueId >= 0 && queueId < MAX_QUEUES ? queues[queueId] : null;
  }

  /** Rings a queue's doorbell with a packet's dispatch id, as a store to the mapped doorbell does. */
  public void ringDoorbell(int queueId, long value) throws KfdException {
    AqlQueue q = queue(queueId);
    if (q == null) throw new KfdException(Errno.EINVAL, "doorbell", "no queue " + queueId);
    ProcessDevice pdd;
    synchronized (this) {
      pdd = queueDevices[queueId];
    }
    pdd.doorbells.write(q.doorbellIndex(), value);
  }

  // ---------------------------------------------------------------- events

  /**
   * AMDKFD_IOC_CREATE_EVENT. On the first call a process may pass the handle of a GTT buffer as
   * {@code eventPageOffset}: it becomes the event page whose slots signals' mailboxes point to. Without one the
   * driver keeps its own page.
   */
  public synchronized CreateEventResult createEvent(int eventType, boolean autoReset, int nodeId, long eventPageOffset)
      throws KfdException {
    String io = "AMDKFD_IOC_CREATE_EVENT";
    checkOpen(io);
    if (eventPageOffset != 0) {
      Allocation page = allocations.get(eventPageOffset);
      if (page == null || page.kind != Allocation.Kind.GTT) {
        throw new KfdException(Errno.EINVAL, io, hex("event page is not a GTT buffer handle: 0x", eventPageOffset));
      }
      events.setPage(slotStore(page));
    }
    EventType type = EventType.of(eventType);
    EventTable.Created c = events.create(type, autoReset);
    long cookie = type == EventType.SIGNAL || type == EventType.DEBUG_EVENT ? MmapCookies.TYPE_EVENTS : 0;
    return new CreateEventResult(c.eventId(), c.triggerData(), c.slotIndex(), cookie);
  }

  private SlotStore slotStore(Allocation page) {
    int slots = (int) Math.min(EventTable.SIGNAL_EVENT_LIMIT, page.backingBytes / 8);
    long[][] pages = new long[(int) ((slots * 8L + PAGE - 1) / PAGE)][];
    for (int i = 0; i < pages.length; i++) pages[i] = page.page(i * PAGE, true, kfd.bus()).words();
    // Like the driver's kernel mapping of the page: the frames themselves, whatever the process does later.
    return new SlotStore() {
      @Override
      public int slots() {
        return slots;
      }

      @Override
      public long load(int slot) {
        return PageWords.loadVolatile64(pages[slot / 512], (slot % 512) * 8);
      }

      @Override
      public void store(int slot, long value) {
        PageWords.storeVolatile64(pages[slot / 512], (slot % 512) * 8, value);
      }
    };
  }

  public void destroyEvent(int eventId) throws KfdException {
    checkOpen("AMDKFD_IOC_DESTROY_EVENT");
    events.destroy(eventId);
  }

  public void setEvent(int eventId) throws KfdException {
    checkOpen("AMDKFD_IOC_SET_EVENT");
    events.set(eventId);
  }

  public void resetEvent(int eventId) throws KfdException {
    checkOpen("AMDKFD_IOC_RESET_EVENT");
    events.reset(eventId);
  }

  /**
   * AMDKFD_IOC_WAIT_EVENTS: waits for any or all of the events, up to {@code timeoutMs} (unsigned milliseconds; 0
   * polls, {@link EventTable#TIMEOUT_INFINITE} waits forever).
   */
  public EventTable.WaitResult waitEvents(int[] eventIds, boolean waitForAll, int timeoutMs)
      throws KfdException, InterruptedException {
    checkOpen("AMDKFD_IOC_WAIT_EVENTS");
    return events.waitOn(eventIds, waitForAll, timeoutMs);
  }

  // ---------------------------------------------------------------- device side

  /** The process's address space on a GPU (what the dispatcher and SDMA access memory through). */
  public GpuVm gpuVm(int gpuId) throws KfdException {
    ProcessDevice pdd = devices.get(gpuId);
    if (pdd == null) throw new KfdException(Errno.EINVAL, "gpuVm", hex("no VM acquired on gpu_id 0x", gpuId));
    return pdd.vm;
  }

  /** The CPU view of the process's buffers by virtual address (libhsakmt maps them at their GPU VA). */
  public GpuMemory hostMemory() {
    return host;
  }

  /** An SDMA linear copy on {@code gpuId}, then (if non-zero) the completion signal. */
  public void sdmaCopy(int gpuId, long dst, long src, long bytes, long completionSignal)
      throws KfdException, GpuMemoryFault {
    ProcessDevice pdd = sdmaTarget(gpuId);
    pdd.device.sdma().copy(pdd.vm, dst, src, bytes);
    pdd.device.sdma().signal(pdd.vm, completionSignal, pdd);
  }

  /** An SDMA constant fill on {@code gpuId}, then (if non-zero) the completion signal. */
  public void sdmaFill(int gpuId, long dst, int value, long bytes, long completionSignal)
      throws KfdException, GpuMemoryFault {
    ProcessDevice pdd = sdmaTarget(gpuId);
    if ((dst & 3) != 0 || (bytes & 3) != 0) {
      throw new KfdException(Errno.EINVAL, "SDMA_OP_CONST_FILL", hex("fill needs dword alignment: 0x", dst));
    }
    pdd.device.sdma().fill(pdd.vm, dst, value, bytes);
    pdd.device.sdma().signal(pdd.vm, completionSignal, pdd);
  }

  /** SDMA from a linear host buffer into GPU memory (loading code objects, staging uploads). */
  public void sdmaWrite(int gpuId, long dst, byte[] src, int offset, int length) throws KfdException, GpuMemoryFault {
    ProcessDevice pdd = sdmaTarget(gpuId);
    pdd.device.sdma().write(pdd.vm, dst, src, offset, length);
  }

  /** SDMA from GPU memory into a linear host buffer. */
  public void sdmaRead(int gpuId, long src, byte[] dst, int offset, int length) throws KfdException, GpuMemoryFault {
    ProcessDevice pdd = sdmaTarget(gpuId);
    pdd.device.sdma().read(pdd.vm, src, dst, offset, length);
  }

  private ProcessDevice sdmaTarget(int gpuId) throws KfdException {
    checkOpen("SDMA");
    ProcessDevice pdd = devices.get(gpuId);
    if (pdd == null) throw new KfdException(Errno.EINVAL, "SDMA", hex("no VM acquired on gpu_id 0x", gpuId));
    return pdd;
  }

  /** The buffer behind a handle, or {@code null} (the driver's view, for tests in this package). */
  synchronized Allocation buffer(long handle) {
    return allocations.get(handle);
  }

  /** Buffers currently allocated (for diagnostics and tests). */
  public synchronized int allocationCount() {
    return allocations.size();
  }

  /**
   * Closes /dev/kfd: destroys the queues, unmaps and frees every buffer, and releases the page tables, as process
   * teardown does.
   */
  @Override
  public synchronized void close() {
    if (closed) return;
    closed = true;
    for (int i = 0; i < MAX_QUEUES; i++) if (queues[i] != null) stop(i);
    for (Allocation a : new ArrayList<>(byVa.values())) {
      a.mappedOn.forEach(gpuId -> devices.get(gpuId).vm.unmap(a.va, a.span));
      a.mappedOn.clear();
      release(a);
    }
    for (ProcessDevice pdd : devices.values()) {
      pdd.vm.destroy();
      kfd.bus().unregister(pdd.doorbellDma, 2);
    }
    devices.clear();
    kfd.closed(this);
  }

  // ---------------------------------------------------------------- helpers

  private void checkOpen(String io) throws KfdException {
    if (closed) throw new KfdException(Errno.EBADF, io, "process closed /dev/kfd");
  }

  private KfdDevice device(String io, int gpuId) throws KfdException {
    KfdDevice d = kfd.device(gpuId);
    if (d == null) throw new KfdException(Errno.EINVAL, io, hex("no GPU with gpu_id 0x", gpuId));
    return d;
  }

  private Allocation allocation(String io, long handle) throws KfdException {
    Allocation a = allocations.get(handle);
    if (a == null) throw new KfdException(Errno.EINVAL, io, hex("no buffer with handle 0x", handle));
    return a;
  }

  private Allocation overlapping(long va, long bytes) {
    Map.Entry<Long, Allocation> below = byVa.floorEntry(va + bytes - 1);
    if (below != null && below.getValue().va + below.getValue().span > va) return below.getValue();
    return null;
  }

  private void requireMapped(String io, int gpuId, long address, long length, String what) throws KfdException {
    Map.Entry<Long, Allocation> e = byVa.floorEntry(address);
    Allocation a = e == null ? null : e.getValue();
    if (a == null || address + length > a.va + a.span || !a.mappedOn.contains(gpuId)) {
      throw new KfdException(Errno.EINVAL, io, String.format("%s [0x%x, +0x%x) is not in a buffer mapped on gpu_id 0x%x",
          what, address, length, gpuId));
    }
  }

  private static Allocation.Kind kindOf(int flags) {
    if ((flags & AllocFlags.VRAM) != 0) return Allocation.Kind.VRAM;
    if ((flags & AllocFlags.GTT) != 0) return Allocation.Kind.GTT;
    if ((flags & AllocFlags.USERPTR) != 0) return Allocation.Kind.USERPTR;
    if ((flags & AllocFlags.DOORBELL) != 0) return Allocation.Kind.DOORBELL;
    if ((flags & AllocFlags.MMIO_REMAP) != 0) return Allocation.Kind.MMIO;
    return null;
  }

  private static String hex(String prefix, long value) {
    return prefix + (prefix.endsWith("0x") ? "" : "0x") + Long.toHexString(value);
  }

  /** The process on one GPU (kfd_process_device): its VM, doorbells, and the host side of its queues. */
  private final class ProcessDevice implements QueueHost {
    final KfdDevice device;
    final GpuVm vm;
    final DoorbellSlice doorbells = new DoorbellSlice();
    final long doorbellDma;

    ProcessDevice(KfdDevice device, GpuVm vm) {
      this.device = device;
      this.vm = vm;
      this.doorbellDma = kfd.bus().registerMmio(doorbells.pages());
    }

    @Override
    public AqlPacketConsumer consumer() {
      return device.packetConsumer();
    }

    @Override
    public void interrupt(int eventId) {
      events.interrupt(eventId);
    }

    @Override
    public void memoryFault(AqlQueue queue, GpuMemoryFault fault) {
      String reason = fault.reason();
      events.fireAll(EventType.MEMORY, new EventData.MemoryException(fault.address() & ~(PAGE - 1),
          device.gpuId(), reason.equals(GpuMemoryFault.PAGE_NOT_PRESENT),
          reason.equals(GpuMemoryFault.WRITE_TO_READ_ONLY), reason.equals(GpuMemoryFault.EXECUTE_NOT_ALLOWED),
          false, reason));
    }

    @Override
    public void queueError(AqlQueue queue, QueueError error) {
      events.fireAll(EventType.HW_EXCEPTION, new EventData.HwException(device.gpuId(), queue.queueId(),
          error.describe()));
    }
  }
}
