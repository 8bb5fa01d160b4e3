package dev.hipsim.isa.exec;

/**
 * How a dispatch is run.
 *
 * @param threads worker threads running workgroups in parallel (1 gives a deterministic schedule)
 * @param quantum instructions a wave runs before the scheduler may switch to another
 * @param maxResidentWorkgroups workgroups one worker keeps in flight at most; more are admitted only while all
 *     resident waves are waiting (spin loops that need other workgroups, cooperative grid barriers)
 * @param instructionLimit the watchdog's limit on wave-instructions for the whole dispatch (0: none)
 * @param timeLimitNanos the watchdog's limit on wall time for the whole dispatch (0: none)
 */
public record DispatchOptions(
    int threads, int quantum, int maxResidentWorkgroups, long instructionLimit, long timeLimitNanos) {

  public static DispatchOptions defaults() {
    return new DispatchOptions(Runtime.getRuntime().availableProcessors(), 4096, 8, 0, 0);
  }

  public DispatchOptions withThreads(int n) {
    return new DispatchOptions(n, quantum, maxResidentWorkgroups, instructionLimit, timeLimitNanos);
  }

  public DispatchOptions withInstructionLimit(long limit) {
    return new DispatchOptions(threads, quantum, maxResidentWorkgroups, limit, timeLimitNanos);
  }

  /** Residency per worker (a cooperative launch needs every workgroup resident at once). */
  public DispatchOptions withMaxResidentWorkgroups(int n) {
    return new DispatchOptions(threads, quantum, n, instructionLimit, timeLimitNanos);
  }

  public DispatchOptions withTimeLimit(long nanos) {
    return new DispatchOptions(threads, quantum, maxResidentWorkgroups, instructionLimit, nanos);
  }
}
