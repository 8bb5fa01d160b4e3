package dev.hipsim.bundle.target;

/** One target feature setting of a target ID, such as {@code xnack-} or {@code sramecc+}. */
public record TargetFeature(String name, boolean enabled) implements Comparable<TargetFeature> {
  public TargetFeature {
    if (name == null || name.isEmpty()) throw new IllegalArgumentException("feature name must not be empty");
  }

  @Override
  public int compareTo(TargetFeature other) {
    return name.compareTo(other.name);
  }

  @Override
  public String toString() {
    return name + (enabled ? '+' : '-');
  }
}
