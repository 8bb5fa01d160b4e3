package dev.hipsim.bundle.metadata;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One kernel of a code object ({@code amdhsa.kernels} entry): what the HSA loader and the HIP runtime need to
 * launch it.
 *
 * @param name the kernel's (mangled) name
 * @param symbol the kernel descriptor's symbol ({@code name.kd})
 * @param language source language ({@code OpenCL C}, {@code HIP} …)
 * @param languageVersion language version, e.g. [2, 0]
 * @param arguments every argument, explicit and hidden, in kernarg order
 * @param kernargSegmentSize bytes of the kernarg segment
 * @param kernargSegmentAlign its alignment
 * @param groupSegmentFixedSize static LDS bytes per work-group
 * @param privateSegmentFixedSize scratch bytes per work-item
 * @param wavefrontSize 32 or 64
 * @param sgprCount scalar registers per wave
 * @param vgprCount vector registers per work-item
 * @param agprCount accumulation registers per work-item (MAI targets)
 * @param maxFlatWorkgroupSize largest flat work-group size supported
 * @param sgprSpillCount SGPRs spilled
 * @param vgprSpillCount VGPRs spilled
 * @param usesDynamicStack whether the stack size is unknown at compile time (code object v5+)
 * @param uniformWorkGroupSize 1 when every dimension of the grid must be a multiple of the work-group size
 * @param workgroupProcessorMode WGP mode (GFX10+)
 * @param requiredWorkgroupSize {@code .reqd_workgroup_size}
 * @param workgroupSizeHint {@code .workgroup_size_hint}
 * @param vecTypeHint {@code .vec_type_hint}
 * @param deviceEnqueueSymbol {@code .device_enqueue_symbol}
 * @param kind {@code .kind} ({@code normal}, {@code init}, {@code fini})
 * @param clusterDims {@code .cluster_dims}
 * @param otherFields keys this decoder does not model, with their values as text
 */
public record KernelMetadata(
    String name,
    String symbol,
    Optional<String> language,
    List<Integer> languageVersion,
    List<KernelArgument> arguments,
    long kernargSegmentSize,
    long kernargSegmentAlign,
    long groupSegmentFixedSize,
    long privateSegmentFixedSize,
    int wavefrontSize,
    int sgprCount,
    int vgprCount,
    OptionalInt agprCount,
    int maxFlatWorkgroupSize,
    OptionalInt sgprSpillCount,
    OptionalInt vgprSpillCount,
    Optional<Boolean> usesDynamicStack,
    OptionalInt uniformWorkGroupSize,
    OptionalInt workgroupProcessorMode,
    Optional<Dim3> requiredWorkgroupSize,
    Optional<Dim3> workgroupSizeHint,
    Optional<String> vecTypeHint,
    Optional<String> deviceEnqueueSymbol,
    Optional<String> kind,
    Optional<Dim3> clusterDims,
    Map<String, String> otherFields) {

  // Loops, not streams: every launch asks these, the first on a cold JVM, which links every lambda it meets.

  /** The arguments a caller passes (not hidden). */
  public List<KernelArgument> explicitArguments() {
    return arguments(false);
  }

  /** The arguments the runtime fills in. */
  public List<KernelArgument> hiddenArguments() {
    return arguments(true);
  }

  private List<KernelArgument> arguments(boolean hidden) {
    java.util.ArrayList<KernelArgument> out = new java.util.ArrayList<>(arguments.size());
    for (KernelArgument a : arguments) {
      if (a.isHidden() == hidden) out.add(a);
    }
    return java.util.Collections.unmodifiableList(out);
  }

  /** The first argument of this kind (useful for hidden arguments). */
  public Optional<KernelArgument> argument(ValueKind valueKind) {
    for (KernelArgument a : arguments) {
      if (a.valueKind() == valueKind) return Optional.of(a);
    }
    return Optional.empty();
  }
}
