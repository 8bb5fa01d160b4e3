package dev.hipsim.cli;

/** A problem with what the user gave hipsim (a file, a target name): reported in one line, exit status 1. */
public class InputException extends Exception {
  private static final long serialVersionUID = 1L;

  public InputException(String message) {
    super(message);
  }

  public InputException(String message, Throwable cause) {
    super(message, cause);
  }
}
