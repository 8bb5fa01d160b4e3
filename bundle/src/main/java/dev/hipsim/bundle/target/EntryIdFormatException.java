package dev.hipsim.bundle.target;

/** A bundle entry ID or target ID does not follow clang's grammar. The message quotes the text and says why. */
public final class EntryIdFormatException extends Exception {
  private static final long serialVersionUID = 1L;

  public EntryIdFormatException(String text, String problem) {
    super("'" + text + "' is not a valid " + problem);
  }
}
