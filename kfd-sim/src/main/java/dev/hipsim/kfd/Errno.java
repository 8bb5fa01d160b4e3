package dev.hipsim.kfd;

/** The Linux error numbers the KFD ioctls return, with their C names. */
public enum Errno {
  ESRCH(3),
  /** The process was closed (the /dev/kfd file descriptor is gone). */
  EBADF(9),
  ENOMEM(12),
  EFAULT(14),
  EBUSY(16),
  ENODEV(19),
  EINVAL(22),
  ENOSPC(28),
  EADDRINUSE(98),
  /** The kernel-internal "operation not supported" KFD returns for unknown queue types. */
  ENOTSUPP(524);

  private final int value;

  Errno(int value) {
    this.value = value;
  }

  /** The positive errno value (the ioctl returns its negation). */
  public int value() {
    return value;
  }
}
