package dev.hipsim.kfd;

/** {@code ALLOC_MEMORY_OF_GPU} outputs: the buffer handle ({@code gpu_id << 32 | id}) and its mmap cookie. */
public record AllocResult(long handle, long mmapOffset) {}
