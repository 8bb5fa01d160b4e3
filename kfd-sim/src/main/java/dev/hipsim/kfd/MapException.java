package dev.hipsim.kfd;

/** MAP/UNMAP_MEMORY_TO/FROM_GPU failed on one device; {@link #successes()} is the ioctl's {@code n_success}. */
public class MapException extends KfdException {
  private static final long serialVersionUID = 1L;
  private final int successes;

  public MapException(Errno errno, String ioctl, String message, int successes) {
    super(errno, ioctl, message + " (" + successes + " device(s) done)");
    this.successes = successes;
  }

  public int successes() {
    return successes;
  }
}
