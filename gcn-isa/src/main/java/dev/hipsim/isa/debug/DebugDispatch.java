package dev.hipsim.isa.debug;

import dev.hipsim.isa.debug.symbols.CodeObjects;
import dev.hipsim.isa.debug.symbols.SourceLine;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.disasm.InstructionPrinter;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.dispatch.DispatchGeometry;
import dev.hipsim.isa.dispatch.WaveFault;
import dev.hipsim.isa.dispatch.WaveLocation;
import dev.hipsim.isa.exec.DispatchStats;
import dev.hipsim.isa.exec.KernelLaunch;
import dev.hipsim.isa.exec.Lds;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.exec.WaveSetup;
import dev.hipsim.isa.exec.WaveStatus;
import dev.hipsim.isa.exec.Workgroup;
import dev.hipsim.isa.interp.CodeCache;
import dev.hipsim.isa.interp.Ctx;
import dev.hipsim.isa.interp.Op;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * One dispatch run under the debugger: a deterministic scheduler (one thread; workgroups admitted in order; the
 * waves of resident workgroups round-robin, a quantum each, exactly as {@code DispatchRunner} does with one worker)
 * that executes one instruction at a time, so that it can stop before any instruction (breakpoints, pause, kernel
 * entry) or after one (watchpoints, steps, faults). While stopped the thread serves the front end's requests.
 *
 * <p>Steps run only the selected wave; other waves run only when the selected one waits at a barrier, and then
 * without breakpoints. A wave reported stopped at a PC does not stop again at that PC's breakpoint when resumed.
 */
final class DebugDispatch implements DispatchView, WatchSink {
  /** Instructions one source-line step may execute before it gives up (an endless loop on one line). */
  static final long LINE_STEP_LIMIT = 20_000_000L;
  /** Instructions other waves may execute to bring a stepped wave past a barrier. */
  static final long BARRIER_LIMIT = 20_000_000L;

  private final Debugger debugger;
  private final KernelLaunch launch;
  private final CodeCache code;
  private final GpuMemory memory;
  private final Ctx cx;
  private final int ldsCapacity;
  private final int quantum;
  private final int maxResident;
  private final long number;
  private final DispatchGeometry geometry;
  private final int wavesPerGroup;

  private final List<Workgroup> resident = new ArrayList<>();
  private final List<Workgroup> spare = new ArrayList<>();
  private boolean[] slotTaken;
  private int residentLimit;
  private long nextGroup;
  private long instructions;
  private long waveCount;

  /** Where each wave was last reported stopped (before executing that PC). */
  private final Map<Wave, Long> reported = new IdentityHashMap<>();
  private final List<WatchHit> hits = new ArrayList<>();
  private Breakpoints.Snapshot watchSnapshot = Breakpoints.Snapshot.EMPTY;
  private Wave executing;
  private boolean entryPending;
  private boolean finishing;
  private DispatchException pendingFault;
  private StopEvent stop;
  private final long startNanos = System.nanoTime();

  DebugDispatch(Debugger debugger, KernelLaunch launch, CodeCache code, GpuMemory memory, int ldsCapacity,
      int quantum, int maxResident, long number) {
    this.debugger = debugger;
    this.launch = launch;
    this.code = code;
    this.memory = memory;
    this.cx = new Ctx(new WatchedMemory(memory, this), launch);
    this.ldsCapacity = ldsCapacity;
    this.quantum = quantum;
    this.maxResident = maxResident;
    this.number = number;
    this.geometry = launch.geometry();
    this.wavesPerGroup = geometry.wavesPerFullWorkgroup();
  }

  DispatchStats run() throws DispatchException {
    launch.checkFitsLds(ldsCapacity);
    residentLimit = (int) Math.max(1, Math.min(maxResident, launch.workgroupsScratchHolds()));
    slotTaken = new boolean[residentLimit];
    entryPending = debugger.stopAtLaunch();
    long total = geometry.workgroupCount();
    boolean admitMore = true;
    while (true) {
      if (admitMore && resident.size() < residentLimit && nextGroup < total) admit(nextGroup++);
      if (resident.isEmpty()) break;
      boolean progress = false;
      for (int r = 0; r < resident.size(); r++) {
        Workgroup g = resident.get(r);
        progress |= round(g);
        if (g.finished()) {
          retire(g);
          resident.remove(r--);
          progress = true;
        }
      }
      admitMore = !progress || resident.isEmpty();
    }
    if (finishing) {
      finishing = false;
      handleStop(event(StopEvent.Reason.FINISHED, null, null, "dispatch " + number + " of "
          + debugger.code().describeName(launch.kernelName()) + " finished: " + waveCount + " waves, "
          + instructions + " instructions"));
    }
    return new DispatchStats(geometry.workgroupCount(), waveCount, instructions, System.nanoTime() - startNanos);
  }

