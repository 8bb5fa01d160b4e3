package dev.hipsim.hip.gpu.hostcall;

import dev.hipsim.hip.api.Diagnostics;
import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.signal.Signal;
import dev.hipsim.isa.mem.GpuMemoryFault;
import java.util.concurrent.locks.LockSupport;

/**
 * CLR's hostcall listener thread: while a dispatch that may make hostcalls runs, it watches the doorbell signal the
 * device increments after pushing a packet, and serves the ready packets. The doorbell is polled with a short
 * back-off (a few microseconds while busy, at most {@link #MAX_PARK_NANOS}) rather than waited on: a wave blocks in
 * its hostcall until served, so latency is what matters. Between dispatches the thread sleeps.
 */
public final class HostcallListener implements AutoCloseable {
  static final long MIN_PARK_NANOS = 1_000;
  static final long MAX_PARK_NANOS = 200_000;

  private final HostcallBuffer buffer;
  private final Signal doorbell;
  private final HostcallBuffer.Handler services;
  private final Diagnostics diagnostics;
  private final Thread thread;
  private final Object lock = new Object();
  private int active;
  private volatile boolean stop;

  public HostcallListener(HostcallBuffer buffer, Signal doorbell, HostcallBuffer.Handler services,
      Diagnostics diagnostics) {
    this.buffer = buffer;
    this.doorbell = doorbell;
    this.services = services;
    this.diagnostics = diagnostics;
    this.thread = new Thread(this::run, "hipsim-hostcall-listener");
    thread.setDaemon(true);
    thread.start();
  }

  public HostcallBuffer buffer() {
    return buffer;
  }

  /** A dispatch that may make hostcalls starts: serve until {@link #dispatchEnded()}. */
  public void dispatchStarted() {
    synchronized (lock) {
      active++;
      lock.notifyAll();
    }
  }

  /** The dispatch completed; every hostcall it made was served (its waves waited for the replies). */
  public void dispatchEnded() {
    synchronized (lock) {
      active--;
    }
  }

  private void run() {
    long seen = 0;
    long park = MIN_PARK_NANOS;
    try {
      while (!stop) {
        synchronized (lock) {
          while (active == 0 && !stop) lock.wait();
        }
        if (stop) return;
        long value = doorbell.load();
        if (value != seen || buffer.hasReadyPackets()) {
          seen = value;
          buffer.processPackets(services);
          park = MIN_PARK_NANOS;
        } else {
          LockSupport.parkNanos(park);
          park = Math.min(MAX_PARK_NANOS, park * 2);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (HsaException | GpuMemoryFault | RuntimeException e) {
      diagnostics.line("hipsim: the hostcall listener stopped: " + e.getMessage());
    }
  }

  @Override
  public void close() {
    stop = true;
    synchronized (lock) {
      lock.notifyAll();
    }
    try {
      thread.join(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
