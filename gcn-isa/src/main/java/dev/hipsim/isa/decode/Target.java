package dev.hipsim.isa.decode;

import java.util.Locale;
import java.util.Optional;

/**
 * The processors whose instruction set hipsim decodes. gfx940 and gfx942 share one instruction set (LLVM decodes
 * both with its gfx940 feature set), gfx90a is CDNA2.
 */
public enum Target {
  GFX90A("gfx90a", false),
  GFX940("gfx940", true),
  GFX942("gfx942", true);

  private final String processor;
  private final boolean cdna3;

  Target(String processor, boolean cdna3) {
    this.processor = processor;
    this.cdna3 = cdna3;
  }

  /** The processor name, as in target IDs and {@code --mcpu}. */
  public String processor() {
    return processor;
  }

  /** Whether this is a CDNA3 (gfx940 family) processor: sc0/sc1/nt cache bits, fmamk/fmaak, new MFMAs. */
  public boolean isCdna3() {
    return cdna3;
  }

  /** The {@code --mcpu} LLVM 22 accepts for this target (LLVM 22 no longer knows gfx940). */
  public String llvmCpu() {
    return cdna3 ? "gfx942" : processor;
  }

  /**
   * The target of a target ID such as {@code gfx942:sramecc+:xnack-} or {@code amdgcn-amd-amdhsa--gfx90a}, or empty
   * when its processor is not one hipsim decodes.
   */
  public static Optional<Target> fromTargetId(String targetId) {
    if (targetId == null) return Optional.empty();
    String id = targetId.trim().toLowerCase(Locale.ROOT);
    int dashes = id.lastIndexOf("--");
    if (dashes >= 0) id = id.substring(dashes + 2);
    int colon = id.indexOf(':');
    String processor = colon >= 0 ? id.substring(0, colon) : id;
    for (Target t : values()) {
      if (t.processor.equals(processor)) return Optional.of(t);
    }
    return Optional.empty();
  }
}