  /** Gives every runnable wave of {@code g} one quantum; returns whether any wave did more than wait. */
  private boolean round(Workgroup g) throws DispatchException {
    boolean progress = false;
    for (int i = 0; i < g.waveCount(); i++) {
      Wave w = g.wave(i);
      if (w.status == WaveStatus.SLEEPING) w.status = WaveStatus.RUNNING;
      if (w.status != WaveStatus.RUNNING) continue;
      runQuantum(w);
      if (w.status != WaveStatus.SLEEPING) progress = true;
    }
    if (g.releaseBarrierIfComplete()) progress = true;
    return progress;
  }

  private void runQuantum(Wave w) throws DispatchException {
    int n = 0;
    while (n < quantum && w.status == WaveStatus.RUNNING) {
      if (!finishing) {
        StopEvent e = gate(w, true);
        if (e != null) {
          handleStop(e);
          continue;
        }
      }
      try {
        execute(w);
      } catch (DispatchException f) {
        pendingFault = f;
        handleStop(fault(w, f));
      }
      n++;
      if (!hits.isEmpty()) {
        if (finishing) hits.clear();
        else handleStop(watchEvent(w));
      }
    }
  }

  /** Whether {@code w} must stop before its next instruction, and why. */
  private StopEvent gate(Wave w, boolean entryAndPause) {
    long pc = w.pc;
    if (entryAndPause && debugger.takePause()) return event(StopEvent.Reason.PAUSE, w, null, "paused");
    if (entryAndPause && entryPending) {
      entryPending = false;
      return event(StopEvent.Reason.ENTRY, w, null, "kernel launch: " + debugger.code().describeName(
          launch.kernelName()) + String.format(" (grid %dx%dx%d, workgroup %dx%dx%d)", geometry.gridX(),
              geometry.gridY(), geometry.gridZ(), geometry.groupX(), geometry.groupY(), geometry.groupZ()));
    }
    int[] ids = debugger.breakpointSnapshot().at(pc);
    if (ids == null) return null;
    Long seen = reported.get(w);
    if (seen != null && seen == pc) return null;
    StringBuilder d = new StringBuilder(ids.length == 1 ? "breakpoint " : "breakpoints ");
    for (int i = 0; i < ids.length; i++) d.append(i == 0 ? "" : ", ").append(ids[i]);
    return event(StopEvent.Reason.BREAKPOINT, w, ids, d.toString());
  }

  /** Executes {@code w}'s next instruction; no checks. */
  private void execute(Wave w) throws DispatchException {
    long pc = w.pc;
    if ((pc & 3) != 0) {
      throw new WaveFault(WaveFault.Kind.ILLEGAL_INSTRUCTION, location(w, "(misaligned program counter)"), pc,
          "the program counter is not 4-byte aligned", null);
    }
    Op op;
    try {
      op = code.at(pc, memory);
    } catch (GpuMemoryFault f) {
      throw new WaveFault(WaveFault.Kind.MEMORY_FAULT, location(w, "(instruction fetch)"), f.address(),
          f.reason() + " (instruction fetch)", f);
    }
    if (!reported.isEmpty()) reported.remove(w);
    executing = w;
    watchSnapshot = debugger.breakpointSnapshot();
    op.execute(w, cx);
    w.instructions++;
    instructions++;
  }

  private WaveLocation location(Wave w, String text) {
    return new WaveLocation(launch.kernelName(), w.workgroupX, w.workgroupY, w.workgroupZ, w.waveInGroup, -1, w.pc,
        text);
  }

  /** Reports a stop and carries out what the front end asks until it resumes the dispatch. */
  private void handleStop(StopEvent first) throws DispatchException {
    StopEvent e = first;
    while (true) {
      if (e.wave() >= 0) {
        Wave w = findWave(e.wave());
        if (w != null && w.status != WaveStatus.DONE) reported.put(w, w.pc);
      }
      stop = e;
      Resume r = debugger.waitForResume(this, e);
      if (pendingFault != null) {
        DispatchException f = pendingFault;
        pendingFault = null;
        throw f;
      }
      switch (r.kind()) {
        case CONTINUE:
          return;
        case FINISH:
          finishing = true;
          return;
        default:
          e = step(r);
      }
    }
  }

