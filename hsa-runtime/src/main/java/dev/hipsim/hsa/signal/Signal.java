package dev.hipsim.hsa.signal;

import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.HsaStatus;
import dev.hipsim.isa.mem.AtomicOp;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;
import dev.hipsim.kfd.queue.AmdSignal;
import java.util.concurrent.locks.LockSupport;

/**
 * An HSA signal ({@code hsa_signal_t}): a 64-bit value in an {@code amd_signal_t} that the host and the GPU update
 * atomically. Its handle is the structure's address, which goes into AQL packets as a completion or dependency
 * signal. An interrupt signal also owns a KFD signal event whose mailbox is in the event page: when the packet
 * processor completes it, the driver wakes the waiters, so a wait sleeps instead of polling. Host updates set the
 * event themselves, as ROCr's InterruptSignal does.
 */
public final class Signal {
  /** Pass as a timeout to wait without limit ({@code UINT64_MAX} in HSA). */
  public static final long FOREVER = Long.MAX_VALUE;
  /** Longest single sleep on the event: bounds the wait if a wake-up is consumed by another waiter. */
  private static final int SLICE_MILLIS = 20;
  private static final long MAX_PARK_NANOS = 200_000;

  private final SignalManager owner;
  private final long handle;
  private final int eventId;
  private volatile boolean destroyed;

  Signal(SignalManager owner, long handle, int eventId) {
    this.owner = owner;
    this.handle = handle;
    this.eventId = eventId;
  }

  /** The {@code amd_signal_t} address. */
  public long handle() {
    return handle;
  }

  /** The KFD event behind the signal, or -1 for a signal that is only polled. */
  public int eventId() {
    return eventId;
  }

  public boolean isInterrupt() {
    return eventId >= 0;
  }

  private GpuMemory memory() throws HsaException {
    if (destroyed) throw new HsaException(HsaStatus.INVALID_SIGNAL, String.format("signal 0x%x was destroyed", handle));
    return owner.host();
  }

  /** {@code hsa_signal_load_scacquire}. */
  public long load() throws HsaException {
    try {
      return AmdSignal.value(memory(), handle);
    } catch (GpuMemoryFault f) {
      throw fault(f);
    }
  }

  /** {@code hsa_signal_store_screlease}: sets the value and wakes the waiters. */
  public void store(long value) throws HsaException {
    atomic(AtomicOp.SWAP, value);
  }

  /** {@code hsa_signal_add_scacq_screl}. */
  public void add(long value) throws HsaException {
    atomic(AtomicOp.ADD, value);
  }

  /** {@code hsa_signal_subtract_scacq_screl}. */
  public void subtract(long value) throws HsaException {
    atomic(AtomicOp.SUB, value);
  }

  /** {@code hsa_signal_exchange_scacq_screl}: returns the previous value. */
  public long exchange(long value) throws HsaException {
    return atomic(AtomicOp.SWAP, value);
  }

  /** {@code hsa_signal_cas_scacq_screl}: sets {@code value} if the signal holds {@code expected}; returns the old. */
  public long compareAndSwap(long expected, long value) throws HsaException {
    try {
      long old = memory().atomic64(AtomicOp.CMPSWAP, handle + AmdSignal.VALUE, value, expected);
      if (old == expected) owner.wake(eventId);
      return old;
    } catch (GpuMemoryFault f) {
      throw fault(f);
    }
  }

  private long atomic(AtomicOp op, long value) throws HsaException {
    try {
      long old = memory().atomic64(op, handle + AmdSignal.VALUE, value, 0);
      owner.wake(eventId);
      return old;
    } catch (GpuMemoryFault f) {
      throw fault(f);
    }
  }

  /**
   * {@code hsa_signal_wait_scacquire}: waits until the value satisfies {@code condition} against {@code compare}, or
   * {@code timeoutNanos} passed ({@link #FOREVER} for no limit). Returns the value last observed, which the caller
   * checks to tell success from timeout, as in HSA.
   */
  public long wait(SignalCondition condition, long compare, long timeoutNanos) throws HsaException {
    long start = System.nanoTime();
    long parkNanos = 1_000;
    while (true) {
      long v = load();
      if (condition.test(v, compare)) return v;
      long left = timeoutNanos == FOREVER ? Long.MAX_VALUE : timeoutNanos - (System.nanoTime() - start);
      if (left <= 0) return v;
      if (eventId >= 0 && left >= 1_000_000) {
        owner.sleep(eventId, (int) Math.min(SLICE_MILLIS, left / 1_000_000));
      } else {
        LockSupport.parkNanos(Math.min(left, parkNanos));
        parkNanos = Math.min(MAX_PARK_NANOS, parkNanos * 2);
        if (Thread.interrupted()) {
          Thread.currentThread().interrupt();
          throw new HsaException(HsaStatus.ERROR, String.format("wait on signal 0x%x interrupted", handle));
        }
      }
    }
  }

  /** {@code hsa_signal_destroy}. */
  public void destroy() throws HsaException {
    if (destroyed) throw new HsaException(HsaStatus.INVALID_SIGNAL, String.format("signal 0x%x destroyed twice", handle));
    destroyed = true;
    owner.destroy(this);
  }

  private HsaException fault(GpuMemoryFault f) {
    return new HsaException(HsaStatus.INVALID_SIGNAL, String.format("signal 0x%x: %s", handle, f.getMessage()), f);
  }

  @Override
  public String toString() {
    return String.format("signal 0x%x%s", handle, eventId >= 0 ? " (event " + eventId + ")" : "");
  }
}
