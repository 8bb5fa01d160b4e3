package dev.hipsim.bench.regress;

import java.nio.file.Path;

/** A JMH result file that cannot be read or is not what {@code -rf json} writes. */
public final class ResultsFormatException extends Exception {
  public ResultsFormatException(Path file, String problem, Throwable cause) {
    super(file + ": " + problem, cause);
  }
}
