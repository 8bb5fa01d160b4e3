package dev.hipsim.isa.debug;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Finds the source files line tables name on this machine: the recorded path when it exists, else the longest
 * trailing part of it under one of the source directories (sources moved since the build, a relative DWARF 4 path).
 */
public final class SourcePaths {
  private final List<Path> directories = new CopyOnWriteArrayList<>();

  public void add(Path directory) {
    Path d = directory.toAbsolutePath().normalize();
    if (!directories.contains(d)) directories.add(d);
  }

  public List<Path> directories() {
    return List.copyOf(directories);
  }

  /** The file on this machine that {@code recorded} names, if one can be found. */
  public Optional<Path> resolve(String recorded) {
    Path p;
    try {
      p = Path.of(recorded);
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
    if (Files.isRegularFile(p)) return Optional.of(p.toAbsolutePath().normalize());
    int n = p.getNameCount();
    for (int keep = n; keep >= 1; keep--) {
      Path tail = p.subpath(n - keep, n);
      for (Path d : directories) {
        Path candidate = d.resolve(tail);
        if (Files.isRegularFile(candidate)) return Optional.of(candidate.normalize());
      }
    }
    return Optional.empty();
  }
}
