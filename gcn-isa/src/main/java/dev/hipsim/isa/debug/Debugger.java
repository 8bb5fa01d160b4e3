package dev.hipsim.isa.debug;

import dev.hipsim.elf.ElfFile;
import dev.hipsim.isa.debug.symbols.CodeObjects;
import dev.hipsim.isa.debug.symbols.LoadedCode;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.exec.DispatchOptions;
import dev.hipsim.isa.exec.DispatchRunner;
import dev.hipsim.isa.exec.DispatchStats;
import dev.hipsim.isa.exec.KernelLaunch;
import dev.hipsim.isa.interp.CodeCache;
import dev.hipsim.isa.interp.Interpreter;
import dev.hipsim.isa.mem.GpuMemory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The kernel debugger's engine. The device's compute engine hands it every dispatch ({@link #runDispatch}) while a
 * front end is attached; it runs them one at a time on a deterministic schedule, instruction by instruction, and
 * stops them at breakpoints, watchpoints, steps, pauses and kernel launches. A stopped dispatch's thread waits for the
 * front end, whose {@link #inspect inspections} it runs (so they see the state without any locking) until one
 * {@link #resume resumes} it. Breakpoints are set at any time, resolved against the code objects the runtime reports
 * as loaded.
 *
 * <p>Nothing of this runs, and the interpreter's fast path is untouched, when no debugger is attached.
 */
public final class Debugger {
  /** What the engine tells the front end. Called on the dispatch's thread; must not block for long. */
  public interface Listener {
    /** The dispatch stopped; it waits for {@link #resume}. */
    void stopped(StopEvent event);

    /** Breakpoints whose resolution changed because code was loaded or unloaded. */
    default void breakpointsChanged(List<BreakpointStatus> changed) {}

    /** Something the user should know (a code object whose line tables cannot be read …). */
    default void message(String text) {}
  }

  /** Work on the stopped dispatch, run on its thread. */
  @FunctionalInterface
  public interface Inspection<T> {
    T inspect(DispatchView view) throws DebugException;
  }

  private sealed interface Command permits Query, ResumeCommand {}

  private static final class Query<T> implements Command {
    final Inspection<T> inspection;
    final CompletableFuture<T> result = new CompletableFuture<>();

    Query(Inspection<T> inspection) {
      this.inspection = inspection;
    }

    void run(DispatchView view) {
      try {
        result.complete(inspection.inspect(view));
      } catch (DebugException | RuntimeException e) {
        result.completeExceptionally(e);
      }
    }
  }

  private static final class ResumeCommand implements Command {
    final Resume resume;
    final CompletableFuture<Void> accepted = new CompletableFuture<>();

    ResumeCommand(Resume resume) {
      this.resume = resume;
    }
  }

  private final CodeObjects code = new CodeObjects();
  private final Breakpoints breakpoints = new Breakpoints(code);
  private final int quantum;
  private final int maxResident;
  private volatile Listener listener = e -> {};
  private volatile boolean stopAtLaunch;
  private volatile boolean pauseRequested;
  private volatile boolean detached;
  private final ReentrantLock dispatching = new ReentrantLock();
  private long dispatches;

  private final Object lock = new Object();
  /** The dispatch waiting for the front end, or null while the program runs. Guarded by {@link #lock}. */
  private DebugDispatch stopped;
  private final BlockingQueue<Command> commands = new LinkedBlockingQueue<>();

  public Debugger() {
    this(DispatchOptions.defaults());
  }

  /** A debugger scheduling waves with the quantum and workgroup residency of {@code options} (on one thread). */
  public Debugger(DispatchOptions options) {
    this.quantum = options.quantum();
    this.maxResident = options.maxResidentWorkgroups();
  }

  public void setListener(Listener listener) {
    this.listener = listener == null ? e -> {} : listener;
  }

  public CodeObjects code() {
    return code;
  }

  // ---- configuration

  /** Whether every dispatch stops before its first instruction (rocgdb's stop at kernel launch). */
  public void setStopAtLaunch(boolean stop) {
    this.stopAtLaunch = stop;
  }

  public boolean stopAtLaunch() {
    return stopAtLaunch;
  }

  public List<BreakpointStatus> setFunctionBreakpoints(List<BreakpointSpec.Function> specs) {
    return breakpoints.setFunctions(specs);
  }

  public List<BreakpointStatus> setInstructionBreakpoints(List<BreakpointSpec.Address> specs) {
    return breakpoints.setInstructions(specs);
  }

  /** Replaces the line breakpoints of one source file (as named by the front end). */
  public List<BreakpointStatus> setLineBreakpoints(String file, List<BreakpointSpec.Line> specs) {
    return breakpoints.setLines(file, specs);
  }

  public List<BreakpointStatus> setWatchpoints(List<BreakpointSpec.Watch> specs) {
    return breakpoints.setWatches(specs);
  }

  public List<BreakpointStatus> breakpoints() {
    return breakpoints.all();
  }

  Breakpoints.Snapshot breakpointSnapshot() {
    return breakpoints.snapshot();
  }

  // ---- what the runtime reports

  /** A code object was loaded at {@code loadBase} (the loader added {@code loadDelta} to its addresses). */
  public void codeObjectLoaded(String source, ElfFile elf, long loadBase, long loadSize, long loadDelta) {
    LoadedCode c = code.add(source, elf, loadBase, loadSize, loadDelta);
    if (c.warning() != null) listener.message("hipsim debugger: " + c.warning());
    List<BreakpointStatus> changed = breakpoints.refresh();
    if (!changed.isEmpty()) listener.breakpointsChanged(changed);
  }

  public void codeObjectUnloaded(long loadBase) {
    code.remove(loadBase);
    List<BreakpointStatus> changed = breakpoints.refresh();
    if (!changed.isEmpty()) listener.breakpointsChanged(changed);
  }

  /**
   * Runs a dispatch under the debugger (the compute engine calls this instead of its parallel runner). Dispatches
   * run one at a time. After {@link #detach} they run on the normal runner.
   */
  public DispatchStats runDispatch(KernelLaunch launch, CodeCache cache, GpuMemory memory, int ldsCapacity)
      throws DispatchException {
    if (detached) {
      return new DispatchRunner(launch, DispatchOptions.defaults().withThreads(1), t -> new Interpreter(cache, memory,
          launch), ldsCapacity).run();
    }
    dispatching.lock();
    try {
      return new DebugDispatch(this, launch, cache, memory, ldsCapacity, quantum, maxResident, ++dispatches).run();
    } finally {
      dispatching.unlock();
    }
  }

  // ---- control, from the front end

  /** Whether a dispatch is stopped and waiting for the front end. */
  public boolean isStopped() {
    synchronized (lock) {
      return stopped != null;
    }
  }

  /** Stops the program before the next instruction any wave executes (in this dispatch or the next one). */
  public void pause() {
    pauseRequested = true;
  }

  boolean takePause() {
    if (!pauseRequested) return false;
    pauseRequested = false;
    return true;
  }

  /** Runs {@code inspection} on the stopped dispatch and returns its result. */
  public <T> T inspect(Inspection<T> inspection) throws DebugException {
    Query<T> q = new Query<>(inspection);
    synchronized (lock) {
      if (stopped == null) throw new DebugException("the program is running (not stopped in a kernel)");
      commands.add(q);
    }
    return await(q.result);
  }

  /**
   * Resumes the stopped dispatch as {@code resume} says. Returns once the dispatch accepted it (a step is then
   * under way; the listener hears of the next stop); throws when it cannot be done (a wave that has ended …).
   */
  public void resume(Resume resume) throws DebugException {
    ResumeCommand c = new ResumeCommand(resume);
    synchronized (lock) {
      if (stopped == null) throw new DebugException("the program is not stopped");
      commands.add(c);
    }
    await(c.accepted);
  }

  /** Forgets every breakpoint and lets the program run to its end undisturbed. */
  public void detach() {
    detached = true;
    stopAtLaunch = false;
    pauseRequested = false;
    breakpoints.clear();
    try {
      if (isStopped()) resume(Resume.proceed());
    } catch (DebugException e) {
      // it was resumed meanwhile
    }
  }

  private static <T> T await(CompletableFuture<T> f) throws DebugException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DebugException("interrupted");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof DebugException d) throw d;
      throw new DebugException("internal error: " + e.getCause());
    }
  }

  // ---- the dispatch's side

  /** Reports the stop, serves inspections, and returns the accepted resume request. */
  Resume waitForResume(DebugDispatch dispatch, StopEvent event) {
    synchronized (lock) {
      stopped = dispatch;
    }
    try {
      listener.stopped(event);
    } catch (RuntimeException e) {
      // a front end failing to hear of a stop must not take the program down with it
    }
    while (true) {
      Command c;
      try {
        c = commands.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        detached = true;
        synchronized (lock) {
          stopped = null;
        }
        return Resume.proceed();
      }
      if (c instanceof Query<?> q) {
        q.run(dispatch);
        continue;
      }
      ResumeCommand r = (ResumeCommand) c;
      String problem = dispatch.validate(r.resume);
      if (problem != null) {
        r.accepted.completeExceptionally(new DebugException(problem));
        continue;
      }
      List<Command> late = new ArrayList<>();
      synchronized (lock) {
        stopped = null;
        commands.drainTo(late);
      }
      for (Command l : late) {
        DebugException e = new DebugException("the program is running (not stopped in a kernel)");
        if (l instanceof Query<?> q) q.result.completeExceptionally(e);
        else ((ResumeCommand) l).accepted.completeExceptionally(e);
      }
      r.accepted.complete(null);
      return r.resume;
    }
  }
}
