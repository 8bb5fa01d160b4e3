package dev.hipsim.bundle.metadata;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The decoded {@code NT_AMDGPU_METADATA} note of a code object (v3 to v6).
 *
 * @param version {@code amdhsa.version}
 * @param target {@code amdhsa.target}, e.g. {@code amdgcn-amd-amdhsa--gfx90a:xnack-} (v4+)
 * @param kernels {@code amdhsa.kernels}
 * @param printf {@code amdhsa.printf}, when the code uses buffered printf
 * @param globals {@code amdhsa.globals}
 * @param otherFields top-level keys this decoder does not model, with their values as text
 */
public record CodeObjectMetadata(MetadataVersion version, Optional<String> target, List<KernelMetadata> kernels,
    List<PrintfFormat> printf, List<GlobalVariable> globals, Map<String, String> otherFields) {

  // Loops, not streams: these run at a program's first launch, where a cold JVM links every lambda it meets.

  public Optional<KernelMetadata> kernel(String name) {
    for (KernelMetadata k : kernels) {
      if (k.name().equals(name)) return Optional.of(k);
    }
    return Optional.empty();
  }

  public Optional<KernelMetadata> kernelBySymbol(String symbol) {
    for (KernelMetadata k : kernels) {
      if (k.symbol().equals(symbol)) return Optional.of(k);
    }
    return Optional.empty();
  }
}
