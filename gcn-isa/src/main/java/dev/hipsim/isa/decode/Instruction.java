package dev.hipsim.isa.decode;

/**
 * One decoded instruction, immutable and made once per instruction of a code object. An interpreter reads the
 * operation, the operands by {@link Slot} and the few controls of its encoding; everything LLVM prints is derived
 * from this object (see {@code dev.hipsim.isa.disasm.InstructionPrinter}).
 *
 * <p>Words that are not an instruction of the target decode to an instruction with operation
 * {@link Operation#INVALID}, encoding {@link Encoding#INVALID} and size 4 (or the bytes left, when fewer).
 */
public final class Instruction {
  private final Target target;
  private final long address;
  private final int size;
  private final int word0;
  private final int word1;
  private final int literal;
  private final boolean hasLiteral;
  private final OpcodeInfo info;
  private final Operand[] slots;
  private final boolean clamp;
  private final int omod;
  private final int opSel;
  private final int imm;
  private final Dpp dpp;
  private final Sdwa sdwa;
  private final Mfma mfma;
  private final MemoryFields memory;

  Instruction(Builder b) {
    this.target = b.target;
    this.address = b.address;
    this.size = b.size;
    this.word0 = b.word0;
    this.word1 = b.word1;
    this.literal = b.literal;
    this.hasLiteral = b.hasLiteral;
    this.info = b.info;
    this.slots = b.slots;
    this.clamp = b.clamp;
    this.omod = b.omod;
    this.opSel = b.opSel;
    this.imm = b.imm;
    this.dpp = b.dpp;
    this.sdwa = b.sdwa;
    this.mfma = b.mfma;
    this.memory = b.memory;
  }

  static Instruction invalid(Target target, long address, int size, int word0) {
    Builder b = new Builder(target, address);
    b.size = size;
    b.word0 = word0;
    return new Instruction(b);
  }

  public Target target() {
    return target;
  }

  public long address() {
    return address;
  }

  /** Length in bytes: 4 or 8, plus 4 for a literal. */
  public int size() {
    return size;
  }

  public int word0() {
    return word0;
  }

  /** The second dword of 64-bit encodings (0 for 32-bit ones). */
  public int word1() {
    return word1;
  }

  /** The literal dword, when {@link #hasLiteral()}. */
  public int literal() {
    return literal;
  }

  public boolean hasLiteral() {
    return hasLiteral;
  }

  public boolean isValid() {
    return info != null;
  }

  public Operation operation() {
    return info == null ? Operation.INVALID : info.operation();
  }

  public Encoding encoding() {
    return info == null ? Encoding.INVALID : info.format().encoding();
  }

  /** The opcode-table row this instruction was decoded with (null when invalid). */
  public OpcodeInfo info() {
    return info;
  }

  /** The operand in a slot, or null when the instruction has none there. */
  public Operand operand(Slot slot) {
    return slots == null ? null : slots[slot.ordinal()];
  }

  public Operand vdst() {
    return operand(Slot.VDST);
  }

  public Operand sdst() {
    return operand(Slot.SDST);
  }

  public Operand src0() {
    return operand(Slot.SRC0);
  }

  public Operand src1() {
    return operand(Slot.SRC1);
  }

  public Operand src2() {
    return operand(Slot.SRC2);
  }

  /** VALU: clamp the result. */
  public boolean clamp() {
    return clamp;
  }

  /** VALU output modifier: 0 none, 1 ×2, 2 ×4, 3 ÷2. */
  public int omod() {
    return omod;
  }

  /** VOP3: op_sel bit of the destination (write the high half). */
  public boolean dstOpSel() {
    return (opSel & 8) != 0;
  }

  /**
   * VOP3: the op_sel bits the instruction uses (bit i for source i, bit 3 for the destination); the source bits are
   * also on the operands as {@link Operand#OP_SEL}.
   */
  public int opSel() {
    return opSel;
  }

  /** SOPP/SOPK: the 16-bit immediate; SMEM s_atc_probe: the probe bits; else 0. */
  public int imm() {
    return imm;
  }

  /** The branch target of a SOPP branch: address + 4 + 4 × signed imm16. */
  public long branchTarget() {
    return address + 4 + 4L * (short) imm;
  }

  public Dpp dpp() {
    return dpp;
  }

  public Sdwa sdwa() {
    return sdwa;
  }

  public Mfma mfma() {
    return mfma;
  }

  public MemoryFields memory() {
    return memory;
  }

  @Override
  public String toString() {
    return String.format("%x: %s", address, info == null ? ".long" : info.mnemonic());
  }

  /** Collects the parts of an instruction while decoding. */
  static final class Builder {
    final Target target;
    final long address;
    int size;
    int word0;
    int word1;
    int literal;
    boolean hasLiteral;
    OpcodeInfo info;
    Operand[] slots;
    boolean clamp;
    int omod;
    int opSel;
    int imm;
    Dpp dpp;
    Sdwa sdwa;
    Mfma mfma;
    MemoryFields memory;

    Builder(Target target, long address) {
      this.target = target;
      this.address = address;
    }

    void set(Slot slot, Operand op) {
      if (slots == null) slots = new Operand[Slot.count()];
      slots[slot.ordinal()] = op;
    }

    Operand get(Slot slot) {
      return slots == null ? null : slots[slot.ordinal()];
    }

    Instruction build() {
      return new Instruction(this);
    }
  }
}
