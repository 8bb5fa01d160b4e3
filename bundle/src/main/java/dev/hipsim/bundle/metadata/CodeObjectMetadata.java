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

  public Optional<KernelMetadata> kernel(String name) {
    return kernels.stream().filter(k -> k.name().equals(name)).findFirst();
  }

  public Optional<KernelMetadata> kernelBySymbol(String symbol) {
    return kernels.stream().filter(k -> k.symbol().equals(symbol)).findFirst();
  }
}
