package dev.hipsim.bundle.host;

import java.util.Optional;

/** The magic of a {@code .hipFatBinSegment} wrapper. */
public enum WrapperKind {
  /** {@code 0x48495046} "HIPF": the pointer leads to an offload bundle in {@code .hip_fatbin}. */
  HIPF(0x48495046),
  /** {@code 0x4B504948} "HIPK" (newer CLR, kpack): the pointer leads to MessagePack metadata, code lives elsewhere. */
  HIPK(0x4B504948);

  private final int magic;

  WrapperKind(int magic) {
    this.magic = magic;
  }

  public int magic() {
    return magic;
  }

  public static Optional<WrapperKind> ofMagic(long magic) {
    for (WrapperKind k : values()) {
      if (k.magic == (int) magic && (magic >>> 32) == 0) return Optional.of(k);
    }
    return Optional.empty();
  }
}
