package dev.hipsim.bundle.metadata;

/** An {@code amdhsa.globals} entry. */
public record GlobalVariable(String name, long size) {}
