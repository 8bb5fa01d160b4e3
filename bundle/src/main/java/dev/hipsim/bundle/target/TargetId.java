package dev.hipsim.bundle.target;

import dev.hipsim.elf.AmdgpuTarget;
import dev.hipsim.elf.AmdgpuTarget.FeatureState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A target ID: processor plus feature settings, e.g. {@code gfx90a:sramecc+:xnack-}. A feature left out means
 * <em>Any</em> (code that runs with the feature on or off); {@code +} means On and {@code -} Off.
 *
 * <p>{@link #toString()} is the canonical spelling (features in alphabetical order, as clang writes them).
 */
public record TargetId(String processor, List<TargetFeature> features) {
  /** Generic processors and the processors whose code objects they can stand in for (LLVM AMDGPUUsage). */
  private static final Map<String, List<String>> GENERIC_FAMILIES = Map.of(
      "gfx9-generic", List.of("gfx900", "gfx902", "gfx904", "gfx906", "gfx909", "gfx90c"),
      "gfx9-4-generic", List.of("gfx940", "gfx941", "gfx942", "gfx950"),
      "gfx10-1-generic", List.of("gfx1010", "gfx1011", "gfx1012", "gfx1013"),
      "gfx10-3-generic", List.of("gfx1030", "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036"),
      "gfx11-generic", List.of("gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150", "gfx1151", "gfx1152",
          "gfx1153"),
      "gfx12-generic", List.of("gfx1200", "gfx1201"));

  public TargetId {
    List<TargetFeature> sorted = new ArrayList<>(features);
    Collections.sort(sorted);
    features = List.copyOf(sorted);
  }

  /** Parses {@code processor(:feature(+|-))*}; a feature named twice, or without a sign, is an error. */
  public static TargetId parse(String text) throws EntryIdFormatException {
    if (text == null || text.isEmpty()) throw new EntryIdFormatException(String.valueOf(text), "target ID (empty)");
    String[] parts = text.split(":", -1);
    String processor = parts[0];
    if (!isName(processor, true)) {
      throw new EntryIdFormatException(text, "target ID (bad processor name '" + processor + "')");
    }
    List<TargetFeature> features = new ArrayList<>();
    for (int i = 1; i < parts.length; i++) {
      String f = parts[i];
      char sign = f.isEmpty() ? ' ' : f.charAt(f.length() - 1);
      String name = f.isEmpty() ? "" : f.substring(0, f.length() - 1);
      if ((sign != '+' && sign != '-') || !isName(name, false)) {
        throw new EntryIdFormatException(text, "target ID (feature '" + f + "' must be a name followed by + or -)");
      }
      for (TargetFeature seen : features) {
        if (seen.name().equals(name)) {
          throw new EntryIdFormatException(text, "target ID (feature " + name + " given twice)");
        }
      }
      features.add(new TargetFeature(name, sign == '+'));
    }
    return new TargetId(processor, features);
  }

  /** Letters, digits, '_' and '.' (and '-' in processor names such as gfx9-4-generic); not empty. */
  private static boolean isName(String s, boolean dashes) {
    if (s.isEmpty()) return false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.'
          || dashes && c == '-';
      if (!ok) return false;
    }
    return true;
  }

  /**
   * Parses what a user may type for a device: a target ID ({@code gfx90a:xnack-}), an ISA name
   * ({@code amdgcn-amd-amdhsa--gfx90a:xnack-}) or a whole bundle entry ID ({@code hipv4-amdgcn-amd-amdhsa--gfx90a}).
   */
  public static TargetId parseDevice(String text) throws EntryIdFormatException {
    if (text == null) throw new EntryIdFormatException("null", "target ID");
    int at = text.lastIndexOf("amdhsa--");
    if (at >= 0) return parse(text.substring(at + "amdhsa--".length()));
    return parse(text);
  }

  /** The target ID a code object's ELF header describes (features that are Any or unsupported are left out). */
  public static TargetId of(AmdgpuTarget target) {
    List<TargetFeature> features = new ArrayList<>();
    if (target.sramecc() == FeatureState.ON || target.sramecc() == FeatureState.OFF) {
      features.add(new TargetFeature("sramecc", target.sramecc() == FeatureState.ON));
    }
    if (target.xnack() == FeatureState.ON || target.xnack() == FeatureState.OFF) {
      features.add(new TargetFeature("xnack", target.xnack() == FeatureState.ON));
    }
    return new TargetId(target.processor(), features);
  }

  /** ON, OFF, or ANY when this target ID leaves the feature out. */
  public FeatureState feature(String name) {
    for (TargetFeature f : features) {
      if (f.name().equals(name)) return f.enabled() ? FeatureState.ON : FeatureState.OFF;
    }
    return FeatureState.ANY;
  }

  public Optional<TargetFeature> findFeature(String name) {
    return features.stream().filter(f -> f.name().equals(name)).findFirst();
  }

  /** Whether this is a generic processor (such as {@code gfx9-4-generic}). */
  public boolean isGeneric() {
    return GENERIC_FAMILIES.containsKey(processor);
  }

  /** Whether code for this target's processor runs on {@code deviceProcessor}: the same one, or its generic family. */
  public boolean processorServes(String deviceProcessor) {
    if (processor.equals(deviceProcessor)) return true;
    List<String> family = GENERIC_FAMILIES.get(processor);
    return family != null && family.contains(deviceProcessor);
  }

  /** The target ID with ':' replaced by '_', for file names. */
  public String fileNameSafe() {
    return toString().replace(':', '_');
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder(processor);
    for (TargetFeature f : features) s.append(':').append(f);
    return s.toString();
  }
}
