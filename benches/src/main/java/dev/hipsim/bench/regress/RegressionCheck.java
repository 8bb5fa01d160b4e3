package dev.hipsim.bench.regress;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Compares a new JMH JSON result with a stored one and fails on a slowdown:
 * {@code java -cp benches/target/benchmarks.jar dev.hipsim.bench.regress.RegressionCheck BASELINE.json NEW.json
 * [--threshold PERCENT]}. A benchmark regresses when it is more than the threshold slower (default
 * {@value #DEFAULT_THRESHOLD_PERCENT}%) and the difference is larger than the two scores' error margins together, so
 * that noise on a shared machine alone does not fail it. Exit status: 0 none regressed, 1 some did, 2 bad usage or
 * an unreadable file. Benchmarks in only one of the files are listed and do not fail the check.
 */
public final class RegressionCheck {
  static final double DEFAULT_THRESHOLD_PERCENT = 15;

  /** The verdict on one benchmark present in both files. */
  public record Comparison(JmhResult baseline, JmhResult now, double slowdown, boolean regressed) {}

  private RegressionCheck() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    double threshold = DEFAULT_THRESHOLD_PERCENT;
    List<String> files = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--threshold") && i + 1 < args.length) {
        try {
          threshold = Double.parseDouble(args[++i]);
        } catch (NumberFormatException e) {
          threshold = Double.NaN;
        }
        if (!(threshold >= 0)) {
          err.println("regression check: --threshold wants a percentage >= 0, got " + args[i]);
          return 2;
        }
      } else {
        files.add(args[i]);
      }
    }
    if (files.size() != 2) {
      err.println("usage: RegressionCheck BASELINE.json NEW.json [--threshold PERCENT]");
      return 2;
    }
    Map<String, JmhResult> baseline;
    Map<String, JmhResult> now;
    try {
      baseline = JmhResults.read(Path.of(files.get(0)));
      now = JmhResults.read(Path.of(files.get(1)));
    } catch (ResultsFormatException e) {
      err.println("regression check: " + e.getMessage());
      return 2;
    }
    int regressions = 0;
    out.printf(Locale.ROOT, "%-70s %14s %14s %10s%n", "benchmark", "baseline", "now", "slowdown");
    for (JmhResult b : baseline.values()) {
      JmhResult n = now.get(b.key());
      if (n == null) {
        out.printf(Locale.ROOT, "%-70s %14s %14s %10s%n", b.key(), format(b), "-", "not run");
        continue;
      }
      if (!n.unit().equals(b.unit()) || !n.mode().equals(b.mode())) {
        err.printf("regression check: %s is measured in %s %s in the baseline and in %s %s now%n", b.key(),
            b.mode(), b.unit(), n.mode(), n.unit());
        return 2;
      }
      Comparison c = compare(b, n, threshold / 100);
      if (c.regressed()) regressions++;
      out.printf(Locale.ROOT, "%-70s %14s %14s %+9.1f%%%s%n", b.key(), format(b), format(n), 100 * c.slowdown(),
          c.regressed() ? "  REGRESSION" : "");
    }
    for (JmhResult n : now.values()) {
      if (!baseline.containsKey(n.key())) {
        out.printf(Locale.ROOT, "%-70s %14s %14s %10s%n", n.key(), "-", format(n), "new");
      }
    }
    out.printf(Locale.ROOT, "%d regression(s) beyond %.1f%%%n", regressions, threshold);
    return regressions == 0 ? 0 : 1;
  }

  /** The verdict on {@code now} against {@code baseline}; {@code threshold} is a fraction (0.15 = 15%). */
  public static Comparison compare(JmhResult baseline, JmhResult now, double threshold) {
    double slowdown = baseline.slowdownTo(now);
    boolean beyondNoise = Math.abs(now.score() - baseline.score()) > baseline.error() + now.error();
    return new Comparison(baseline, now, slowdown, slowdown > threshold && beyondNoise);
  }

  private static String format(JmhResult r) {
    return String.format(Locale.ROOT, "%.4g %s", r.score(), r.unit());
  }
}
