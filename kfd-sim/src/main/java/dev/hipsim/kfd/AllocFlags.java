package dev.hipsim.kfd;

/** {@code KFD_IOC_ALLOC_MEM_FLAGS_*} from kfd_ioctl.h: the memory type and its attributes. */
public final class AllocFlags {
  private AllocFlags() {}

  public static final int VRAM = 1;
  public static final int GTT = 1 << 1;
  public static final int USERPTR = 1 << 2;
  public static final int DOORBELL = 1 << 3;
  public static final int MMIO_REMAP = 1 << 4;
  public static final int CONTIGUOUS = 1 << 23;
  public static final int EXT_COHERENT = 1 << 24;
  public static final int UNCACHED = 1 << 25;
  public static final int COHERENT = 1 << 26;
  public static final int AQL_QUEUE_MEM = 1 << 27;
  public static final int NO_SUBSTITUTE = 1 << 28;
  public static final int PUBLIC = 1 << 29;
  public static final int EXECUTABLE = 1 << 30;
  public static final int WRITABLE = 1 << 31;

  public static String describe(int flags) {
    StringBuilder s = new StringBuilder();
    String[] names = {"VRAM", "GTT", "USERPTR", "DOORBELL", "MMIO_REMAP"};
    for (int i = 0; i < names.length; i++) if ((flags & (1 << i)) != 0) s.append(names[i]).append('|');
    String[] high = {"CONTIGUOUS", "EXT_COHERENT", "UNCACHED", "COHERENT", "AQL_QUEUE_MEM", "NO_SUBSTITUTE",
        "PUBLIC", "EXECUTABLE", "WRITABLE"};
    for (int i = 0; i < high.length; i++) if ((flags & (1 << (23 + i))) != 0) s.append(high[i]).append('|');
    return s.length() == 0 ? "0" : s.substring(0, s.length() - 1);
  }
}
