package dev.hipsim.bundle.target;

import java.util.Optional;

/**
 * A bundle entry ID: {@code <offload-kind>-<arch>-<vendor>-<os>-<env>[-<target-id>]}, e.g.
 * {@code hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-} (the environment of an AMDHSA triple is empty).
 *
 * <p>Host entries are read leniently (their triples vary between LLVM releases, e.g.
 * {@code host-x86_64-unknown-linux}); the legacy spelling {@code hip-amdgcn-amd-amdhsa-gfx906}, where the target
 * takes the place of the environment, is understood too.
 */
public record EntryId(OffloadKind kind, String arch, String vendor, String os, String environment,
    Optional<TargetId> target) {

  /** Parses an entry ID as clang-offload-bundler splits it (on '-', at most six parts). */
  public static EntryId parse(String id) throws EntryIdFormatException {
    if (id == null || id.isEmpty()) throw new EntryIdFormatException(String.valueOf(id), "bundle entry ID (empty)");
    String[] parts = id.split("-", 6);
    OffloadKind kind = OffloadKind.of(parts[0]).orElseThrow(() -> new EntryIdFormatException(id,
        "bundle entry ID (offload kind '" + parts[0] + "' is none of host, hip, hipv4, openmp)"));
    if (kind == OffloadKind.HOST) {
      if (parts.length < 2 || parts[1].isEmpty()) {
        throw new EntryIdFormatException(id, "bundle entry ID (host entry without a triple)");
      }
      return new EntryId(kind, parts[1], part(parts, 2), part(parts, 3), part(parts, 4), Optional.empty());
    }
    if (parts.length < 5) {
      throw new EntryIdFormatException(id, "bundle entry ID (expected <kind>-<arch>-<vendor>-<os>-<env>[-<target>])");
    }
    String environment = parts[4];
    String target = parts.length == 6 ? parts[5] : "";
    if (parts.length == 5 && environment.startsWith("gfx")) {
      // Legacy form: hip-amdgcn-amd-amdhsa-gfx906, where the processor takes the environment's place.
      target = environment;
      environment = "";
    }
    if (parts[1].isEmpty() || parts[2].isEmpty() || parts[3].isEmpty()) {
      throw new EntryIdFormatException(id, "bundle entry ID (empty triple component)");
    }
    Optional<TargetId> targetId = target.isEmpty() ? Optional.empty() : Optional.of(TargetId.parse(target));
    return new EntryId(kind, parts[1], parts[2], parts[3], environment, targetId);
  }

  private static String part(String[] parts, int i) {
    return i < parts.length ? parts[i] : "";
  }

  public boolean isHost() {
    return kind == OffloadKind.HOST;
  }

  /** {@code arch-vendor-os-env} (trailing empty components kept, as the bundler writes AMDHSA triples). */
  public String triple() {
    StringBuilder t = new StringBuilder(arch);
    if (!vendor.isEmpty() || !os.isEmpty() || !environment.isEmpty()) t.append('-').append(vendor);
    if (!os.isEmpty() || !environment.isEmpty()) t.append('-').append(os);
    if (!environment.isEmpty() || isAmdhsa()) t.append('-').append(environment);
    return t.toString();
  }

  public boolean isAmdhsa() {
    return os.equals("amdhsa");
  }

  /**
   * The canonical spelling: features of the target ID in alphabetical order, an AMDHSA triple with its empty
   * environment ({@code hipv4-amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-}).
   */
  public String canonical() {
    StringBuilder s = new StringBuilder(kind.spelling()).append('-').append(triple());
    target.ifPresent(t -> s.append('-').append(t));
    return s.toString();
  }

  @Override
  public String toString() {
    return canonical();
  }
}
