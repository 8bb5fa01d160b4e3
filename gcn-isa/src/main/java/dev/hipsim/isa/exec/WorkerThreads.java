package dev.hipsim.isa.exec;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The threads dispatches run their compute units on, kept between dispatches: a program of many short launches
 * started a thread for every worker of every dispatch (JMH's vector_add of 1024 waves with two workers: 1073 µs per
 * dispatch that way, 625 µs with the threads kept). A thread that has had no unit to run for {@link
 * #KEEP_ALIVE_SECONDS} ends, so an idle process keeps none.
 *
 * <p>Every unit handed over starts at once, on an idle thread or else a new one, and holds its thread until it ends:
 * units that wait for each other (a cooperative grid's barrier) run side by side, however many dispatches run at the
 * same time. (A unit that ends quickly may leave its thread to the next unit of the same dispatch.)
 */
final class WorkerThreads {
  static final long KEEP_ALIVE_SECONDS = 10;
  /** The threads of every dispatch in the process. */
  static final WorkerThreads SHARED = new WorkerThreads();

  private final ThreadPoolExecutor threads = new ThreadPoolExecutor(0, Integer.MAX_VALUE, KEEP_ALIVE_SECONDS,
      TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
        Thread t = new Thread(r, "hipsim-cu");
        t.setDaemon(true);
        return t;
      });

  WorkerThreads() {
    threads.allowCoreThreadTimeOut(true);
  }

  /**
   * Starts each of {@code units} on a thread of its own, named {@code hipsim-cu-<index>} while it runs; the latch
   * returned is counted down as each ends, however it ends.
   */
  CountDownLatch start(Runnable... units) {
    CountDownLatch done = new CountDownLatch(units.length);
    for (int i = 0; i < units.length; i++) {
      threads.execute(new Named(units[i], "hipsim-cu-".concat(Integer.toString(i)), done));
    }
    return done;
  }

  /**
   * A unit under its thread's name while it runs. A record rather than a lambda, and no string concatenation by
   * {@code +}: both link a call site the first time they run, which in a cold process was 3 ms of the first
   * dispatch's start, on the packet processor's thread. (A record's own methods would too; none is called.)
   */
  private record Named(Runnable unit, String name, CountDownLatch done) implements Runnable {
    @Override
    public void run() {
      Thread self = Thread.currentThread();
      self.setName(name);
      try {
        unit.run();
      } finally {
        self.setName("hipsim-cu");
        done.countDown();
      }
    }
  }

  /**
   * Starts threads now, until {@code count} are alive, for a dispatch of {@code count} units to come (a machine being
   * built): they wait for units, and end after {@link #KEEP_ALIVE_SECONDS} without one like any other.
   */
  synchronized void prestart(int count) {
    if (count > threads.getCorePoolSize()) threads.setCorePoolSize(count);
    threads.prestartAllCoreThreads();
  }

  /** Threads alive now, running a unit or idle. */
  int alive() {
    return threads.getPoolSize();
  }
}
