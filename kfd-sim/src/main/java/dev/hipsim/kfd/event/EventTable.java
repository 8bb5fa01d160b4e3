package dev.hipsim.kfd.event;

import dev.hipsim.kfd.Errno;
import dev.hipsim.kfd.KfdException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.collections.impl.map.mutable.primitive.IntObjectHashMap;

/**
 * A process's KFD events (kfd_events.c): creation with slot allocation in the event page, set and reset from the
 * host, set from the GPU by interrupt, and waiting on several events with a timeout. Auto-reset events wake the
 * waiters present when they fire and otherwise stay signaled until one wait consumes them, as in the driver.
 */
public final class EventTable {
  public static final int SIGNAL_EVENT_LIMIT = 4096;
  /** A slot the GPU has not written: all ones. */
  public static final long UNSIGNALED_SLOT = -1L;
  /** Non-signal events are numbered from here (KFD_FIRST_NONSIGNAL_EVENT_ID). */
  public static final int FIRST_NONSIGNAL_EVENT_ID = 0x8000_0000;
  /** Slots in the page the driver allocates when the process supplies none. */
  public static final int DEFAULT_SLOTS = 256;
  /** Wait timeouts, in milliseconds (unsigned). */
  public static final int TIMEOUT_IMMEDIATE = 0;
  public static final int TIMEOUT_INFINITE = 0xffff_ffff;

  private final IntObjectHashMap<Event> events = new IntObjectHashMap<>();
  private SlotStore page;
  private int nextOtherId = FIRST_NONSIGNAL_EVENT_ID;

  /** What {@code CREATE_EVENT} returns. */
  public record Created(int eventId, int triggerData, int slotIndex) {}

  /** {@code KFD_IOC_WAIT_RESULT_*} and the data of the exception events that fired. */
  public record WaitResult(Status status, Map<Integer, EventData> data) {
    public enum Status { COMPLETE, TIMEOUT }
  }

  private static final class Event {
    final int id;
    final EventType type;
    final boolean autoReset;
    boolean signaled;
    EventData data;
    final List<Waiter> waiters = new ArrayList<>();

    Event(int id, EventType type, boolean autoReset) {
      this.id = id;
      this.type = type;
      this.autoReset = autoReset;
    }
  }

  private static final class Waiter {
    boolean activated;
  }

  /** Installs the process's event page (the first CREATE_EVENT with a page handle). */
  public synchronized void setPage(SlotStore store) throws KfdException {
    if (page != null) throw new KfdException(Errno.EINVAL, "AMDKFD_IOC_CREATE_EVENT", "event page is already set");
    for (int i = 0; i < store.slots(); i++) store.store(i, UNSIGNALED_SLOT);
    page = store;
  }

  public synchronized Created create(EventType type, boolean autoReset) throws KfdException {
    if (type == null) throw new KfdException(Errno.EINVAL, "AMDKFD_IOC_CREATE_EVENT", "unknown event type");
    int id;
    if (type.hasSlot()) {
      if (page == null) page = SlotStore.internal(DEFAULT_SLOTS);
      int limit = Math.min(page.slots(), SIGNAL_EVENT_LIMIT);
      id = -1;
      for (int i = 0; i < limit; i++) {
        if (!events.containsKey(i)) {
          id = i;
          break;
        }
      }
      if (id < 0) {
        throw new KfdException(Errno.ENOSPC, "AMDKFD_IOC_CREATE_EVENT", "all " + limit + " signal slots in use");
      }
      page.store(id, UNSIGNALED_SLOT);
    } else {
      id = nextOtherId++;
    }
    events.put(id, new Event(id, type, autoReset));
    return new Created(id, id, type.hasSlot() ? id : 0);
  }

  public synchronized void destroy(int eventId) throws KfdException {
    Event e = lookup("AMDKFD_IOC_DESTROY_EVENT", eventId);
    events.remove(eventId);
    for (Waiter w : e.waiters) w.activated = true;
    notifyAll();
  }

