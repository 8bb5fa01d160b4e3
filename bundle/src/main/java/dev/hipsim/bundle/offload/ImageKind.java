package dev.hipsim.bundle.offload;

/** What an OffloadBinary image holds ({@code llvm::object::ImageKind}). */
public enum ImageKind {
  NONE(0, "<none>", "bin"),
  OBJECT(1, "elf", "o"),
  BITCODE(2, "llvm ir", "bc"),
  CUBIN(3, "cubin", "cubin"),
  FATBINARY(4, "fatbinary", "fatbin"),
  PTX(5, "ptx", "s"),
  SPIRV(6, "spir-v", "spv"),
  UNKNOWN(-1, "<none>", "bin");

  private final int code;
  private final String objdumpName;
  private final String extension;

  ImageKind(int code, String objdumpName, String extension) {
    this.code = code;
    this.objdumpName = objdumpName;
    this.extension = extension;
  }

  public int code() {
    return code;
  }

  /** The name {@code llvm-objdump --offloading} prints after {@code kind}. */
  public String objdumpName() {
    return objdumpName;
  }

  /** File extension LLVM uses for such an image. */
  public String extension() {
    return extension;
  }

  public static ImageKind ofCode(int code) {
    for (ImageKind k : values()) {
      if (k.code == code) return k;
    }
    return UNKNOWN;
  }
}
