package dev.hipsim.isa.interp;

import net.jqwik.api.statistics.Statistics;

/** Coverage checks for properties: a label counted in every try and checked over all of them. */
final class Share {
  private Share() {}

  /** Counts whether {@code label} held in this try, and requires it in more than {@code percent} of the tries. */
  static void atLeast(String label, boolean held, double percent) {
    Statistics.label(label).collect(held);
    Statistics.label(label).coverage(c -> c.check(true).percentage(p -> p > percent));
  }
}
