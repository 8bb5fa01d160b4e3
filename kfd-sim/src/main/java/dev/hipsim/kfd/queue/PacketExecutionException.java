package dev.hipsim.kfd.queue;

/** A packet could not be executed (bad kernel descriptor, illegal instruction ...): the queue stops. */
public class PacketExecutionException extends Exception {
  private static final long serialVersionUID = 1L;

  public PacketExecutionException(String message) {
    super(message);
  }

  public PacketExecutionException(String message, Throwable cause) {
    super(message, cause);
  }
}
