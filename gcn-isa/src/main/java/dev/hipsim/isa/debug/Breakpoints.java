package dev.hipsim.isa.debug;

import dev.hipsim.isa.debug.symbols.CodeObjects;
import dev.hipsim.isa.debug.symbols.FunctionSymbol;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.eclipse.collections.impl.map.mutable.primitive.LongObjectHashMap;

/**
 * The breakpoints and watchpoints of a debugging session, in the groups the Debug Adapter Protocol sets them (each
 * call replaces one group: functions, instructions, the lines of one file, watchpoints). Breakpoints resolve to
 * addresses against the loaded code objects, now and whenever code is loaded; the dispatch reads an immutable
 * snapshot, so setting breakpoints while it runs is safe.
 */
final class Breakpoints {
  /** One breakpoint: its stable id and what it asks for. */
  private record Entry(int id, BreakpointSpec spec) {}

  /** What a running dispatch checks: breakpoint ids by PC, and the watchpoints per address space. */
  record Snapshot(LongObjectHashMap<int[]> byPc, BreakpointSpec.Watch[] globalWatches, int[] globalIds,
      BreakpointSpec.Watch[] ldsWatches, int[] ldsIds) {
    static final Snapshot EMPTY = new Snapshot(new LongObjectHashMap<>(), new BreakpointSpec.Watch[0], new int[0],
        new BreakpointSpec.Watch[0], new int[0]);

    int[] at(long pc) {
      return byPc.isEmpty() ? null : byPc.get(pc);
    }
  }

  private final CodeObjects code;
  private int nextId = 1;
  private List<Entry> functions = List.of();
  private List<Entry> instructions = List.of();
  private List<Entry> watches = List.of();
  private final Map<String, List<Entry>> lines = new LinkedHashMap<>();
  private final Map<Integer, BreakpointStatus> resolved = new LinkedHashMap<>();
  private volatile Snapshot snapshot = Snapshot.EMPTY;

  Breakpoints(CodeObjects code) {
    this.code = code;
  }

  Snapshot snapshot() {
    return snapshot;
  }

  synchronized List<BreakpointStatus> setFunctions(List<BreakpointSpec.Function> specs) {
    functions = renumber(functions, specs);
    return publish(functions);
  }

  synchronized List<BreakpointStatus> setInstructions(List<BreakpointSpec.Address> specs) {
    instructions = renumber(instructions, specs);
    return publish(instructions);
  }

  synchronized List<BreakpointStatus> setLines(String file, List<BreakpointSpec.Line> specs) {
    List<Entry> e = renumber(lines.getOrDefault(file, List.of()), specs);
    if (e.isEmpty()) lines.remove(file);
    else lines.put(file, e);
    return publish(e);
  }

  synchronized List<BreakpointStatus> setWatches(List<BreakpointSpec.Watch> specs) {
    watches = renumber(watches, specs);
    return publish(watches);
  }

  synchronized void clear() {
    functions = List.of();
    instructions = List.of();
    watches = List.of();
    lines.clear();
    publish(List.of());
  }

  synchronized List<BreakpointStatus> all() {
    List<BreakpointStatus> out = new ArrayList<>();
    for (Entry e : entries()) out.add(resolved.get(e.id()));
    return out;
  }

  /** Resolves everything again (code was loaded or unloaded); returns the breakpoints whose resolution changed. */
  synchronized List<BreakpointStatus> refresh() {
    Map<Integer, BreakpointStatus> before = new LinkedHashMap<>(resolved);
    publish(List.of());
    List<BreakpointStatus> changed = new ArrayList<>();
    for (Map.Entry<Integer, BreakpointStatus> e : resolved.entrySet()) {
      BreakpointStatus old = before.get(e.getKey());
      BreakpointStatus now = e.getValue();
      if (old == null || old.verified() != now.verified() || !old.addresses().equals(now.addresses())) {
        changed.add(now);
      }
    }
    return changed;
  }

  private List<Entry> renumber(List<Entry> old, List<? extends BreakpointSpec> specs) {
    List<Entry> out = new ArrayList<>();
    List<Entry> available = new ArrayList<>(old);
    for (BreakpointSpec s : specs) {
      Entry reuse = null;
      for (Entry e : available) {
        if (e.spec().equals(s)) {
          reuse = e;
          break;
        }
      }
      if (reuse != null) available.remove(reuse);
      out.add(reuse != null ? reuse : new Entry(nextId++, s));
    }
    return List.copyOf(out);
  }

