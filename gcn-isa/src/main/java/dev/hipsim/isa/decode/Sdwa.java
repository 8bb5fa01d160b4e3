package dev.hipsim.isa.decode;

/**
 * The SDWA dword of a VOP1/VOP2/VOPC instruction: which bytes or words the sources read and the destination writes.
 * Selects are 0-3 BYTE_0..3, 4-5 WORD_0..1, 6 DWORD; unused is 0 pad with zeros, 1 sign-extend, 2 preserve.
 * Source sign-extension and float modifiers live on the operands; clamp and omod on the instruction.
 */
public record Sdwa(int dstSel, int dstUnused, int src0Sel, int src1Sel) {}
