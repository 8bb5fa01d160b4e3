package dev.hipsim.hip.runtime;

import dev.hipsim.hip.api.HipError;
import dev.hipsim.hip.api.HipException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The events a program created, each with the time it was last recorded. All work enqueued before a record has
 * completed when the record call runs (hipsim completes work before returning), so the record time is the time the
 * event would complete on the device.
 */
final class EventTable {
  /** hipEventDisableTiming. */
  static final int DISABLE_TIMING = 0x2;
  private static final long NEVER = -1;

  private record Event(int flags, long recordedAt) {}

  private final AtomicLong handles;
  private final Map<Long, Event> events = new ConcurrentHashMap<>();

  EventTable(AtomicLong handles) {
    this.handles = handles;
  }

  long create(int flags) {
    long h = handles.getAndAdd(64);
    events.put(h, new Event(flags, NEVER));
    return h;
  }

  void destroy(long handle) throws HipException {
    if (events.remove(handle) == null) throw notAnEvent(handle);
  }

  void record(long handle) throws HipException {
    Event e = check(handle);
    events.put(handle, new Event(e.flags(), System.nanoTime()));
  }

  boolean recorded(long handle) throws HipException {
    return check(handle).recordedAt() != NEVER;
  }

  /** Milliseconds from {@code start} to {@code stop}, as hipEventElapsedTime reports them. */
  float elapsedMillis(long start, long stop) throws HipException {
    Event a = check(start);
    Event b = check(stop);
    if ((a.flags() & DISABLE_TIMING) != 0 || (b.flags() & DISABLE_TIMING) != 0) {
      throw new HipException(HipError.INVALID_HANDLE, "an event created with hipEventDisableTiming has no time");
    }
    if (a.recordedAt() == NEVER || b.recordedAt() == NEVER) {
      throw new HipException(HipError.INVALID_HANDLE, "an event that was never recorded has no time");
    }
    return (b.recordedAt() - a.recordedAt()) / 1e6f;
  }

  private Event check(long handle) throws HipException {
    Event e = events.get(handle);
    if (e == null) throw notAnEvent(handle);
    return e;
  }

  private static HipException notAnEvent(long handle) {
    return new HipException(HipError.INVALID_HANDLE, String.format("0x%x is not an event", handle));
  }

  void clear() {
    events.clear();
  }
}