  /** Why a resume request cannot be carried out now, or null. */
  String validate(Resume r) {
    if (r.kind() == Resume.Kind.CONTINUE || r.kind() == Resume.Kind.FINISH) return null;
    if (stop != null && stop.reason() == StopEvent.Reason.FINISHED) {
      return "the dispatch has finished: no wave can step (continue to let the program go on)";
    }
    Wave w = findWave(r.wave());
    if (w == null) return "there is no wave " + r.wave() + " in this dispatch now (see info waves)";
    if (w.status == WaveStatus.DONE) return "wave " + r.wave() + " has ended";
    return null;
  }

  private StopEvent step(Resume r) {
    Wave x = findWave(r.wave());
    try {
      if (r.kind() == Resume.Kind.STEP_INSTRUCTION) {
        for (int i = 0; i < r.count(); i++) {
          if (x.status == WaveStatus.DONE) break;
          if (i > 0) {
            StopEvent e = gate(x, false);
            if (e != null) return e;
            if (debugger.takePause()) return event(StopEvent.Reason.PAUSE, x, null, "paused");
          }
          String stuck = stepOne(x);
          if (stuck != null) return event(StopEvent.Reason.STEP, x, null, stuck);
          if (!hits.isEmpty()) return watchEvent(x);
        }
        return stepped(x, "step");
      }
      return lineStep(x, r.kind() == Resume.Kind.NEXT_LINE);
    } catch (DispatchException f) {
      pendingFault = f;
      return fault(x, f);
    }
  }

  private StopEvent stepped(Wave x, String what) {
    if (x.status == WaveStatus.DONE) return event(StopEvent.Reason.STEP, x, null, "wave " + number(x) + " ended");
    return event(StopEvent.Reason.STEP, x, null, what);
  }

  /**
   * Executes one instruction of {@code x}, first letting the other waves of its workgroup run (without
   * breakpoints) when it waits at a barrier. Returns null, or why the wave cannot move.
   */
  private String stepOne(Wave x) throws DispatchException {
    if (x.status == WaveStatus.SLEEPING) x.status = WaveStatus.RUNNING;
    if (x.status == WaveStatus.AT_BARRIER) {
      Workgroup g = x.group;
      long budget = BARRIER_LIMIT;
      while (x.status == WaveStatus.AT_BARRIER && !g.releaseBarrierIfComplete()) {
        boolean progress = false;
        for (int i = 0; i < g.waveCount(); i++) {
          Wave o = g.wave(i);
          if (o == x) continue;
          if (o.status == WaveStatus.SLEEPING) o.status = WaveStatus.RUNNING;
          while (o.status == WaveStatus.RUNNING && budget-- > 0) {
            execute(o);
            progress = true;
          }
        }
        hits.clear(); // other waves' accesses while this one is stepped are not reported
        if (!progress || budget <= 0) {
          return "wave " + number(x) + " waits at a barrier that the other waves of its workgroup do not reach";
        }
      }
    }
    if (x.status != WaveStatus.RUNNING) return "wave " + number(x) + " cannot run (" + status(x) + ")";
    execute(x);
    return null;
  }

