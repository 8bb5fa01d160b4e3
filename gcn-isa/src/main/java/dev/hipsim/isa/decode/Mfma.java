package dev.hipsim.isa.decode;

/**
 * The matrix-core controls of an MFMA or SMFMAC instruction (which of its operands are AGPRs is already on the
 * operands).
 *
 * @param cbsz broadcast block size (log2 of the number of blocks that receive block {@code abid} of A)
 * @param abid the A block broadcast
 * @param blgp B lane group pattern; for gfx940 f64 MFMAs the neg bits of A, B and C
 */
public record Mfma(int cbsz, int abid, int blgp) {}
