package dev.hipsim.hip.abi;

/** The ABI description (hip-api.tsv / hip-types.tsv) is malformed; the message names the file and line. */
public class AbiFormatException extends Exception {
  private static final long serialVersionUID = 1L;

  public AbiFormatException(String message) {
    super(message);
  }
}
