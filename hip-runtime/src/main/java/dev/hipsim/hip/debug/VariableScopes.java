package dev.hipsim.hip.debug;

import dev.hipsim.isa.debug.DebugException;
import dev.hipsim.isa.debug.DispatchView;
import dev.hipsim.isa.debug.Evaluator;
import dev.hipsim.isa.exec.Lds;
import dev.hipsim.isa.exec.Wave;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.lsp4j.debug.Scope;
import org.eclipse.lsp4j.debug.Variable;

/**
 * The registers and LDS of a stopped wave as DAP scopes and variables. Variable references are handles into a
 * table that is emptied whenever the program resumes (DAP references are only valid while stopped).
 */
final class VariableScopes {
  /** Produces a container's variables on the dispatch thread. */
  @FunctionalInterface
  interface Container {
    List<Variable> variables(DispatchView view) throws DebugException;
  }

  private final Map<Integer, Container> handles = new HashMap<>();
  private int next = 1;

  synchronized void clear() {
    handles.clear();
    next = 1;
  }

  synchronized int add(Container c) {
    int id = next++;
    handles.put(id, c);
    return id;
  }

  synchronized Container get(int reference) throws DebugException {
    Container c = handles.get(reference);
    if (c == null) throw new DebugException("variables reference " + reference + " is not valid (the program ran)");
    return c;
  }

  /** The scopes of wave {@code waveNumber}. */
  List<Scope> scopes(DispatchView view, int waveNumber) throws DebugException {
    Wave w = view.wave(waveNumber);
    List<Scope> out = new ArrayList<>();
    out.add(scope("Special registers", "registers", add(v -> specials(v, v.wave(waveNumber))), 11));
    out.add(scope("SGPRs", "registers", add(v -> scalars(v.wave(waveNumber), v.sgprCount())), view.sgprCount()));
    out.add(scope("VGPRs (64 lanes)", "registers", add(v -> vectors(v.wave(waveNumber), "v", v.vgprCount(), 0)),
        view.vgprCount()));
    if (view.agprCount() > 0) {
      out.add(scope("AGPRs (64 lanes)", "registers", add(v -> vectors(v.wave(waveNumber), "a", v.agprCount(),
          v.wave(waveNumber).accOffset)), view.agprCount()));
    }
    Lds lds = w.group.lds();
    if (lds.size() > 0) {
      out.add(scope("LDS (" + lds.size() + " bytes)", "registers", add(v -> ldsRows(v.wave(waveNumber))),
          (lds.size() + 15) / 16));
    }
    return out;
  }

  private static Scope scope(String name, String hint, int reference, int count) {
    Scope s = new Scope();
    s.setName(name);
    s.setPresentationHint(hint);
    s.setVariablesReference(reference);
    s.setNamedVariables(count);
    s.setExpensive(false);
    return s;
  }

  static Variable variable(String name, String value, String evaluateName) {
    Variable v = new Variable();
    v.setName(name);
    v.setValue(value);
    v.setEvaluateName(evaluateName);
    v.setVariablesReference(0);
    return v;
  }

  private static List<Variable> specials(DispatchView view, Wave w) {
    List<Variable> out = new ArrayList<>();
    out.add(variable("pc", String.format("0x%x <%s>", w.pc, view.code().describe(w.pc)), "pc"));
    out.add(variable("exec", String.format("0x%016x", w.exec()), "exec"));
    out.add(variable("vcc", String.format("0x%016x", w.vcc()), "vcc"));
    out.add(variable("scc", String.valueOf(w.scc), "scc"));
    out.add(variable("m0", String.format("0x%08x", w.s[Wave.M0]), "m0"));
    out.add(variable("mode", String.format("0x%08x", w.mode), "mode"));
    out.add(variable("status", String.format("0x%08x", Evaluator.status(w)), "status"));
    out.add(variable("trapsts", String.format("0x%08x", w.trapsts), "trapsts"));
    out.add(variable("flat_scratch", String.format("0x%016x", w.flatScratch()), "flat_scratch"));
    out.add(variable("workgroup", "(" + w.workgroupX + "," + w.workgroupY + "," + w.workgroupZ + ")", null));
    out.add(variable("wave in workgroup", String.valueOf(w.waveInGroup), null));
    return out;
  }

  private static List<Variable> scalars(Wave w, int count) {
    List<Variable> out = new ArrayList<>();
    for (int i = 0; i < count; i++) out.add(variable("s" + i, String.format("0x%08x", w.s[i]), "s" + i));
    return out;
  }

  private List<Variable> vectors(Wave w, String prefix, int count, int base) {
    List<Variable> out = new ArrayList<>();
    for (int r = 0; r < count; r++) {
      int reg = base + r;
      String name = prefix + r;
      StringBuilder summary = new StringBuilder("{");
      for (int l = 0; l < 4; l++) summary.append(String.format("0x%x, ", w.v[reg * Wave.LANES + l]));
      summary.append("…}");
      Variable v = variable(name, summary.toString(), name);
      v.setIndexedVariables(Wave.LANES);
      long exec = w.exec();
      v.setVariablesReference(add(view -> {
        List<Variable> lanes = new ArrayList<>();
        for (int l = 0; l < Wave.LANES; l++) {
          String value = String.format("0x%08x", w.v[reg * Wave.LANES + l]);
          if ((exec >>> l & 1) == 0) value += " (off)";
          lanes.add(variable("[" + l + "]", value, name + "[" + l + "]"));
        }
        return lanes;
      }));
      out.add(v);
    }
    return out;
  }

  private static List<Variable> ldsRows(Wave w) {
    Lds lds = w.group.lds();
    List<Variable> out = new ArrayList<>();
    // read() rather than load32(): the debugger's own look must not set off LDS watchpoints.
    byte[] b = lds.read(0, (lds.size() + 3) & ~3);
    for (int at = 0; at < lds.size(); at += 16) {
      StringBuilder sb = new StringBuilder();
      for (int d = at; d < Math.min(at + 16, lds.size()); d += 4) {
        int value = (b[d] & 0xff) | (b[d + 1] & 0xff) << 8 | (b[d + 2] & 0xff) << 16 | (b[d + 3] & 0xff) << 24;
        if (sb.length() > 0) sb.append(' ');
        sb.append(String.format("%08x", value));
      }
      Variable v = variable(String.format("0x%04x", at), sb.toString(), null);
      v.setMemoryReference(String.format("lds:0x%x", at));
      out.add(v);
    }
    return out;
  }
}
