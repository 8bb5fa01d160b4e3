package dev.hipsim.bundle.target;

/** Whether a bundle entry can run on a device, and how specifically it was built for it. */
public sealed interface Verdict permits Verdict.Compatible, Verdict.Rejected {

  /**
   * The entry runs on the device. Higher {@code specificity} wins: an exact processor beats a generic one, then
   * each feature the entry pins (rather than leaving Any) counts.
   */
  record Compatible(int specificity) implements Verdict {}

  /** The entry cannot run on the device, and why. */
  record Rejected(String reason) implements Verdict {}

  default boolean isCompatible() {
    return this instanceof Compatible;
  }
}
