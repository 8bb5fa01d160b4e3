package dev.hipsim.hsa.signal;

/** {@code hsa_signal_condition_t}: what a wait waits for, comparing the signal's value with a compare value. */
public enum SignalCondition {
  EQ,
  NE,
  LT,
  GTE;

  public boolean test(long value, long compare) {
    switch (this) {
      case EQ: return value == compare;
      case NE: return value != compare;
      case LT: return value < compare;
      default: return value >= compare;
    }
  }
}
