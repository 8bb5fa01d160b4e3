package dev.hipsim.elf;

import java.util.List;

/** A {@code .gnu.version_d} entry: a version this file defines (its first name; then the ones it inherits). */
public record VersionDef(int version, int flags, int index, List<String> names) {}