  private List<Entry> entries() {
    List<Entry> all = new ArrayList<>(functions);
    all.addAll(instructions);
    lines.values().forEach(all::addAll);
    all.addAll(watches);
    return all;
  }

  /** Resolves every breakpoint, publishes a new snapshot, and returns the statuses of {@code group}. */
  private List<BreakpointStatus> publish(List<Entry> group) {
    resolved.clear();
    LongObjectHashMap<int[]> byPc = new LongObjectHashMap<>();
    List<BreakpointSpec.Watch> gw = new ArrayList<>();
    List<Integer> gi = new ArrayList<>();
    List<BreakpointSpec.Watch> lw = new ArrayList<>();
    List<Integer> li = new ArrayList<>();
    for (Entry e : entries()) {
      BreakpointStatus st = resolve(e);
      resolved.put(e.id(), st);
      for (long pc : st.addresses()) {
        int[] ids = byPc.get(pc);
        int[] grown = ids == null ? new int[1] : java.util.Arrays.copyOf(ids, ids.length + 1);
        grown[grown.length - 1] = e.id();
        byPc.put(pc, grown);
      }
      if (e.spec() instanceof BreakpointSpec.Watch w) {
        (w.space() == AddressSpace.GLOBAL ? gw : lw).add(w);
        (w.space() == AddressSpace.GLOBAL ? gi : li).add(e.id());
      }
    }
    snapshot = new Snapshot(byPc, gw.toArray(new BreakpointSpec.Watch[0]), gi.stream().mapToInt(i -> i).toArray(),
        lw.toArray(new BreakpointSpec.Watch[0]), li.stream().mapToInt(i -> i).toArray());
    List<BreakpointStatus> out = new ArrayList<>();
    for (Entry e : group) out.add(resolved.get(e.id()));
    return out;
  }

  private BreakpointStatus resolve(Entry e) {
    BreakpointSpec s = e.spec();
    if (s instanceof BreakpointSpec.Function f) {
      List<Long> at = new ArrayList<>();
      String where = null;
      for (FunctionSymbol fn : code.findFunctions(f.name())) {
        if (f.offset() < 0 || (fn.size() > 0 && f.offset() >= fn.size())) {
          return new BreakpointStatus(e.id(), s, false, List.of(), "offset 0x" + Long.toHexString(f.offset())
              + " is outside " + fn.displayName() + " (" + fn.size() + " bytes)", null);
        }
        at.add(fn.address() + f.offset());
        if (where == null) where = code.describe(fn.address() + f.offset());
      }
      if (at.isEmpty()) {
        return new BreakpointStatus(e.id(), s, false, List.of(), "no function " + f.name()
            + " in the code loaded so far (pending)", null);
      }
      return new BreakpointStatus(e.id(), s, true, List.copyOf(at), null, lineOf(at.get(0), where));
    }
    if (s instanceof BreakpointSpec.Address a) {
      boolean known = code.codeAt(a.pc()).isPresent();
      return new BreakpointStatus(e.id(), s, known, List.of(a.pc()), known ? null
          : String.format("no code object is loaded at 0x%x (pending)", a.pc()), known ? lineOf(a.pc(),
              code.describe(a.pc())) : null);
    }
    if (s instanceof BreakpointSpec.Line l) {
      Optional<CodeObjects.LineResolution> r = code.resolveLine(l.file(), l.line());
      if (r.isEmpty()) {
        return new BreakpointStatus(e.id(), s, false, List.of(), "no code for " + l.file() + ":" + l.line()
            + " in the code loaded so far (pending)", null);
      }
      String where = shortName(r.get().path()) + ":" + r.get().line();
      return new BreakpointStatus(e.id(), s, true, r.get().addresses(), null, where);
    }
    return new BreakpointStatus(e.id(), s, true, List.of(), null, s.toString());
  }

  private String lineOf(long pc, String fallback) {
    return code.lineAt(pc).map(l -> Objects.requireNonNull(fallback) + " at " + l).orElse(fallback);
  }

  private static String shortName(String path) {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? path : path.substring(slash + 1);
  }
}
