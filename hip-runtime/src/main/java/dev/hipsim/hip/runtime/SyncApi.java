package dev.hipsim.hip.runtime;

import dev.hipsim.hip.api.ApiProvider;
import dev.hipsim.hip.api.ApiRegistry;
import dev.hipsim.hip.api.HipError;
import dev.hipsim.hip.api.HipException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Streams, events and device synchronisation. Every copy and launch completes before its call returns, so each
 * stream is always idle when the program looks: synchronisation succeeds at once, and an event records the time
 * at which all work enqueued before it was done.
 */
final class SyncApi implements ApiProvider {
  private final AtomicLong handles = new AtomicLong(0x5700_0000_0000L);
  private final Map<Long, Boolean> streams = new ConcurrentHashMap<>();
  /** Event handle → nanoTime it was recorded at (-1: created, never recorded). */
  private final Map<Long, Long> events = new ConcurrentHashMap<>();

  @Override
  public void register(ApiRegistry api) {
    api.hipError("hipDeviceSynchronize", a -> HipError.SUCCESS);
    api.hipError("hipStreamCreate", a -> createStream(a.pointer(0), a.memory()));
    api.hipError("hipStreamCreateWithFlags", a -> createStream(a.pointer(0), a.memory()));
    api.hipError("hipStreamCreateWithPriority", a -> createStream(a.pointer(0), a.memory()));
    api.hipError("hipStreamDestroy", a -> {
      stream(a.pointer(0));
      streams.remove(a.pointer(0));
      return HipError.SUCCESS;
    });
    api.hipError("hipStreamSynchronize", a -> {
      stream(a.pointer(0));
      return HipError.SUCCESS;
    });
    api.hipErrorQuery("hipStreamQuery", a -> {
      stream(a.pointer(0));
      return HipError.SUCCESS;
    });
    api.hipError("hipStreamWaitEvent", a -> {
      stream(a.pointer(0));
      event(a.pointer(1));
      return HipError.SUCCESS;
    });
    api.hipError("hipEventCreate", a -> createEvent(a.pointer(0), a.memory()));
    api.hipError("hipEventCreateWithFlags", a -> createEvent(a.pointer(0), a.memory()));
    api.hipError("hipEventDestroy", a -> {
      event(a.pointer(0));
      events.remove(a.pointer(0));
      return HipError.SUCCESS;
    });
    api.hipError("hipEventRecord", a -> {
      event(a.pointer(0));
      stream(a.pointer(1));
      events.put(a.pointer(0), System.nanoTime());
      return HipError.SUCCESS;
    });
    api.hipError("hipEventSynchronize", a -> {
      recorded(a.pointer(0));
      return HipError.SUCCESS;
    });
    api.hipErrorQuery("hipEventQuery", a -> {
      event(a.pointer(0));
      return HipError.SUCCESS;
    });
    api.hipError("hipEventElapsedTime", a -> {
      long start = recorded(a.pointer(1));
      long stop = recorded(a.pointer(2));
      a.memory().writeInt(a.pointer(0), Float.floatToRawIntBits((stop - start) / 1e6f));
      return HipError.SUCCESS;
    });
  }

  private HipError createStream(long out, dev.hipsim.hip.api.HostMemory host) throws HipException {
    if (out == 0) throw new HipException(HipError.INVALID_VALUE, "null stream pointer");
    long h = handles.getAndAdd(64);
    streams.put(h, Boolean.TRUE);
    host.writeLong(out, h);
    return HipError.SUCCESS;
  }

  private HipError createEvent(long out, dev.hipsim.hip.api.HostMemory host) throws HipException {
    if (out == 0) throw new HipException(HipError.INVALID_VALUE, "null event pointer");
    long h = handles.getAndAdd(64);
    events.put(h, -1L);
    host.writeLong(out, h);
    return HipError.SUCCESS;
  }

  /** Checks a stream handle: 0 is the null stream; 1 and 2 are hipStreamLegacy/PerThread. */
  private void stream(long handle) throws HipException {
    if (handle == 0 || handle == 1 || handle == 2 || streams.containsKey(handle)) return;
    throw new HipException(HipError.INVALID_HANDLE, String.format("0x%x is not a stream", handle));
  }

  private void event(long handle) throws HipException {
    if (!events.containsKey(handle)) {
      throw new HipException(HipError.INVALID_HANDLE, String.format("0x%x is not an event", handle));
    }
  }

  private long recorded(long handle) throws HipException {
    event(handle);
    long t = events.get(handle);
    if (t < 0) throw new HipException(HipError.INVALID_HANDLE, String.format("event 0x%x was never recorded", handle));
    return t;
  }
}
