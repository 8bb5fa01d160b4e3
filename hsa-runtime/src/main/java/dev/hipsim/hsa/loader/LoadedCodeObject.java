package dev.hipsim.hsa.loader;

import dev.hipsim.hsa.GpuAgent;

/**
 * A code object loaded on an agent ({@code hsa_loaded_code_object_t}, as hsa_ven_amd_loader reports it): where its
 * segments were placed. {@code loadDelta} is what was added to the ELF's virtual addresses.
 */
public record LoadedCodeObject(GpuAgent agent, String source, String targetId, int codeObjectVersion, long loadBase,
    long loadSize, long loadDelta) {

  public boolean contains(long address) {
    return address >= loadBase && address - loadBase < loadSize;
  }
}
