package dev.hipsim.bench.regress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RegressionCheckTest {
  @TempDir Path dir;

  /** One entry as JMH 1.37 writes it with -rf json (fields the check does not read left out). */
  private static String entry(String benchmark, String mode, String params, double score, String error, String unit) {
    return String.format(Locale.ROOT, """
        { "jmh": "1.37", "benchmark": "%s", "mode": "%s", "threads": 1, "forks": 1,
          "params": { %s },
          "primaryMetric": { "score": %s, "scoreError": %s, "scoreConfidence": [0, 0], "scoreUnit": "%s",
                             "rawData": [[1.0]] },
          "secondaryMetrics": {} }""", benchmark, mode, params, score, error, unit);
  }

  private Path file(String name, String... entries) throws Exception {
    Path p = dir.resolve(name);
    Files.writeString(p, "[" + String.join(",", entries) + "]");
    return p;
  }

  private record Run(int status, String out, String err) {}

  private static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = RegressionCheck.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void readsKeysWithSortedParametersAndNanErrors() throws Exception {
    Path p = file("a.json",
        entry("x.DispatchBench.run", "avgt", "\"kernel\": \"sgemm\", \"threads\": \"2\"", 12.5, "\"NaN\"", "ms/op"),
        entry("x.ElfParseBench.codeObject", "thrpt", "", 4.0e5, "1000.0", "ops/s"));
    Map<String, JmhResult> r = JmhResults.read(p);
    assertThat(r).containsOnlyKeys("x.DispatchBench.run {kernel=sgemm,threads=2}", "x.ElfParseBench.codeObject");
    assertThat(r.get("x.DispatchBench.run {kernel=sgemm,threads=2}").error()).isZero();
    assertThat(r.get("x.ElfParseBench.codeObject").error()).isEqualTo(1000.0);
  }

  @Test
  void failsOnASlowdownBeyondThresholdAndNoise() throws Exception {
    Path base = file("base.json", entry("b.A.t", "thrpt", "", 1000, "10", "ops/s"),
        entry("b.A.avg", "avgt", "", 2.0, "0.01", "us/op"));
    Path slower = file("slow.json", entry("b.A.t", "thrpt", "", 800, "10", "ops/s"),
        entry("b.A.avg", "avgt", "", 2.1, "0.01", "us/op"));
    Run r = run(base.toString(), slower.toString(), "--threshold", "10");
    assertThat(r.status()).as(r.out()).isEqualTo(1);
    assertThat(r.out()).contains("b.A.t").contains("+25.0%  REGRESSION").contains("+5.0%")
        .contains("1 regression(s) beyond 10.0%");
  }

  @Test
  void passesWhenTheDifferenceIsWithinTheErrorMargins() throws Exception {
    Path base = file("base.json", entry("b.A.t", "thrpt", "", 1000, "300", "ops/s"));
    Path now = file("now.json", entry("b.A.t", "thrpt", "", 700, "200", "ops/s"));
    assertThat(run(base.toString(), now.toString()).status()).isZero();
  }

  @Test
  void listsBenchmarksInOnlyOneFileWithoutFailing() throws Exception {
    Path base = file("base.json", entry("b.A.gone", "thrpt", "", 1, "0", "ops/s"));
    Path now = file("now.json", entry("b.A.added", "thrpt", "", 1, "0", "ops/s"));
    Run r = run(base.toString(), now.toString());
    assertThat(r.status()).isZero();
    assertThat(r.out()).containsPattern("b\\.A\\.gone .* not run").containsPattern("b\\.A\\.added .* new");
  }

  @Test
  void badInputIsAUsageErrorNamingTheFile() throws Exception {
    Path good = file("good.json", entry("b.A.t", "thrpt", "", 1, "0", "ops/s"));
    Path broken = dir.resolve("broken.json");
    Files.writeString(broken, "[{\"benchmark\": \"b\", \"mode\": \"thrpt\"}]");
    Run r = run(good.toString(), broken.toString());
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("broken.json").contains("entry 0 is not a JMH result");
    assertThat(run(good.toString(), dir.resolve("missing.json").toString()).err()).contains("cannot read");
    assertThat(run(good.toString()).status()).isEqualTo(2);
    assertThat(run(good.toString(), good.toString(), "--threshold", "-3").status()).isEqualTo(2);
    Path other = file("units.json", entry("b.A.t", "thrpt", "", 1, "0", "ops/ms"));
    assertThat(run(good.toString(), other.toString()).err()).contains("ops/s").contains("ops/ms");
    Path notArray = dir.resolve("obj.json");
    Files.writeString(notArray, "{}");
    assertThatThrownBy(() -> JmhResults.read(notArray)).isInstanceOf(ResultsFormatException.class)
        .hasMessageContaining("expected a JSON array");
  }

  @Property(tries = 300)
  void slowdownFollowsTheModeAndOnlyBeyondTheThresholdFails(@ForAll @DoubleRange(min = 1, max = 1e9) double score,
      @ForAll @DoubleRange(min = 0.2, max = 5) double factor, @ForAll boolean throughput,
      @ForAll @DoubleRange(min = 0, max = 0.5) double threshold) {
    String mode = throughput ? "thrpt" : "avgt";
    JmhResult base = new JmhResult("k", mode, score, 0, "u");
    // factor > 1 means `factor` times as much time per operation.
    JmhResult now = new JmhResult("k", mode, throughput ? score / factor : score * factor, 0, "u");
    RegressionCheck.Comparison c = RegressionCheck.compare(base, now, threshold);
    assertThat(c.slowdown()).isCloseTo(factor - 1, org.assertj.core.data.Offset.offset(1e-9 * factor));
    if (factor - 1 > threshold + 1e-9) assertThat(c.regressed()).isTrue();
    if (factor - 1 < threshold - 1e-9) assertThat(c.regressed()).isFalse();
    assertThat(RegressionCheck.compare(base, base, threshold).regressed()).isFalse();
  }
}
