package dev.hipsim.isa.dispatch;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The 64-byte AMDHSA kernel descriptor ({@code NAME.kd}) that a dispatch's kernel object handle points at: segment
 * sizes, the entry point, and the {@code COMPUTE_PGM_RSRC1/2/3} and kernel-code-properties bitfields that decide the
 * initial register state of every wave. Layout and fields as in LLVM's AMDGPUUsage ("Kernel Descriptor").
 */
public record KernelDescriptor(
    int groupSegmentFixedSize,
    int privateSegmentFixedSize,
    int kernargSize,
    long kernelCodeEntryByteOffset,
    int computePgmRsrc3,
    int computePgmRsrc1,
    int computePgmRsrc2,
    int kernelCodeProperties,
    int kernargPreload) {

  public static final int SIZE = 64;

  /** Decodes a descriptor from 64 bytes at the buffer's position (not moved). */
  public static KernelDescriptor parse(ByteBuffer bytes) {
    ByteBuffer b = bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int p = b.position();
    return new KernelDescriptor(b.getInt(p), b.getInt(p + 4), b.getInt(p + 8), b.getLong(p + 16), b.getInt(p + 44),
        b.getInt(p + 48), b.getInt(p + 52), b.getShort(p + 56) & 0xffff, b.getShort(p + 58) & 0xffff);
  }

  public static KernelDescriptor parse(byte[] bytes, int offset) {
    return parse(ByteBuffer.wrap(bytes, offset, SIZE).slice());
  }

  private static int bits(int word, int lo, int width) {
    return (word >>> lo) & ((1 << width) - 1);
  }

  // ---- COMPUTE_PGM_RSRC1

  public int granulatedWorkitemVgprCount() { return bits(computePgmRsrc1, 0, 6); }

  public int granulatedWavefrontSgprCount() { return bits(computePgmRsrc1, 6, 4); }

  public int priority() { return bits(computePgmRsrc1, 10, 2); }

  /** FLOAT_ROUND_MODE_32: 0 nearest even, 1 +infinity, 2 -infinity, 3 toward zero. */
  public int floatRoundMode32() { return bits(computePgmRsrc1, 12, 2); }

  public int floatRoundMode16And64() { return bits(computePgmRsrc1, 14, 2); }

  /** FLOAT_DENORM_MODE_32: 0 flush source and destination, 1 flush destination, 2 flush source, 3 keep both. */
  public int floatDenormMode32() { return bits(computePgmRsrc1, 16, 2); }

  public int floatDenormMode16And64() { return bits(computePgmRsrc1, 18, 2); }

  public boolean privileged() { return bits(computePgmRsrc1, 20, 1) != 0; }

  public boolean dx10Clamp() { return bits(computePgmRsrc1, 21, 1) != 0; }

  public boolean debugMode() { return bits(computePgmRsrc1, 22, 1) != 0; }

  public boolean ieeeMode() { return bits(computePgmRsrc1, 23, 1) != 0; }

  public boolean fp16Overflow() { return bits(computePgmRsrc1, 26, 1) != 0; }

  /**
   * The MODE register value a wave starts with: FP_ROUND in bits 3:0, FP_DENORM in 7:4, DX10_CLAMP bit 8, IEEE bit
   * 9, as the hardware loads them from COMPUTE_PGM_RSRC1.
   */
  public int initialMode() {
    return floatRoundMode32() | floatRoundMode16And64() << 2 | floatDenormMode32() << 4
        | floatDenormMode16And64() << 6 | (dx10Clamp() ? 1 << 8 : 0) | (ieeeMode() ? 1 << 9 : 0);
  }

  // ---- COMPUTE_PGM_RSRC2

  /** Whether waves get private (scratch) memory: ENABLE_PRIVATE_SEGMENT (SCRATCH_EN). */
  public boolean enablePrivateSegment() { return bits(computePgmRsrc2, 0, 1) != 0; }

  public int userSgprCount() { return bits(computePgmRsrc2, 1, 5); }

  public boolean enableTrapHandler() { return bits(computePgmRsrc2, 6, 1) != 0; }

  public boolean enableSgprWorkgroupIdX() { return bits(computePgmRsrc2, 7, 1) != 0; }

  public boolean enableSgprWorkgroupIdY() { return bits(computePgmRsrc2, 8, 1) != 0; }

  public boolean enableSgprWorkgroupIdZ() { return bits(computePgmRsrc2, 9, 1) != 0; }

  public boolean enableSgprWorkgroupInfo() { return bits(computePgmRsrc2, 10, 1) != 0; }

  /** 0: work-item ID X only; 1: X and Y; 2: X, Y and Z. */
  public int enableVgprWorkitemId() { return bits(computePgmRsrc2, 11, 2); }

  public boolean enableExceptionAddressWatch() { return bits(computePgmRsrc2, 13, 1) != 0; }

  public boolean enableExceptionMemory() { return bits(computePgmRsrc2, 14, 1) != 0; }

  public int granulatedLdsSize() { return bits(computePgmRsrc2, 15, 9); }

  /** The seven exception enables (IEEE invalid, denormal source, divide by zero, overflow, underflow, inexact, int divide by zero) in bits 6:0. */
  public int exceptionEnables() { return bits(computePgmRsrc2, 24, 7); }

  // ---- COMPUTE_PGM_RSRC3 (gfx90a, gfx940+)

  /** ACCUM_OFFSET: the first AGPR of the unified register file is VGPR {@code (field + 1) * 4}. */
  public int accumOffset() { return (bits(computePgmRsrc3, 0, 6) + 1) * 4; }

  public boolean tgSplit() { return bits(computePgmRsrc3, 16, 1) != 0; }

  // ---- kernel code properties

  public boolean enableSgprPrivateSegmentBuffer() { return bits(kernelCodeProperties, 0, 1) != 0; }

  public boolean enableSgprDispatchPtr() { return bits(kernelCodeProperties, 1, 1) != 0; }

  public boolean enableSgprQueuePtr() { return bits(kernelCodeProperties, 2, 1) != 0; }

  public boolean enableSgprKernargSegmentPtr() { return bits(kernelCodeProperties, 3, 1) != 0; }

  public boolean enableSgprDispatchId() { return bits(kernelCodeProperties, 4, 1) != 0; }

  public boolean enableSgprFlatScratchInit() { return bits(kernelCodeProperties, 5, 1) != 0; }

  public boolean enableSgprPrivateSegmentSize() { return bits(kernelCodeProperties, 6, 1) != 0; }

  public boolean enableWavefrontSize32() { return bits(kernelCodeProperties, 10, 1) != 0; }

  public boolean usesDynamicStack() { return bits(kernelCodeProperties, 11, 1) != 0; }

  /** Number of kernarg dwords preloaded into user SGPRs (gfx940+, code object v5+). */
  public int kernargPreloadLength() { return bits(kernargPreload, 0, 7); }

  public int kernargPreloadOffset() { return bits(kernargPreload, 7, 9); }

  /** Registers the kernel was compiled for, as LLVM's assembler directives count them. */
  public int nextFreeVgpr(int vgprGranule) { return (granulatedWorkitemVgprCount() + 1) * vgprGranule; }

  public int nextFreeSgpr() { return (granulatedWavefrontSgprCount() + 1) * 8; }
}