  /** SET_EVENT: only signal events can be set by the host. */
  public synchronized void set(int eventId) throws KfdException {
    Event e = lookup("AMDKFD_IOC_SET_EVENT", eventId);
    if (e.type != EventType.SIGNAL) {
      throw new KfdException(Errno.EINVAL, "AMDKFD_IOC_SET_EVENT", "event " + eventId + " is not a signal event");
    }
    fire(e);
  }

  public synchronized void reset(int eventId) throws KfdException {
    lookup("AMDKFD_IOC_RESET_EVENT", eventId).signaled = false;
  }

  /**
   * The GPU raised an interrupt for {@code eventId} after writing its slot: the event fires if its slot was written
   * (and the slot is acknowledged). Unknown ids are ignored, as stray interrupts are.
   */
  public synchronized void interrupt(int eventId) {
    Event e = events.get(eventId);
    if (e == null || !e.type.hasSlot() || page == null || eventId >= page.slots()) return;
    if (page.load(eventId) == UNSIGNALED_SLOT) return;
    page.store(eventId, UNSIGNALED_SLOT);
    fire(e);
  }

  /** Fires every event of {@code type} with {@code data} (VM faults, hardware exceptions). */
  public synchronized void fireAll(EventType type, EventData data) {
    events.forEachValue(e -> {
      if (e.type == type) {
        e.data = data;
        fire(e);
      }
    });
  }

  private void fire(Event e) {
    e.signaled = !e.autoReset || e.waiters.isEmpty();
    for (Waiter w : e.waiters) w.activated = true;
    notifyAll();
  }

  /**
   * WAIT_EVENTS: waits until any (or all) of the events fired, or {@code timeoutMs} (unsigned; 0 polls,
   * {@link #TIMEOUT_INFINITE} waits forever) elapsed. Unknown ids fail before waiting.
   */
  public WaitResult waitOn(int[] eventIds, boolean all, int timeoutMs) throws KfdException, InterruptedException {
    synchronized (this) {
      Event[] targets = new Event[eventIds.length];
      for (int i = 0; i < eventIds.length; i++) targets[i] = lookup("AMDKFD_IOC_WAIT_EVENTS", eventIds[i]);
      Waiter[] waiters = new Waiter[targets.length];
      for (int i = 0; i < targets.length; i++) {
        Waiter w = new Waiter();
        w.activated = targets[i].signaled;
        if (targets[i].signaled && targets[i].autoReset) targets[i].signaled = false;
        targets[i].waiters.add(w);
        waiters[i] = w;
      }
      long timeout = Integer.toUnsignedLong(timeoutMs);
      long deadline = System.nanoTime() + timeout * 1_000_000L;
      try {
        while (true) {
          if (satisfied(waiters, all)) {
            Map<Integer, EventData> data = new LinkedHashMap<>();
            for (int i = 0; i < targets.length; i++) {
              if (waiters[i].activated && targets[i].data != null) data.put(targets[i].id, targets[i].data);
            }
            return new WaitResult(WaitResult.Status.COMPLETE, data);
          }
          long left = deadline - System.nanoTime();
          if (timeoutMs != TIMEOUT_INFINITE && left <= 0) return new WaitResult(WaitResult.Status.TIMEOUT, Map.of());
          if (timeoutMs == TIMEOUT_INFINITE) wait();
          else wait(Math.max(1, left / 1_000_000L), 0);
        }
      } finally {
        for (int i = 0; i < targets.length; i++) targets[i].waiters.remove(waiters[i]);
      }
    }
  }

  private static boolean satisfied(Waiter[] waiters, boolean all) {
    if (waiters.length == 0) return true;
    for (Waiter w : waiters) {
      if (all != w.activated) return !all;
    }
    return all;
  }

  private Event lookup(String ioctl, int eventId) throws KfdException {
    Event e = events.get(eventId);
    if (e == null) throw new KfdException(Errno.EINVAL, ioctl, "no event " + Integer.toUnsignedString(eventId));
    return e;
  }

  public synchronized int size() {
    return events.size();
  }
}
