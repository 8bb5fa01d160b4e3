package dev.hipsim.kfd;

/**
 * A KFD call failed the way the real ioctl would: with an errno, the ioctl's name, and a message naming the
 * argument that was wrong.
 */
public class KfdException extends Exception {
  private static final long serialVersionUID = 1L;

  private final Errno errno;
  private final String ioctl;

  public KfdException(Errno errno, String ioctl, String message) {
    super(ioctl + ": " + errno + ": " + message);
    this.errno = errno;
    this.ioctl = ioctl;
  }

  public Errno errno() {
    return errno;
  }

  /** The ioctl that failed, e.g. {@code AMDKFD_IOC_ALLOC_MEMORY_OF_GPU}. */
  public String ioctl() {
    return ioctl;
  }
}
