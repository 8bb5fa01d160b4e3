package dev.hipsim.isa.decode;

/**
 * The controls of a MIMG (image) instruction. Its cache bits are in {@link Instruction#memory()}.
 *
 * @param dmask which of the four components are read or written (one data dword, or half of one with d16, each)
 * @param flags {@link #UNORM}, {@link #DA}, {@link #A16}, {@link #LWE}, {@link #D16}
 */
public record Image(int dmask, int flags) {
  /** Coordinates are unnormalised. */
  public static final int UNORM = 1;
  /** The resource is an array (declare array). */
  public static final int DA = 2;
  /** Addresses are 16-bit. */
  public static final int A16 = 4;
  /** LOD warning enable. */
  public static final int LWE = 8;
  /** Data are packed 16-bit values. */
  public static final int D16 = 16;

  public boolean unorm() {
    return (flags & UNORM) != 0;
  }

  public boolean da() {
    return (flags & DA) != 0;
  }

  public boolean a16() {
    return (flags & A16) != 0;
  }

  public boolean lwe() {
    return (flags & LWE) != 0;
  }

  public boolean d16() {
    return (flags & D16) != 0;
  }
}
