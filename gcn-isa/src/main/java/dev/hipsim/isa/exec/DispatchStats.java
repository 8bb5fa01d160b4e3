package dev.hipsim.isa.exec;

/** What a completed dispatch did: counts and wall time. */
public record DispatchStats(long workgroups, long waves, long waveInstructions, long nanos) {
  /** Active MIPS: millions of wave-instructions per second of dispatch time. */
  public double activeMips() {
    return nanos == 0 ? 0 : waveInstructions * 1e3 / nanos;
  }
}
