package dev.hipsim.isa.decode;

import java.util.List;

/**
 * One row of an opcode table: what an opcode of a format means on a target and how LLVM shows it.
 *
 * <p>The masks come from probing LLVM's disassembler bit by bit: a set bit of the zero mask must be clear for the
 * word to be this instruction (LLVM rejects it otherwise), a set bit of {@code liveMask} is a control bit the
 * instruction uses (a modifier, a cache bit, an offset). Control bits in neither mask are ignored. Formats with
 * selector bits (see {@link Format}) have a zero mask per variant.
 */
public final class OpcodeInfo {
  /** DS: two 8-bit offsets (offset0/offset1) rather than one 16-bit offset. */
  public static final int FLAG_TWO_OFFSETS = 1;
  /** DS: the offset is a swizzle pattern (ds_swizzle_b32). */
  public static final int FLAG_SWIZZLE = 2;
  /** SOPK s_setreg_imm32_b32: a 32-bit literal follows the instruction. */
  public static final int FLAG_LITERAL = 4;
  /** VOP3P: packed math (op_sel_hi defaults to all ones). */
  public static final int FLAG_PACKED = 8;
  /** DPP: a double-precision ALU operation (only row_newbcast is legal). */
  public static final int FLAG_DP_ALU = 16;

  private final Format format;
  private final int opcode;
  private final Operation operation;
  private final String mnemonic;
  private final long[] zeroMasks;
  private final long liveMask;
  private final int flags;
  private final ImmStyle immStyle;
  private final OperandSpec[] operands;
  /** The slot read from encoding source field 0, 1 (src1/vsrc1) and 2, or null. */
  private final Slot[] sourceSlots = new Slot[3];

  OpcodeInfo(Format format, int opcode, Operation operation, String mnemonic, long[] zeroMasks, long liveMask,
      int flags, ImmStyle immStyle, OperandSpec[] operands) {
    this.format = format;
    this.opcode = opcode;
    this.operation = operation;
    this.mnemonic = mnemonic;
    this.zeroMasks = zeroMasks;
    this.liveMask = liveMask;
    this.flags = flags;
    this.immStyle = immStyle;
    this.operands = operands;
    for (OperandSpec s : operands) {
      String f = s.field();
      if (f == null) continue;
      switch (f) {
        case "src0" -> sourceSlots[0] = s.slot();
        case "src1", "vsrc1" -> sourceSlots[1] = s.slot();
        case "src2" -> sourceSlots[2] = s.slot();
        default -> {
        }
      }
    }
  }

  /** The slot of the operand read from source field {@code i} (src0, src1/vsrc1, src2), or null. */
  public Slot sourceSlot(int i) {
    return sourceSlots[i];
  }

  public Format format() {
    return format;
  }

  public int opcode() {
    return opcode;
  }

  public Operation operation() {
    return operation;
  }

  /** The mnemonic as LLVM prints it, with its encoding suffix (_e32, _e64, _dpp, _sdwa) where LLVM shows one. */
  public String mnemonic() {
    return mnemonic;
  }

  /**
   * The bits that must be clear for a word of this opcode to be this instruction, given the word's selector bits
   * (all ones when the word's variant does not exist).
   */
  public long zeroMask(long bits) {
    return zeroMasks[zeroMasks.length == 1 ? 0 : format.variantKey(bits)];
  }

  /** Whether the instruction exists in a variant (see {@link Format}); some exist only with a selector bit set. */
  public boolean acceptsVariant(int key) {
    return zeroMasks[key] != -1L;
  }

  /** Whether the encoding {@code bits} (with this opcode) is accepted. */
  public boolean accepts(long bits) {
    return (bits & zeroMask(bits)) == 0;
  }

  public long liveMask() {
    return liveMask;
  }

  /** Whether any of the given control bits is used by this instruction. */
  public boolean uses(long bits) {
    return (liveMask & bits) != 0;
  }

  /** SOPP/SOPK: how the 16-bit immediate is shown. */
  public ImmStyle immStyle() {
    return immStyle;
  }

  public boolean hasFlag(int flag) {
    return (flags & flag) != 0;
  }

  public List<OperandSpec> operands() {
    return List.of(operands);
  }

  OperandSpec[] operandArray() {
    return operands;
  }

  /** The zero masks by variant key, as the tables give them (for {@link OpcodeTableFile}). */
  long[] zeroMaskArray() {
    return zeroMasks.clone();
  }

  /** The {@code FLAG_*} bits (for {@link OpcodeTableFile}). */
  int flagBits() {
    return flags;
  }

  /** The operand spec of a slot, or null. */
  public OperandSpec operand(Slot slot) {
    for (OperandSpec s : operands) {
      if (s.slot() == slot) return s;
    }
    return null;
  }

  @Override
  public String toString() {
    return format + " " + opcode + " " + mnemonic;
  }
}
