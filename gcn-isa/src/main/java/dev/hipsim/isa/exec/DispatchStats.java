package dev.hipsim.isa.exec;

/**
 * What a completed dispatch did: counts and wall time.
 *
 * @param mix wave-instructions per {@link InstructionMix} category (all zero when the executor does not count them)
 */
public record DispatchStats(long workgroups, long waves, long waveInstructions, long nanos, long[] mix) {
  public DispatchStats(long workgroups, long waves, long waveInstructions, long nanos) {
    this(workgroups, waves, waveInstructions, nanos, new long[InstructionMix.COUNT]);
  }

  /** Active MIPS: millions of wave-instructions per second of dispatch time. */
  public double activeMips() {
    return nanos == 0 ? 0 : waveInstructions * 1e3 / nanos;
  }
}
