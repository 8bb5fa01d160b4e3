package dev.hipsim.kfd;

/** {@code AMDKFD_IOC_GET_VERSION}: the KFD ioctl interface version (kfd_ioctl.h). */
public record KfdVersion(int major, int minor) {
  public static final KfdVersion CURRENT = new KfdVersion(1, 17);
}
