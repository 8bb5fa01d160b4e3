package dev.hipsim.hip.runtime;

import dev.hipsim.hip.api.HipError;
import dev.hipsim.hip.api.HipException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The streams a program created. Work on every stream completes before the call that enqueued it returns, so a
 * stream is only a handle with its creation flags and priority; 0 (the null stream), {@code hipStreamLegacy} (1)
 * and {@code hipStreamPerThread} (2) always exist.
 */
final class StreamTable {
  record Stream(long handle, int flags, int priority) {}

  static final Stream NULL_STREAM = new Stream(0, 0, 0);
  private final AtomicLong handles;
  private final Map<Long, Stream> streams = new ConcurrentHashMap<>();

  StreamTable(AtomicLong handles) {
    this.handles = handles;
  }

  long create(int flags, int priority) {
    long h = handles.getAndAdd(64);
    streams.put(h, new Stream(h, flags, priority));
    return h;
  }

  void destroy(long handle) throws HipException {
    if (handle == 0 || handle == 1 || handle == 2) {
      throw new HipException(HipError.INVALID_HANDLE, "the null stream cannot be destroyed");
    }
    if (streams.remove(handle) == null) throw notAStream(handle);
  }

  /** The stream a handle names; an unknown one is hipErrorInvalidHandle, as CLR reports it. */
  Stream check(long handle) throws HipException {
    if (handle == 0 || handle == 1 || handle == 2) return NULL_STREAM;
    Stream s = streams.get(handle);
    if (s == null) throw notAStream(handle);
    return s;
  }

  private static HipException notAStream(long handle) {
    return new HipException(HipError.INVALID_HANDLE, String.format("0x%x is not a stream", handle));
  }

  /** hipDeviceReset: every stream the program created is gone. */
  void clear() {
    streams.clear();
  }
}
