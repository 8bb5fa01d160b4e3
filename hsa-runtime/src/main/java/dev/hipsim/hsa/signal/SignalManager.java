package dev.hipsim.hsa.signal;

import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.HsaStatus;
import dev.hipsim.hsa.memory.Allocation;
import dev.hipsim.hsa.memory.MemoryManager;
import dev.hipsim.hsa.memory.MemoryPool;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;
import dev.hipsim.kfd.AllocFlags;
import dev.hipsim.kfd.CreateEventResult;
import dev.hipsim.kfd.Errno;
import dev.hipsim.kfd.KfdException;
import dev.hipsim.kfd.KfdProcess;
import dev.hipsim.kfd.event.EventTable;
import dev.hipsim.kfd.event.EventType;
import dev.hipsim.kfd.queue.AmdSignal;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Creates and destroys signals: {@code amd_signal_t} slots carved from pages of fine-grained system memory (mapped
 * on every GPU, so the packet processor can complete them), and a KFD signal event for each, whose mailbox slot is
 * in the process's event page. The event page is installed with the first event, as libhsakmt does. When the driver
 * has no event slot left, a signal is still created, without an event, and waits on it poll.
 */
public final class SignalManager {
  /** AMD_SIGNAL_KIND_USER. */
  public static final long KIND_USER = 1;
  /** AMD_SIGNAL_KIND_DOORBELL: a queue's doorbell signal, whose value field is the hardware doorbell address. */
  public static final long KIND_DOORBELL = -1;
  private static final long PAGE = 4096;

  private final KfdProcess process;
  private final MemoryManager memory;
  private final MemoryPool pool;
  private final List<Integer> gpuIds;
  private final ArrayDeque<Long> freeSlots = new ArrayDeque<>();
  private final Map<Long, Signal> live = new HashMap<>();
  private Allocation eventPage;
  private boolean eventsExhausted;

  public SignalManager(KfdProcess process, MemoryManager memory, MemoryPool systemPool, List<Integer> gpuIds) {
    this.process = process;
    this.memory = memory;
    this.pool = systemPool;
    this.gpuIds = List.copyOf(gpuIds);
  }

  GpuMemory host() {
    return memory.hostView();
  }

  /** {@code hsa_signal_create}: an interrupt signal with {@code initial} as its value. */
  public synchronized Signal create(long initial) throws HsaException {
    long slot = allocateSlot();
    int eventId = -1;
    long mailbox = 0;
    if (!eventsExhausted) {
      try {
        boolean first = eventPage == null;
        if (first) {
          eventPage = memory.allocate(pool, EventTable.SIGNAL_EVENT_LIMIT * 8L, 1,
              AllocFlags.GTT | AllocFlags.WRITABLE | AllocFlags.COHERENT | AllocFlags.UNCACHED
                  | AllocFlags.NO_SUBSTITUTE, gpuIds.get(0), gpuIds);
        }
        CreateEventResult ev = process.createEvent(EventType.SIGNAL.value(), true, 0, first ? eventPage.handle() : 0);
        eventId = ev.eventId();
        mailbox = eventPage.address() + 8L * ev.eventSlotIndex();
      } catch (KfdException e) {
        if (e.errno() != Errno.ENOSPC) {
          releaseSlot(slot);
          throw new HsaException(HsaStatus.OUT_OF_RESOURCES, "creating the signal's event: " + e.getMessage(), e);
        }
        eventsExhausted = true; // every later signal polls, as ROCr's default signals do
      }
    }
    try {
      GpuMemory host = host();
      host.store64(slot + AmdSignal.KIND, KIND_USER);
      host.store64(slot + AmdSignal.VALUE, initial);
      host.store64(slot + AmdSignal.EVENT_MAILBOX_PTR, mailbox);
      host.store32(slot + AmdSignal.EVENT_ID, eventId < 0 ? 0 : eventId);
      host.store64(slot + AmdSignal.START_TS, 0);
      host.store64(slot + AmdSignal.END_TS, 0);
      host.store64(slot + AmdSignal.QUEUE_PTR, 0);
    } catch (GpuMemoryFault f) {
      throw new IllegalStateException("signal page not host-visible", f);
    }
    Signal s = new Signal(this, slot, eventId);
    live.put(slot, s);
    return s;
  }

  /** The live signal with this handle, or an INVALID_SIGNAL error. */
  public synchronized Signal find(long handle) throws HsaException {
    Signal s = live.get(handle);
    if (s == null) throw new HsaException(HsaStatus.INVALID_SIGNAL, String.format("no signal with handle 0x%x", handle));
    return s;
  }

  public synchronized int liveSignals() {
    return live.size();
  }

  synchronized void destroy(Signal s) throws HsaException {
    live.remove(s.handle());
    if (s.eventId() >= 0) {
      try {
        process.destroyEvent(s.eventId());
      } catch (KfdException e) {
        throw new HsaException(HsaStatus.INVALID_SIGNAL, s + ": " + e.getMessage(), e);
      }
    }
    releaseSlot(s.handle());
  }

  /** A raw 64-byte {@code amd_signal_t} slot (queues put their doorbell signals in one). */
  public synchronized long allocateSlot() throws HsaException {
    if (freeSlots.isEmpty()) {
      Allocation page = memory.allocate(pool, PAGE);
      for (long at = page.address(); at < page.address() + PAGE; at += AmdSignal.SIZE) freeSlots.add(at);
    }
    return freeSlots.poll();
  }

  public synchronized void releaseSlot(long slot) {
    freeSlots.push(slot);
  }

  /** Wakes whoever sleeps on the event after a host update of the signal. */
  void wake(int eventId) throws HsaException {
    if (eventId < 0) return;
    try {
      process.setEvent(eventId);
    } catch (KfdException e) {
      throw new HsaException(HsaStatus.INVALID_SIGNAL, "waking event " + eventId + ": " + e.getMessage(), e);
    }
  }

  /** Sleeps on the event up to {@code millis}, or until it fires. */
  void sleep(int eventId, int millis) throws HsaException {
    try {
      process.waitEvents(new int[] {eventId}, false, millis);
    } catch (KfdException e) {
      throw new HsaException(HsaStatus.INVALID_SIGNAL, "waiting on event " + eventId + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new HsaException(HsaStatus.ERROR, "wait on event " + eventId + " interrupted", e);
    }
  }
}
