package dev.hipsim.cli;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import picocli.CommandLine;

/**
 * Turns a failure of a subcommand into hipsim's exit protocol: bad input (a file that cannot be read or parsed) is
 * one line on stderr and status 1; anything else is a bug, reported with its stack trace and status 70.
 */
final class ErrorReporter implements CommandLine.IExecutionExceptionHandler {
  static final int BAD_INPUT = 1;
  static final int INTERNAL_ERROR = 70;

  @Override
  public int handleExecutionException(Exception e, CommandLine cli, CommandLine.ParseResult parsed) {
    if (e instanceof NoSuchFileException) {
      cli.getErr().println("hipsim: " + e.getMessage() + ": no such file");
      return BAD_INPUT;
    }
    if (e instanceof InputException || e instanceof IOException) {
      cli.getErr().println("hipsim: " + e.getMessage());
      return BAD_INPUT;
    }
    cli.getErr().println("hipsim: internal error (please report): " + e);
    e.printStackTrace(cli.getErr());
    return INTERNAL_ERROR;
  }
}
