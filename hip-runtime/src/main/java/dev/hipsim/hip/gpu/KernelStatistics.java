package dev.hipsim.hip.gpu;

import dev.hipsim.isa.dispatch.DispatchPacket;
import dev.hipsim.isa.exec.DispatchStats;
import dev.hipsim.isa.exec.InstructionMix;
import dev.hipsim.kfd.shader.ShaderEngine;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Per-kernel totals of every completed dispatch ({@code hipsim run --stats}): launches, workgroups, waves,
 * wave-instructions by category, dispatch wall time, and active MIPS — wave-instructions per second of dispatch
 * time, the figure AMD's own emulator publishes.
 */
public final class KernelStatistics implements ShaderEngine.DispatchListener {
  /** Totals of one kernel. */
  public static final class Totals {
    long launches;
    long workgroups;
    long waves;
    long instructions;
    long nanos;
    final long[] mix = new long[InstructionMix.COUNT];

    public long launches() {
      return launches;
    }

    public long workgroups() {
      return workgroups;
    }

    public long waves() {
      return waves;
    }

    public long instructions() {
      return instructions;
    }

    public long nanos() {
      return nanos;
    }

    public long mix(int category) {
      return mix[category];
    }

    public double activeMips() {
      return nanos == 0 ? 0 : instructions * 1e3 / nanos;
    }
  }

  private final Map<String, Totals> kernels = new LinkedHashMap<>();

  @Override
  public synchronized void completed(String kernel, DispatchPacket packet, DispatchStats stats) {
    Totals t = kernels.computeIfAbsent(kernel, k -> new Totals());
    t.launches++;
    t.workgroups += stats.workgroups();
    t.waves += stats.waves();
    t.instructions += stats.waveInstructions();
    t.nanos += stats.nanos();
    for (int i = 0; i < InstructionMix.COUNT; i++) t.mix[i] += stats.mix()[i];
  }

  public synchronized Map<String, Totals> snapshot() {
    return new LinkedHashMap<>(kernels);
  }

  /** The report printed at exit: one header line, one line per kernel in first-launch order, and a total. */
  public synchronized List<String> report(String device) {
    List<String> lines = new ArrayList<>();
    lines.add("hipsim: kernel statistics on " + device + " (wave-instructions by category; time is dispatch wall "
        + "time)");
    StringBuilder h = new StringBuilder(String.format("%-40s %8s %10s %10s %14s", "kernel", "launches", "workgroups",
        "waves", "wave-instr"));
    for (int c = 0; c < InstructionMix.COUNT; c++) h.append(String.format(" %12s", InstructionMix.name(c)));
    h.append(String.format(" %10s %11s", "time(ms)", "active MIPS"));
    lines.add(h.toString());
    Totals all = new Totals();
    for (Map.Entry<String, Totals> e : kernels.entrySet()) {
      lines.add(line(e.getKey(), e.getValue()));
      Totals t = e.getValue();
      all.launches += t.launches;
      all.workgroups += t.workgroups;
      all.waves += t.waves;
      all.instructions += t.instructions;
      all.nanos += t.nanos;
      for (int i = 0; i < InstructionMix.COUNT; i++) all.mix[i] += t.mix[i];
    }
    if (kernels.size() != 1) lines.add(line("total", all));
    return lines;
  }

  private static String line(String name, Totals t) {
    StringBuilder sb = new StringBuilder(String.format("%-40s %8d %10d %10d %14d", name, t.launches, t.workgroups,
        t.waves, t.instructions));
    for (int c = 0; c < InstructionMix.COUNT; c++) sb.append(String.format(" %12d", t.mix[c]));
    sb.append(String.format(" %10.3f %11.2f", t.nanos / 1e6, t.activeMips()));
    return sb.toString();
  }
}
