package dev.hipsim.elf;

import java.util.List;

/** A {@code .gnu.version_r} entry: the versions a file needs from one library. */
public record VersionNeed(int version, String file, List<Aux> versions) {
  /** One needed version: its name, flags and the index symbols refer to it by. */
  public record Aux(String name, int flags, int index, long hash) {}
}
