/**
 * The small memory SPI through which the shader hardware reaches device memory. {@code kfd-sim} implements it with
 * real GPUVM page tables and a TLB; tests may use {@link dev.hipsim.isa.mem.FlatMemory}.
 *
 * <p>Addresses are GPU virtual addresses (48-bit, canonical). LDS and the private (scratch) aperture are resolved by
 * the interpreter before it calls this SPI; what reaches {@link dev.hipsim.isa.mem.GpuMemory} is always a GPUVM
 * address.
 */
package dev.hipsim.isa.mem;
