package dev.hipsim.isa.debug;

/** What an expression evaluates to: one number, or one number per lane. */
sealed interface Value {
  /** A number of {@code bits} bits (1 for SCC, 32, 64, or more for wide scalar slices shown as dwords). */
  record Scalar(long value, int bits) implements Value {}

  /** One value per lane of a wave, {@code bits} wide each (32 or 64). */
  record Lanes(long[] values, int bits, long exec) implements Value {}

  /** Several consecutive dwords (a scalar slice wider than 64 bits, such as {@code s[0:3]}). */
  record Dwords(int[] values) implements Value {}
}
