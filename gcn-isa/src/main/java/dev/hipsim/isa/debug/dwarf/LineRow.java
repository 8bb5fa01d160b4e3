package dev.hipsim.isa.debug.dwarf;

/**
 * One row of a line-number matrix: the state machine's registers when a row was appended (DWARF 5 §6.2.2). The
 * address is the code object's virtual address, before any load delta.
 */
public record LineRow(long address, int line, int column, int file, int isa, int discriminator, int opIndex,
    boolean isStmt, boolean basicBlock, boolean endSequence, boolean prologueEnd, boolean epilogueBegin) {}