  /** Steps {@code x} to the start of another source line, over calls ({@code over}) or into functions with lines. */
  private StopEvent lineStep(Wave x, boolean over) throws DispatchException {
    CodeObjects co = debugger.code();
    if (!co.hasLineInfo(x.pc)) {
      String stuck = stepOne(x);
      if (stuck != null) return event(StopEvent.Reason.STEP, x, null, stuck);
      if (!hits.isEmpty()) return watchEvent(x);
      return stepped(x, "step (no line information: one instruction)");
    }
    SourceLine start = co.lineAt(x.pc).orElse(null);
    long executed = 0;
    boolean first = true;
    while (true) {
      if (!first) {
        if (debugger.takePause()) return event(StopEvent.Reason.PAUSE, x, null, "paused");
        StopEvent e = gate(x, false);
        if (e != null) return e;
      }
      first = false;
      Instruction inst = decodeQuietly(x.pc);
      boolean call = inst != null && (inst.operation() == Operation.S_SWAPPC_B64
          || inst.operation() == Operation.S_CALL_B64);
      long returnAddress = inst == null ? -1 : x.pc + inst.size();
      int stackPointer = x.s[32];
      String stuck = stepOne(x);
      executed++;
      if (stuck != null) return event(StopEvent.Reason.STEP, x, null, stuck);
      if (!hits.isEmpty()) return watchEvent(x);
      if (x.status == WaveStatus.DONE) return stepped(x, "step");
      if (call && (over || !co.hasLineInfo(x.pc) || co.functionAt(x.pc).isEmpty())) {
        // Run the called function to its return, as gdb's next does (breakpoints inside it still stop).
        while (!(x.pc == returnAddress && x.s[32] == stackPointer)) {
          if (debugger.takePause()) return event(StopEvent.Reason.PAUSE, x, null, "paused");
          StopEvent e = gate(x, false);
          if (e != null) return e;
          stuck = stepOne(x);
          if (stuck != null) return event(StopEvent.Reason.STEP, x, null, stuck);
          if (!hits.isEmpty()) return watchEvent(x);
          if (x.status == WaveStatus.DONE) return stepped(x, "step");
          if (++executed > LINE_STEP_LIMIT) break;
        }
      }
      SourceLine here = co.statementAt(x.pc).orElse(null);
      if (here != null && (start == null || !here.path().equals(start.path()) || here.line() != start.line())) {
        return stepped(x, "step");
      }
      if (executed > LINE_STEP_LIMIT) {
        return event(StopEvent.Reason.STEP, x, null, "no new source line after " + executed + " instructions");
      }
    }
  }

  private Instruction decodeQuietly(long pc) {
    try {
      return code.at(pc, memory).instruction();
    } catch (GpuMemoryFault f) {
      return null;
    }
  }

  private StopEvent fault(Wave w, DispatchException f) {
    return event(StopEvent.Reason.FAULT, w, null, f.getMessage());
  }

  private StopEvent watchEvent(Wave w) {
    StringBuilder d = new StringBuilder();
    int[] ids = new int[hits.size()];
    for (int i = 0; i < hits.size(); i++) {
      WatchHit h = hits.get(i);
      ids[i] = h.id();
      if (i > 0) d.append("; ");
      d.append("watchpoint ").append(h.id()).append(": ").append(h.describe());
    }
    hits.clear();
    return event(StopEvent.Reason.WATCHPOINT, w, Arrays.stream(ids).distinct().toArray(), d.toString());
  }

  private StopEvent event(StopEvent.Reason reason, Wave w, int[] ids, String description) {
    return new StopEvent(reason, w == null ? -1 : number(w), w == null ? 0 : w.pc, ids == null ? new int[0] : ids,
        description);
  }

  // ---- admission (as DispatchRunner does with one worker)

  private void admit(long index) throws DispatchException {
    Workgroup g = spare.isEmpty() ? new Workgroup(wavesPerGroup, new WatchedLds(ldsCapacity, this))
        : spare.remove(spare.size() - 1);
    int slot = 0;
    while (slotTaken[slot]) slot++;
    slotTaken[slot] = true;
    g.place(index, geometry, slot);
    g.lds().reset(launch.groupSegmentSize());
    for (int i = 0; i < g.waveCount(); i++) {
      reported.remove(g.wave(i));
      WaveSetup.initialize(g.wave(i), launch, g, i);
    }
    waveCount += g.waveCount();
    resident.add(g);
  }

  private void retire(Workgroup g) {
    slotTaken[g.scratchSlot()] = false;
    spare.add(g);
  }

  // ---- watchpoints

  @Override
  public boolean watched(AddressSpace space, long address, int size) {
    BreakpointSpec.Watch[] ws = space == AddressSpace.GLOBAL ? watchSnapshot.globalWatches()
        : watchSnapshot.ldsWatches();
    for (BreakpointSpec.Watch w : ws) {
      if (address < w.address() + w.length() && w.address() < address + size) return true;
    }
    return false;
  }

  @Override
  public void accessed(AddressSpace space, long address, int size, boolean write, long oldValue, long newValue,
      boolean valuesKnown) {
    boolean global = space == AddressSpace.GLOBAL;
    BreakpointSpec.Watch[] ws = global ? watchSnapshot.globalWatches() : watchSnapshot.ldsWatches();
    int[] ids = global ? watchSnapshot.globalIds() : watchSnapshot.ldsIds();
    for (int i = 0; i < ws.length; i++) {
      BreakpointSpec.Watch w = ws[i];
      // Like a hardware watchpoint, a write stops the program even when it stores the value already there.
      if (address < w.address() + w.length() && w.address() < address + size && w.kind().on(write)) {
        if (hits.size() < 16) hits.add(new WatchHit(ids[i], w, address, size, write, oldValue, newValue, valuesKnown));
      }
    }
  }

