package dev.hipsim.isa.debug.dwarf;

/**
 * An entry of a line table's file name list. {@code md5} is null when the producer recorded none; {@code
 * modificationTime} and {@code length} are 0 when absent (DWARF 5 producers rarely record them).
 */
public record FileEntry(String name, int directoryIndex, long modificationTime, long length, byte[] md5) {}
