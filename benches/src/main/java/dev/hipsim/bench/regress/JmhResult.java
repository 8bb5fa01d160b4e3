package dev.hipsim.bench.regress;

/**
 * One benchmark's score in a JMH JSON result file.
 *
 * @param key the benchmark's method name with its parameters, e.g. {@code dev.hipsim.bench.DispatchBench.run
 *     {kernel=sgemm}}: what identifies the same measurement in two files
 * @param mode JMH's mode: {@code thrpt} (higher is better) or {@code avgt}, {@code sample}, {@code ss} (lower is)
 * @param score the primary metric
 * @param error the half-width of its 99.9% confidence interval (0 when JMH could not compute one)
 * @param unit the score's unit, e.g. {@code ops/s} or {@code us/op}
 */
public record JmhResult(String key, String mode, double score, double error, String unit) {
  /** Whether a larger score is better (throughput) rather than a smaller one (time per operation). */
  public boolean higherIsBetter() {
    return mode.equals("thrpt");
  }

  /**
   * How much slower {@code now} is than this result, as a fraction: 0.25 means it takes 25% more time per operation
   * (or does 1/1.25 of the operations per second); negative when it is faster.
   */
  public double slowdownTo(JmhResult now) {
    return higherIsBetter() ? score / now.score - 1 : now.score / score - 1;
  }
}
