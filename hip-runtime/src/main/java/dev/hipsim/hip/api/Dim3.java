package dev.hipsim.hip.api;

/** HIP's {@code dim3}: three unsigned 32-bit extents (held in ints; use {@link Integer#toUnsignedLong} for arithmetic). */
public record Dim3(int x, int y, int z) {
  /** Unpacks the two slots a by-value {@code dim3} travels in (x | y << 32, z). */
  public static Dim3 fromSlots(long xy, long z) {
    return new Dim3((int) xy, (int) (xy >>> 32), (int) z);
  }

  /** x * y * z as an unsigned product. */
  public long volume() {
    return Integer.toUnsignedLong(x) * Integer.toUnsignedLong(y) * Integer.toUnsignedLong(z);
  }

  @Override
  public String toString() {
    return "(" + Integer.toUnsignedString(x) + ", " + Integer.toUnsignedString(y) + ", " + Integer.toUnsignedString(z) + ")";
  }
}
