package dev.hipsim.isa.decode;

/**
 * The named operand positions of an instruction. A slot means the same thing in every encoding of an operation:
 * the carry-in of {@code v_addc_co_u32} is {@link #SRC2} whether it is the implicit vcc of the 32-bit form or an
 * SGPR pair of the 64-bit form, and the result mask of a compare is {@link #SDST} in both forms.
 */
public enum Slot {
  /** Vector destination (or the scalar destination of v_readlane/v_readfirstlane, written through the vdst field). */
  VDST,
  /** Scalar destination: SALU results, compare masks, carry-out. */
  SDST,
  SRC0,
  SRC1,
  SRC2,
  /** DS: the vector address. FLAT/GLOBAL/SCRATCH: the vector address (or offset when saddr is used). */
  ADDR,
  /** DS: first data operand. FLAT: the store or atomic data. */
  DATA0,
  /** DS: second data operand. */
  DATA1,
  /** MUBUF/MTBUF/MIMG: vector data (read by stores, written by loads and returning atomics). */
  VDATA,
  /** MUBUF/MTBUF: vector address (index and/or offset). MIMG: the image coordinates. */
  VADDR,
  /** MUBUF/MTBUF: the 128-bit buffer resource. MIMG: the 256-bit image resource. */
  SRSRC,
  /** MUBUF/MTBUF/SMEM: the scalar offset. */
  SOFFSET,
  /** GLOBAL/SCRATCH: the scalar base address (absent means "off"). */
  SADDR,
  /** SMEM: the scalar base address or buffer resource. */
  SBASE,
  /** SMEM: data loaded or stored. */
  SDATA,
  /** MIMG image_sample: the 128-bit sampler. */
  SSAMP;

  private static final Slot[] VALUES = values();

  public static Slot of(int ordinal) {
    return VALUES[ordinal];
  }

  public static int count() {
    return VALUES.length;
  }
}
