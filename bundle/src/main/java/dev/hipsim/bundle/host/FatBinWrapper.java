package dev.hipsim.bundle.host;

import java.util.OptionalInt;

/**
 * One 24-byte {@code __CudaFatBinaryWrapper} in {@code .hipFatBinSegment}: the argument of
 * {@code __hipRegisterFatBinary}.
 *
 * @param index position in the section
 * @param fileOffset file offset of the wrapper
 * @param kind HIPF or HIPK
 * @param version the version field (1 is the only one CLR accepts)
 * @param binaryAddress the resolved virtual address the {@code binary} field points to
 * @param pointerSource how that address was found
 * @param binaryFileOffset the file offset it corresponds to
 * @param reserved the fourth field (null for HIPF; kpack bundle index for HIPK)
 * @param bundleIndex the index of the bundle it points to among the bundles of {@code .hip_fatbin}
 */
public record FatBinWrapper(int index, long fileOffset, WrapperKind kind, long version, long binaryAddress,
    PointerSource pointerSource, long binaryFileOffset, long reserved, OptionalInt bundleIndex) {
  public static final int SIZE = 24;
}
