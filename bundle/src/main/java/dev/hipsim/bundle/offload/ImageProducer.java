package dev.hipsim.bundle.offload;

/** Which offloading model produced an OffloadBinary image ({@code llvm::object::OffloadKind}, a bit flag). */
public enum ImageProducer {
  NONE(0, "none"),
  OPENMP(1, "openmp"),
  CUDA(2, "cuda"),
  HIP(4, "hip"),
  SYCL(8, "sycl");

  private final int code;
  private final String displayName;

  ImageProducer(int code, String displayName) {
    this.code = code;
    this.displayName = displayName;
  }

  public int code() {
    return code;
  }

  /** The name {@code llvm-objdump --offloading} prints after {@code producer}. */
  public String displayName() {
    return displayName;
  }

  public static ImageProducer ofCode(int code) {
    for (ImageProducer p : values()) {
      if (p.code == code) return p;
    }
    return NONE;
  }
}
