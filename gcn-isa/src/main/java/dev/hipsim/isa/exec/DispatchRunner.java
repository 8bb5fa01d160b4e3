package dev.hipsim.isa.exec;

import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.dispatch.DispatchGeometry;
import dev.hipsim.isa.dispatch.WatchdogTimeout;
import dev.hipsim.isa.dispatch.WaveLocation;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Runs a dispatch's workgroups to completion on worker threads ("compute units"). Each worker takes workgroups in
 * order from a shared counter and runs the waves of its resident workgroups round-robin: a wave runs until it ends,
 * reaches a barrier, sleeps, or uses up its quantum. Waves of a workgroup always run on one thread, so barriers and
 * LDS need no locking. When every resident wave of a worker is waiting (a spin loop on work another workgroup must
 * do, or a cooperative grid barrier), the worker admits more workgroups.
 */
public final class DispatchRunner {
  private final KernelLaunch launch;
  private final DispatchOptions options;
  private final Function<Integer, WaveExecutor> executors;
  private final int ldsCapacity;

  private final AtomicLong nextWorkgroup = new AtomicLong();
  private final AtomicLong instructions = new AtomicLong();
  private final AtomicLong waves = new AtomicLong();
  private final AtomicLong retired = new AtomicLong();
  private final AtomicReference<DispatchException> failure = new AtomicReference<>();
  private final List<ComputeUnit> units = new ArrayList<>();
  private int residentPerUnit;
  private volatile boolean stop;
  private volatile String watchdogLimit;
  private long startNanos;

  /**
   * @param executors makes the executor each worker uses (an interpreter instance per thread)
   * @param ldsCapacity LDS bytes a workgroup may use on this device
   */
  public DispatchRunner(KernelLaunch launch, DispatchOptions options, Function<Integer, WaveExecutor> executors,
      int ldsCapacity) {
    this.launch = launch;
    this.options = options;
    this.executors = executors;
    this.ldsCapacity = ldsCapacity;
  }

  /**
   * Starts the worker threads dispatches with these options use, ahead of the first ({@link WorkerThreads}). In a
   * cold process a first dispatch's units began 1.0-5.3 ms after the dispatch did when it started their threads,
   * 0-2.2 ms with threads started ahead (vadd 4M, six runs each, timed by prints that cost time themselves).
   */
  public static void prestartWorkers(DispatchOptions options) {
    if (options.threads() > 1) WorkerThreads.SHARED.prestart(options.threads());
  }

  /** Runs every workgroup; returns the statistics or throws the first failure of any wave. */
  public DispatchStats run() throws DispatchException {
    launch.checkFitsLds(ldsCapacity);
    int threads = (int) Math.max(1, Math.min(options.threads(), launch.geometry().workgroupCount()));
    int resident = options.maxResidentWorkgroups();
    // Each resident workgroup holds a scratch slot per wave: residency is bounded by the backing memory the packet
    // processor was given.
    long groupsFit = launch.workgroupsScratchHolds();
    threads = (int) Math.min(threads, groupsFit);
    resident = (int) Math.max(1, Math.min(resident, groupsFit / threads));
    this.residentPerUnit = resident;
    startNanos = System.nanoTime();
    for (int t = 0; t < threads; t++) units.add(new ComputeUnit(t, executors.apply(t)));
    if (threads == 1) {
      units.get(0).run();
    } else {
      java.util.concurrent.CountDownLatch done = WorkerThreads.SHARED.start(units.toArray(new Runnable[0]));
      try {
        done.await();
      } catch (InterruptedException e) {
        stop = true;
        Thread.currentThread().interrupt();
        throw new DispatchException("interrupted while waiting for the dispatch", e);
      }
    }
    DispatchException f = failure.get();
    if (f != null) throw f;
    if (watchdogLimit != null) {
      List<WaveLocation> running = new ArrayList<>();
      for (ComputeUnit u : units) running.addAll(u.snapshot);
      throw new WatchdogTimeout(watchdogLimit, running);
    }
    long[] mix = new long[InstructionMix.COUNT];
    for (ComputeUnit u : units) {
      long[] m = u.executor.instructionMix();
      if (m != null) {
        for (int i = 0; i < mix.length; i++) mix[i] += m[i];
      }
    }
    return new DispatchStats(launch.geometry().workgroupCount(), waves.get(), instructions.get(),
        System.nanoTime() - startNanos, mix);
  }

  /** Workgroups completed so far (read from any thread while the dispatch runs, for progress reports). */
  public long completedWorkgroups() {
    return retired.get();
  }

  /** Workgroups in the dispatch. */
  public long totalWorkgroups() {
    return launch.geometry().workgroupCount();
  }

  private void fail(DispatchException e) {
    failure.compareAndSet(null, e);
    stop = true;
  }

  private void checkWatchdog() {
    long limit = options.instructionLimit();
    if (limit > 0 && instructions.get() > limit) {
      watchdogLimit = limit + " wave-instructions";
      stop = true;
    } else if (options.timeLimitNanos() > 0 && System.nanoTime() - startNanos > options.timeLimitNanos()) {
      watchdogLimit = options.timeLimitNanos() / 1_000_000 + " ms";
      stop = true;
    }
  }

