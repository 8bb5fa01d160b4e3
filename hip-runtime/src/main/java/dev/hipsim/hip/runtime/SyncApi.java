package dev.hipsim.hip.runtime;

import dev.hipsim.hip.api.ApiCall;
import dev.hipsim.hip.api.ApiProvider;
import dev.hipsim.hip.api.ApiRegistry;
import dev.hipsim.hip.api.Args;
import dev.hipsim.hip.api.HipError;
import dev.hipsim.hip.api.HipException;
import dev.hipsim.hip.api.HostMemory;

/**
 * Streams, events, host callbacks and device synchronisation. Every copy and launch completes before its call
 * returns, so each stream is always idle when the program looks: synchronisation succeeds at once, a callback or
 * host function runs right away on the calling thread (everything enqueued before it is done), and an event records
 * the time at which all work enqueued before it was done.
 */
final class SyncApi implements ApiProvider {
  /** hipStreamNonBlocking: the only stream flag. */
  static final int NON_BLOCKING = 1;

  private final StreamTable streams;
  private final EventTable events;

  SyncApi(StreamTable streams, EventTable events) {
    this.streams = streams;
    this.events = events;
  }

  @Override
  public void register(ApiRegistry api) {
    api.hipErrorFrom("hipDeviceSynchronize", this);
    api.hipErrorFrom("hipCtxSynchronize", this);
    api.hipErrorFrom("hipStreamCreate", this);
    api.hipErrorFrom("hipStreamCreateWithFlags", this);
    api.hipErrorFrom("hipStreamCreateWithPriority", this);
    api.hipErrorFrom("hipStreamDestroy", this);
    api.hipErrorFrom("hipStreamSynchronize", this);
    api.hipErrorQueryFrom("hipStreamQuery", this);
    api.hipErrorFrom("hipStreamWaitEvent", this);
    api.hipErrorFrom("hipStreamGetFlags", this);
    api.hipErrorFrom("hipStreamGetPriority", this);
    api.hipErrorFrom("hipDeviceGetStreamPriorityRange", this);
    api.hipErrorFrom("hipStreamAddCallback", this);
    api.hipErrorFrom("hipLaunchHostFunc", this);
    api.hipErrorFrom("hipEventCreate", this);
    api.hipErrorFrom("hipEventCreateWithFlags", this);
    api.hipErrorFrom("hipEventDestroy", this);
    api.hipErrorFrom("hipEventRecord", this);
    api.hipErrorFrom("hipEventRecordWithFlags", this);
    api.hipErrorFrom("hipEventSynchronize", this);
    api.hipErrorQueryFrom("hipEventQuery", this);
    api.hipErrorFrom("hipEventElapsedTime", this);
  }

  @Override
  public ApiCall.ReturningError errorFunction(String symbol) {
    switch (symbol) {
      case "hipDeviceSynchronize":
        return a -> HipError.SUCCESS;
      case "hipCtxSynchronize":
        return a -> HipError.SUCCESS;
      case "hipStreamCreate":
        return a -> createStream(a, 0, 0, 0);
      case "hipStreamCreateWithFlags":
        return a -> createStream(a, 0, a.i32(1), 0);
      case "hipStreamCreateWithPriority":
        return a -> createStream(a, 0, a.i32(1), a.i32(2));
      case "hipStreamDestroy":
        return a -> {
          streams.destroy(a.pointer(0));
          return HipError.SUCCESS;
        };
      case "hipStreamSynchronize":
        return a -> {
          streams.check(a.pointer(0));
          return HipError.SUCCESS;
        };
      case "hipStreamQuery":
        return a -> {
          streams.check(a.pointer(0));
          return HipError.SUCCESS;
        };
      case "hipStreamWaitEvent":
        return a -> {
          streams.check(a.pointer(0));
          events.recorded(a.pointer(1));
          return HipError.SUCCESS;
        };
      case "hipStreamGetFlags":
        return a -> {
          int flags = streams.check(a.pointer(0)).flags();
          return write(a.memory(), a.pointer(1), flags);
        };
      case "hipStreamGetPriority":
        return a -> {
          int priority = streams.check(a.pointer(0)).priority();
          return write(a.memory(), a.pointer(1), priority);
        };
      case "hipDeviceGetStreamPriorityRange":
        return a -> {
          // CLR: normal priority 0 is the least, high (-1) the greatest.
          if (a.pointer(0) != 0) a.memory().writeInt(a.pointer(0), 0);
          if (a.pointer(1) != 0) a.memory().writeInt(a.pointer(1), -1);
          return HipError.SUCCESS;
        };
      case "hipStreamAddCallback":
        return a -> {
          streams.check(a.pointer(0));
          if (a.pointer(1) == 0) return HipError.INVALID_VALUE;
          if (a.u32(3) != 0) return HipError.INVALID_VALUE;
          // hipStreamCallback_t(stream, status, userData): everything before it completed, successfully.
          a.memory().call(a.pointer(1), a.pointer(0), 0, a.pointer(2));
          return HipError.SUCCESS;
        };
      case "hipLaunchHostFunc":
        return a -> {
          streams.check(a.pointer(0));
          if (a.pointer(1) == 0) return HipError.INVALID_VALUE;
          a.memory().call(a.pointer(1), a.pointer(2), 0, 0);
          return HipError.SUCCESS;
        };
      case "hipEventCreate":
        return a -> createEvent(a, 0);
      case "hipEventCreateWithFlags":
        return a -> createEvent(a, a.i32(1));
      case "hipEventDestroy":
        return a -> {
          events.destroy(a.pointer(0));
          return HipError.SUCCESS;
        };
      case "hipEventRecord":
        return a -> {
          streams.check(a.pointer(1));
          events.record(a.pointer(0));
          return HipError.SUCCESS;
        };
      case "hipEventRecordWithFlags":
        return a -> {
          streams.check(a.pointer(1));
          events.record(a.pointer(0));
          return HipError.SUCCESS;
        };
      case "hipEventSynchronize":
        return a -> {
          events.recorded(a.pointer(0));
          return HipError.SUCCESS;
        };
      case "hipEventQuery":
        return a -> {
          events.recorded(a.pointer(0));
          return HipError.SUCCESS;
        };
      case "hipEventElapsedTime":
        return a -> {
          if (a.pointer(0) == 0) return HipError.INVALID_VALUE;
          float ms = events.elapsedMillis(a.pointer(1), a.pointer(2));
          a.memory().writeInt(a.pointer(0), Float.floatToRawIntBits(ms));
          return HipError.SUCCESS;
        };
      default:
        return null;
    }
  }


  private HipError createStream(Args a, int out, int flags, int priority) throws HipException {
    long p = a.pointer(out);
    if (p == 0) throw new HipException(HipError.INVALID_VALUE, "null stream pointer");
    if ((flags & ~NON_BLOCKING) != 0) return HipError.INVALID_VALUE;
    // Priorities outside [greatest, least] = [-1, 0] are clamped into it, as CLR does.
    int clamped = Math.max(-1, Math.min(0, priority));
    a.memory().writeLong(p, streams.create(flags, clamped));
    return HipError.SUCCESS;
  }

  private HipError createEvent(Args a, int flags) throws HipException {
    long p = a.pointer(0);
    if (p == 0) throw new HipException(HipError.INVALID_VALUE, "null event pointer");
    a.memory().writeLong(p, events.create(flags));
    return HipError.SUCCESS;
  }

  private static HipError write(HostMemory m, long p, int value) {
    if (p == 0) return HipError.INVALID_VALUE;
    m.writeInt(p, value);
    return HipError.SUCCESS;
  }
}