  // ---- the view

  @Override
  public KernelLaunch launch() {
    return launch;
  }

  @Override
  public long dispatchNumber() {
    return number;
  }

  @Override
  public StopEvent stop() {
    return stop;
  }

  @Override
  public List<Wave> waves() {
    List<Wave> out = new ArrayList<>();
    List<Workgroup> groups = new ArrayList<>(resident);
    groups.sort((a, b) -> Long.compare(a.index(), b.index()));
    for (Workgroup g : groups) for (int i = 0; i < g.waveCount(); i++) out.add(g.wave(i));
    return out;
  }

  @Override
  public int number(Wave w) {
    return (int) (w.group.index() * wavesPerGroup + w.waveInGroup);
  }

  private Wave findWave(int n) {
    if (n < 0) return null;
    long group = n / wavesPerGroup;
    int inGroup = n % wavesPerGroup;
    for (Workgroup g : resident) {
      if (g.index() == group && inGroup < g.waveCount()) return g.wave(inGroup);
    }
    return null;
  }

  @Override
  public Wave wave(int n) throws DebugException {
    Wave w = findWave(n);
    if (w == null) throw new DebugException("there is no wave " + n + " in this dispatch now (see info waves)");
    return w;
  }

  @Override
  public CodeObjects code() {
    return debugger.code();
  }

  @Override
  public Instruction decode(long pc) throws DebugException {
    try {
      return code.decode(pc, memory);
    } catch (GpuMemoryFault f) {
      throw new DebugException(String.format("cannot read an instruction at 0x%x: %s", pc, f.reason()));
    }
  }

  @Override
  public byte[] read(AddressSpace space, Wave w, int lane, long address, int length) throws DebugException {
    if (length < 0) throw new DebugException("negative length");
    switch (space) {
      case LDS: {
        if (w == null) throw new DebugException("LDS belongs to a workgroup: select a wave first");
        Lds lds = w.group.lds();
        if (address < 0 || address >= lds.size()) {
          throw new DebugException(String.format("lds:0x%x is outside the workgroup's %d bytes of LDS", address,
              lds.size()));
        }
        int n = (int) Math.min(length, lds.size() - address);
        return lds.read((int) address, n);
      }
      case PRIVATE: {
        if (w == null) throw new DebugException("private memory belongs to a lane: select a wave first");
        if (lane < 0 || lane >= Wave.LANES) throw new DebugException("lane " + lane + " is not 0-63");
        if (address < 0 || address >= w.scratchPerLane) {
          throw new DebugException(String.format("private:0x%x is outside the %d bytes of private memory per lane",
              address, w.scratchPerLane));
        }
        int n = (int) Math.min(length, w.scratchPerLane - address);
        byte[] out = new byte[n];
        for (int i = 0; i < n; i++) {
          long p = address + i;
          long at = w.scratchBase + (p >>> 2) * (4L * Wave.LANES) + 4L * lane + (p & 3);
          try {
            out[i] = memory.load8(at);
          } catch (GpuMemoryFault f) {
            return Arrays.copyOf(out, i);
          }
        }
        return out;
      }
      default: {
        byte[] out = new byte[length];
        int done = 0;
        while (done < length) {
          // page by page, so that a fault keeps what was readable before it
          int chunk = (int) Math.min(length - done, 4096 - ((address + done) & 4095));
          try {
            memory.read(address + done, out, done, chunk);
          } catch (GpuMemoryFault f) {
            if (done == 0) throw new DebugException(String.format("cannot read global:0x%x: %s", address, f.reason()));
            return Arrays.copyOf(out, done);
          }
          done += chunk;
        }
        return out;
      }
    }
  }

  @Override
  public int sgprCount() {
    return Math.min(102, Math.max(16, launch.descriptor().nextFreeSgpr()));
  }

  @Override
  public int vgprCount() {
    int all = launch.vgprsPerWave();
    int acc = launch.accumulationOffset();
    return acc > 0 && acc < all ? acc : all;
  }

  @Override
  public int agprCount() {
    int all = launch.vgprsPerWave();
    int acc = launch.accumulationOffset();
    return acc > 0 && acc < all ? all - acc : 0;
  }

  static String status(Wave w) {
    switch (w.status) {
      case AT_BARRIER: return "at barrier";
      case SLEEPING: return "sleeping";
      case DONE: return "done";
      default: return "running";
    }
  }
}
