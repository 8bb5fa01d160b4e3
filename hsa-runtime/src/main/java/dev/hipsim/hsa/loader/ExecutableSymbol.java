package dev.hipsim.hsa.loader;

import dev.hipsim.bundle.metadata.KernelMetadata;
import dev.hipsim.hsa.GpuAgent;
import dev.hipsim.isa.dispatch.KernelDescriptor;
import java.util.Optional;

/** {@code hsa_executable_symbol_t}: a kernel or a variable an executable defines for an agent. */
public sealed interface ExecutableSymbol permits ExecutableSymbol.Kernel, ExecutableSymbol.Variable {
  /** {@code HSA_EXECUTABLE_SYMBOL_INFO_NAME}: the ELF symbol ({@code NAME.kd} for a kernel). */
  String name();

  GpuAgent agent();

  /**
   * A kernel, as ROCr describes a code-object-v3+ kernel: the handle and the segment sizes from its descriptor.
   *
   * @param name the descriptor's symbol, {@code NAME.kd}
   * @param kernelName the kernel's (mangled) name
   * @param kernelObject {@code HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT}: the GPU VA of the descriptor, what AQL
   *     dispatch packets carry
   * @param kernargSegmentSize bytes of kernel arguments (descriptor {@code kernarg_size})
   * @param kernargSegmentAlignment at least 16, ROCr's minimum, or the metadata's if larger
   * @param groupSegmentSize static LDS bytes per work-group
   * @param privateSegmentSize scratch bytes per work-item
   * @param dynamicCallStack whether the kernel's stack size is unknown at compile time
   * @param descriptor the 64-byte kernel descriptor, decoded
   * @param metadata the kernel's entry of the metadata note (argument layout, limits)
   * @param codeObject the loaded code object that defines it
   */
  record Kernel(String name, String kernelName, GpuAgent agent, long kernelObject, long kernargSegmentSize,
      long kernargSegmentAlignment, long groupSegmentSize, long privateSegmentSize, boolean dynamicCallStack,
      KernelDescriptor descriptor, Optional<KernelMetadata> metadata, LoadedCodeObject codeObject)
      implements ExecutableSymbol {

    /** Address of the kernel's first instruction. */
    public long entryAddress() {
      return kernelObject + descriptor.kernelCodeEntryByteOffset();
    }
  }

  /**
   * A variable (device global).
   *
   * @param address {@code HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS}
   * @param size {@code HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE}
   * @param weak whether the ELF symbol is weak
   * @param external whether it was defined by {@code hsa_executable_agent_global_variable_define} rather than by
   *     a loaded code object
   */
  record Variable(String name, GpuAgent agent, long address, long size, boolean weak, boolean external)
      implements ExecutableSymbol {}
}