  /**
   * Wave-instructions a worker counts by itself before adding them to the dispatch's total: the total is a shared
   * counter, and adding to it after every quantum made the workers contend for its cache line. The watchdog's
   * instruction limit is checked at this granularity per worker.
   */
  static final int COUNT_FLUSH = 1 << 15;

  /** One worker: a set of resident workgroups run round-robin. */
  private final class ComputeUnit implements Runnable {
    final int id;
    /** Wave-instructions executed and not yet added to {@link #instructions}. */
    long uncounted;
    final WaveExecutor executor;
    final List<Workgroup> resident = new ArrayList<>();
    final List<Workgroup> spare = new ArrayList<>();
    final boolean[] slotTaken = new boolean[residentPerUnit];
    /** The waves still running when this unit stopped (read by the dispatching thread after joining). */
    List<WaveLocation> snapshot = List.of();

    ComputeUnit(int id, WaveExecutor executor) {
      this.id = id;
      this.executor = executor;
    }

    @Override
    public void run() {
      try {
        loop();
      } catch (DispatchException e) {
        fail(e);
      } catch (RuntimeException | Error e) {
        fail(new DispatchException("internal error in compute unit " + id + ": " + e, e));
      } finally {
        instructions.addAndGet(uncounted);
        uncounted = 0;
        snapshot = describeResident();
      }
    }

    private void loop() throws DispatchException {
      long total = launch.geometry().workgroupCount();
      // The loop's body is a method of its own: this frame runs for the whole dispatch, and the JVM compiles a
      // method it has entered often, while a loop already running stays in the bytecode interpreter until its
      // back edges reach the (much higher) on-stack-replacement threshold, which a dispatch of a few thousand
      // workgroups never did: the whole of a cold dispatch ran this loop interpreted.
      boolean admitMore = true;
      while (!stop) {
        int state = round(total, admitMore);
        if (state < 0) return;
        admitMore = state == 1;
      }
    }

    /**
     * One round of the compute unit: admits a workgroup when it may, then gives each resident workgroup a quantum.
     * Returns -1 when nothing is left to run, else 1 when the next round may admit another workgroup, 0 when not.
     */
    private int round(long total, boolean admitMore) throws DispatchException {
      if (admitMore && resident.size() < residentPerUnit) {
        long index = nextWorkgroup.getAndIncrement();
        if (index < total) admit(index);
      }
      if (resident.isEmpty()) return -1;
      boolean progress = false;
      for (int r = 0; r < resident.size() && !stop; r++) {
        Workgroup g = resident.get(r);
        progress |= step(g);
        if (g.finished()) {
          retire(g);
          resident.remove(r--);
          progress = true;
        }
      }
      if (uncounted >= COUNT_FLUSH) {
        instructions.addAndGet(uncounted);
        uncounted = 0;
        checkWatchdog();
      } else if (!progress) {
        checkWatchdog(); // every wave waits: only the time limit can end a wait that never ends
      }
      // Admit another workgroup only when nothing resident can move on by itself.
      return !progress || resident.isEmpty() ? 1 : 0;
    }

    /** Gives every runnable wave of {@code g} one quantum; returns whether any wave did more than wait. */
    private boolean step(Workgroup g) throws DispatchException {
      boolean progress = false;
      for (int i = 0; i < g.waveCount && !stop; i++) {
        Wave w = g.waves[i];
        if (w.status == WaveStatus.SLEEPING) w.status = WaveStatus.RUNNING;
        if (w.status != WaveStatus.RUNNING) continue;
        long before = w.instructions;
        executor.run(w, options.quantum());
        uncounted += w.instructions - before;
        if (w.status != WaveStatus.SLEEPING) progress = true;
      }
      if (g.releaseBarrierIfComplete()) progress = true;
      return progress;
    }

    private void admit(long index) throws DispatchException {
      DispatchGeometry geo = launch.geometry();
      Workgroup g = spare.isEmpty() ? new Workgroup(geo.wavesPerFullWorkgroup(), ldsCapacity)
          : spare.remove(spare.size() - 1);
      int slot = 0;
      while (slotTaken[slot]) slot++;
      slotTaken[slot] = true;
      g.place(index, geo, id * residentPerUnit + slot);
      g.lds.reset(launch.groupSegmentSize());
      for (int i = 0; i < g.waveCount; i++) WaveSetup.initialize(g.waves[i], launch, g, i);
      waves.addAndGet(g.waveCount);
      resident.add(g);
    }

    private void retire(Workgroup g) {
      retired.incrementAndGet();
      slotTaken[g.scratchSlot - id * residentPerUnit] = false;
      spare.add(g);
    }

    private List<WaveLocation> describeResident() {
      List<WaveLocation> list = new ArrayList<>();
      for (Workgroup g : resident) {
        for (int i = 0; i < g.waveCount; i++) {
          Wave w = g.waves[i];
          if (w.status != WaveStatus.DONE) {
            list.add(new WaveLocation(launch.kernelName(), g.x, g.y, g.z, i, -1, w.pc,
                w.status.name().toLowerCase() + ": " + executor.describe(w)));
          }
        }
      }
      return list;
    }
  }
}
