package dev.hipsim.isa.decode;

import dev.hipsim.isa.decode.OperandSpec.FieldKind;

/**
 * Decodes gfx90a and gfx940/gfx942 machine code into {@link Instruction}s, accepting exactly the words LLVM 22's
 * disassembler accepts: the format comes from the top bits, the meaning from the format's opcode table, and a word
 * the table (or an operand field) rejects becomes an {@link Operation#INVALID} instruction of 4 bytes. No input
 * makes it throw.
 *
 * <p>As in LLVM, the 64-bit encodings are tried first when 8 bytes are left: a VOP1/VOP2/VOPC word with src0 = 250
 * or 249 is a DPP or SDWA instruction if the operation has such a form.
 *
 * <p>A decoder is immutable and may be shared between threads.
 */
public final class Decoder {
  private static final int SRC_SDWA = 249;
  private static final int SRC_DPP = 250;

  private final Target target;
  private final OpcodeTables tables = OpcodeTables.get();

  public Decoder(Target target) {
    if (target == null) throw new IllegalArgumentException("target");
    this.target = target;
  }

  public Target target() {
    return target;
  }

  /**
   * Decodes the instruction at {@code offset} of {@code code}, reading no byte at or past {@code end}.
   *
   * @param address the address the instruction has (used for branch targets and printing)
   */
  public Instruction decode(byte[] code, int offset, int end, long address) {
    if (code == null || offset < 0 || end > code.length || offset >= end) {
      return Instruction.invalid(target, address, 0, 0);
    }
    int avail = end - offset;
    if (avail < 4) return Instruction.invalid(target, address, avail, partialWord(code, offset, avail));
    int w0 = le32(code, offset);
    Cursor cur = new Cursor(code, offset, end);
    Instruction inst = null;
    if (avail >= 8) inst = decode64(w0, le32(code, offset + 4), cur, address);
    if (inst == null) {
      cur.reset(4);
      inst = decode32(w0, cur, address);
    }
    return inst != null ? inst : Instruction.invalid(target, address, 4, w0);
  }

  /** Decodes every instruction of a code range, in order. */
  public DecodedProgram decodeAll(byte[] code, int offset, int length, long baseAddress) {
    return DecodedProgram.decode(this, code, offset, length, baseAddress);
  }

  // ---------------------------------------------------------------------------------------------- dispatch

  private Instruction decode64(int w0, int w1, Cursor cur, long address) {
    long bits = (w0 & 0xffffffffL) | ((long) w1 << 32);
    int top6 = w0 >>> 26;
    if ((w0 >>> 31) == 0) {
      int src0 = w0 & 0x1ff;
      if (src0 != SRC_DPP && src0 != SRC_SDWA) return null;
      int op2 = (w0 >>> 25) & 0x3f;
      boolean dpp = src0 == SRC_DPP;
      cur.reset(8);
      if (op2 == 0x3f) {
        return vector(dpp ? Format.VOP1_DPP : Format.VOP1_SDWA, (w0 >>> 9) & 0xff, bits, cur, address);
      }
      if (op2 == 0x3e) {
        return dpp ? null : vector(Format.VOPC_SDWA, (w0 >>> 17) & 0xff, bits, cur, address);
      }
      return vector(dpp ? Format.VOP2_DPP : Format.VOP2_SDWA, op2, bits, cur, address);
    }
    cur.reset(8);
    switch (top6) {
      case 0x30:
        return scalarMemory((w0 >>> 18) & 0xff, bits, cur, address);
      case 0x34: {
        if ((w0 >>> 23) == 0x1a7) return vector(Format.VOP3P, (w0 >>> 16) & 0x7f, bits, cur, address);
        return vector(Format.VOP3, (w0 >>> 16) & 0x3ff, bits, cur, address);
      }
      case 0x36:
        return dataShare((w0 >>> 17) & 0xff, bits, cur, address);
      case 0x37: {
        int seg = (w0 >>> 14) & 3;
        Format f = seg == 0 ? Format.FLAT : seg == 1 ? Format.SCRATCH : seg == 2 ? Format.GLOBAL : null;
        return f == null ? null : flat(f, (w0 >>> 18) & 0x7f, bits, cur, address);
      }
      case 0x38:
        return buffer(Format.MUBUF, (w0 >>> 18) & 0x7f, bits, cur, address);
      case 0x3a:
        return buffer(Format.MTBUF, (w0 >>> 15) & 0xf, bits, cur, address);
      default:
        return null;
    }
  }

  private Instruction decode32(int w0, Cursor cur, long address) {
    long bits = w0 & 0xffffffffL;
    if ((w0 >>> 31) == 0) {
      int op2 = (w0 >>> 25) & 0x3f;
      if (op2 == 0x3f) return vector(Format.VOP1, (w0 >>> 9) & 0xff, bits, cur, address);
      if (op2 == 0x3e) return vector(Format.VOPC, (w0 >>> 17) & 0xff, bits, cur, address);
      return vector(Format.VOP2, op2, bits, cur, address);
    }
    if ((w0 >>> 30) != 2) return null;
    int top9 = w0 >>> 23;
    if (top9 == 0x17d) return scalar(Format.SOP1, (w0 >>> 8) & 0xff, bits, cur, address);
    if (top9 == 0x17e) return scalar(Format.SOPC, (w0 >>> 16) & 0x7f, bits, cur, address);
    if (top9 == 0x17f) return scalar(Format.SOPP, (w0 >>> 16) & 0x7f, bits, cur, address);
    if ((w0 >>> 28) == 0xb) return scalar(Format.SOPK, (w0 >>> 23) & 0x1f, bits, cur, address);
    return scalar(Format.SOP2, (w0 >>> 23) & 0x7f, bits, cur, address);
  }

  private OpcodeInfo row(Format format, int opcode, long bits) {
    OpcodeInfo info = tables.lookup(target, format, opcode);
    if (info == null || !info.accepts(bits)) return null;
    return info;
  }

  private Instruction.Builder start(OpcodeInfo info, long bits, long address) {
    Instruction.Builder b = new Instruction.Builder(target, address);
    b.info = info;
    b.word0 = (int) bits;
    b.word1 = (int) (bits >>> 32);
    return b;
  }

  private static Instruction finish(Instruction.Builder b, Cursor cur) {
    b.size = cur.size();
    if (cur.literalRead) {
      b.hasLiteral = true;
      b.literal = cur.literalValue;
    }
    return b.build();
  }

  // ------------------------------------------------------------------------------------------------- scalar

  private Instruction scalar(Format format, int opcode, long bits, Cursor cur, long address) {
    OpcodeInfo info = row(format, opcode, bits);
    if (info == null) return null;
    Instruction.Builder b = start(info, bits, address);
    if (format == Format.SOPP || format == Format.SOPK) b.imm = (int) bits & 0xffff;
    if (format == Format.SOPC && info.immStyle() == ImmStyle.GPR_IDX) b.imm = (int) (bits >>> 8) & 0xff;
    if (!fieldOperands(info, bits, cur, b, false, false, false)) return null;
    if (info.hasFlag(OpcodeInfo.FLAG_LITERAL)) {
      Integer lit = cur.literal();
      if (lit == null) return null;
    }
    return finish(b, cur);
  }

  private Instruction scalarMemory(int opcode, long bits, Cursor cur, long address) {
    OpcodeInfo info = row(Format.SMEM, opcode, bits);
    if (info == null) return null;
    Instruction.Builder b = start(info, bits, address);
    for (OperandSpec s : info.operandArray()) {
      int v = s.extract(bits);
      Operand op;
      switch (s.slot()) {
        case SBASE -> op = Operands.nonVgpr(v << 1, s.dwords(), null, null);
        case SDATA -> {
          if (s.kind() == FieldKind.IMMEDIATE) {
            b.imm = v;
            continue;
          }
          op = Operands.nonVgpr(v, s.dwords(), ValueType.REG, null);
        }
        default -> op = Operands.nonVgpr(v, s.dwords(), ValueType.REG, null);
      }
      if (op == null) return null;
      b.set(s.slot(), op);
    }
    // Offset forms: imm=1 a 21-bit signed byte offset; imm=0 an SGPR in offset[6:0]; soe adds the SGPR in
    // bits 63:57 (then the immediate offset follows only when imm=1).
    boolean imm = ((bits >>> 17) & 1) != 0;
    boolean soe = ((bits >>> 14) & 1) != 0;
    int offset = 0;
    boolean hasOffset = false;
    if (b.get(Slot.SBASE) != null) {
      Operand soffset = null;
      if (soe) {
        soffset = Operands.nonVgpr((int) (bits >>> 57) & 0x7f, 1, ValueType.REG, null);
      } else if (!imm) {
        soffset = Operands.nonVgpr((int) (bits >>> 32) & 0x7f, 1, ValueType.REG, null);
      }
      if ((soe || !imm) && soffset == null) return null;
      if (soffset != null) b.set(Slot.SOFFSET, soffset);
      if (imm) {
        offset = ((int) (bits >>> 32) << 11) >> 11;
        hasOffset = true;
      }
    }
    int cpol = ((bits >>> 16) & 1) != 0 && info.uses(1L << 16) ? MemoryFields.GLC : 0;
    b.memory = new MemoryFields(offset, 0, cpol, hasOffset ? MemoryFields.IMMEDIATE_OFFSET : 0, 0, 0);
    return finish(b, cur);
  }

  // ------------------------------------------------------------------------------------------------- vector

  private Instruction vector(Format format, int opcode, long bits, Cursor cur, long address) {
    OpcodeInfo info = row(format, opcode, bits);
    if (info == null) return null;
    Instruction.Builder b = start(info, bits, address);
    boolean matrix = info.operation().category() == Operation.Category.MATRIX;
    boolean accCd = matrix && info.uses(1L << 15) && ((bits >>> 15) & 1) != 0;
    boolean acc0 = matrix && info.uses(1L << 59) && ((bits >>> 59) & 1) != 0;
    boolean acc1 = matrix && info.uses(1L << 60) && ((bits >>> 60) & 1) != 0;
    if (!fieldOperands(info, bits, cur, b, accCd, acc0, acc1)) return null;
    switch (format) {
      case VOP3 -> vop3Modifiers(info, bits, b);
      case VOP3P -> {
        if (matrix) {
          b.mfma = new Mfma((int) (bits >>> 8) & 7, (int) (bits >>> 11) & 0xf, (int) (bits >>> 61) & 7);
        } else {
          vop3pModifiers(info, bits, b);
        }
      }
      case VOP1_DPP, VOP2_DPP -> {
        b.dpp = new Dpp((int) (bits >>> 40) & 0x1ff, (int) (bits >>> 60) & 0xf, (int) (bits >>> 56) & 0xf,
            ((bits >>> 51) & 1) != 0);
        srcMods(info, b, bits, 0, Operand.NEG, 52);
        srcMods(info, b, bits, 0, Operand.ABS, 53);
        srcMods(info, b, bits, 1, Operand.NEG, 54);
        srcMods(info, b, bits, 1, Operand.ABS, 55);
      }
      case VOP1_SDWA, VOP2_SDWA, VOPC_SDWA -> {
        b.sdwa = new Sdwa((int) (bits >>> 40) & 7, (int) (bits >>> 43) & 3, (int) (bits >>> 48) & 7,
            (int) (bits >>> 56) & 7);
        if (format != Format.VOPC_SDWA) {
          b.clamp = info.uses(1L << 45) && ((bits >>> 45) & 1) != 0;
          b.omod = info.uses(3L << 46) ? (int) (bits >>> 46) & 3 : 0;
        }
        srcMods(info, b, bits, 0, Operand.SEXT, 51);
        srcMods(info, b, bits, 0, Operand.NEG, 52);
        srcMods(info, b, bits, 0, Operand.ABS, 53);
        srcMods(info, b, bits, 1, Operand.SEXT, 59);
        srcMods(info, b, bits, 1, Operand.NEG, 60);
        srcMods(info, b, bits, 1, Operand.ABS, 61);
      }
      default -> {
      }
    }
    return finish(b, cur);
  }

  private static void vop3Modifiers(OpcodeInfo info, long bits, Instruction.Builder b) {
    b.clamp = info.uses(1L << 15) && ((bits >>> 15) & 1) != 0;
    b.omod = info.uses(3L << 59) ? (int) (bits >>> 59) & 3 : 0;
    for (int i = 0; i < 3; i++) {
      srcMods(info, b, bits, i, Operand.ABS, 8 + i);
      srcMods(info, b, bits, i, Operand.NEG, 61 + i);
      srcMods(info, b, bits, i, Operand.OP_SEL, 11 + i);
    }
    b.opSel = (int) (bits >>> 11) & (int) (info.liveMask() >>> 11) & 0xf;
  }

  private static void vop3pModifiers(OpcodeInfo info, long bits, Instruction.Builder b) {
    b.clamp = info.uses(1L << 15) && ((bits >>> 15) & 1) != 0;
    for (int i = 0; i < 3; i++) {
      srcMods(info, b, bits, i, Operand.NEG, 61 + i);
      srcMods(info, b, bits, i, Operand.NEG_HI, 8 + i);
      srcMods(info, b, bits, i, Operand.OP_SEL, 11 + i);
      srcMods(info, b, bits, i, Operand.OP_SEL_HI, i == 2 ? 14 : 59 + i);
    }
  }

  /** Sets a modifier on the operand read from source field {@code src} when its control bit is used and set. */
  private static void srcMods(OpcodeInfo info, Instruction.Builder b, long bits, int src, int modifier, int bit) {
    if (!info.uses(1L << bit) || ((bits >>> bit) & 1) == 0) return;
    Slot slot = info.sourceSlot(src);
    if (slot == null) return;
    Operand op = b.get(slot);
    if (op != null) b.set(slot, op.withMods(op.mods() | modifier));
  }

  /**
   * Decodes the table's operands of an instruction. Returns false when a field holds an encoding LLVM rejects.
   */
  private boolean fieldOperands(OpcodeInfo info, long bits, Cursor cur, Instruction.Builder b, boolean accCd,
      boolean acc0, boolean acc1) {
    for (OperandSpec s : info.operandArray()) {
      Operand op;
      switch (s.kind()) {
        case FIXED -> op = Operands.vcc();
        case LITERAL -> {
          Integer lit = cur.literal();
          if (lit == null) return false;
          op = new Operand(OperandKind.LITERAL, Operands.LITERAL, 1, lit & 0xffffffffL, ValueType.B32, 0);
        }
        case VGPR -> {
          int v = s.extract(bits);
          boolean agpr = accCd && s.slot() == Slot.VDST;
          op = agpr ? Operands.agpr(v, s.dwords()) : Operands.vgpr(v, s.dwords());
        }
        case AGPR -> op = Operands.agpr(s.extract(bits), s.dwords());
        case SCALAR -> {
          int v = s.extract(bits);
          if (s.extraBit() == 47) {
            // VOPC SDWA: SD clear means the result goes to vcc.
            op = (v & 0x80) == 0 ? Operands.vcc() : Operands.nonVgpr(v & 0x7f, s.dwords(), ValueType.REG, null);
          } else {
            op = Operands.nonVgpr(v, s.dwords(), s.type() == null ? ValueType.REG : s.type(), cur);
          }
        }
        case SOURCE, SOURCE_AGPR -> {
          int v = s.extract(bits);
          if (info.format().encoding() == Encoding.SDWA) {
            op = Operands.sdwaSource(v, s.type());
          } else {
            boolean agpr = s.kind() == FieldKind.SOURCE_AGPR
                || (acc0 && "src0".equals(s.field())) || (acc1 && "src1".equals(s.field()))
                || (accCd && "src2".equals(s.field()) && s.slot() == Slot.SRC2 && s.dwords() > 1);
            op = Operands.source(v, s.dwords(), s.type(), cur, agpr);
          }
        }
        case IMMEDIATE -> {
          b.imm = s.extract(bits);
          continue;
        }
        default -> throw new IllegalStateException(s.kind().toString());
      }
      if (op == null) return false;
      b.set(s.slot(), op);
    }
    return true;
  }

  // ----------------------------------------------------------------------------------------------- DS

  private Instruction dataShare(int opcode, long bits, Cursor cur, long address) {
    OpcodeInfo info = row(Format.DS, opcode, bits);
    if (info == null) return null;
    Instruction.Builder b = start(info, bits, address);
    boolean acc = info.uses(1L << 25) && ((bits >>> 25) & 1) != 0;
    for (OperandSpec s : info.operandArray()) {
      int v = s.extract(bits);
      boolean agpr = acc && s.slot() != Slot.ADDR;
      Operand op = agpr ? Operands.agpr(v, s.dwords()) : Operands.vgpr(v, s.dwords());
      if (op == null) return null;
      b.set(s.slot(), op);
    }
    int off0 = (int) bits & 0xff;
    int off1 = (int) (bits >>> 8) & 0xff;
    // gds is a selector: the ds_gws_* operations exist only with it
    boolean gds = ((bits >>> 16) & 1) != 0 && (info.uses(1L << 16) || !info.acceptsVariant(0));
    int flags = MemoryFields.IMMEDIATE_OFFSET | (gds ? MemoryFields.GDS : 0);
    b.memory = info.hasFlag(OpcodeInfo.FLAG_TWO_OFFSETS)
        ? new MemoryFields(off0, off1, 0, flags, 0, 0)
        : new MemoryFields((int) bits & 0xffff, 0, 0, flags, 0, 0);
    return finish(b, cur);
  }

  // ------------------------------------------------------------------------------------------- MUBUF/MTBUF

  private Instruction buffer(Format format, int opcode, long bits, Cursor cur, long address) {
    OpcodeInfo info = row(format, opcode, bits);
    if (info == null) return null;
    Instruction.Builder b = start(info, bits, address);
    boolean offen = ((bits >>> 12) & 1) != 0;
    boolean idxen = ((bits >>> 13) & 1) != 0;
    boolean acc = info.uses(1L << 55) && ((bits >>> 55) & 1) != 0;
    // lds is a selector: buffer_store_lds_dword exists only with it, so it is "used" there without being live
    boolean lds = format == Format.MUBUF && ((bits >>> 16) & 1) != 0
        && (info.uses(1L << 16) || !info.acceptsVariant(0));
    for (OperandSpec s : info.operandArray()) {
      int v = s.extract(bits);
      Operand op;
      switch (s.slot()) {
        case VDATA -> {
          if (lds) continue;
          op = acc ? Operands.agpr(v, s.dwords()) : Operands.vgpr(v, s.dwords());
        }
        case SRSRC -> op = Operands.nonVgpr(v << 2, 4, null, null);
        case SOFFSET -> op = Operands.nonVgpr(v, 1, s.type(), cur);
        default -> op = Operands.vgpr(v, s.dwords());
      }
      if (op == null) return null;
      b.set(s.slot(), op);
    }
    if (offen || idxen) b.set(Slot.VADDR, Operands.vgpr((int) (bits >>> 32) & 0xff, offen && idxen ? 2 : 1));
    int cpol = 0;
    if (info.uses(1L << 14) && ((bits >>> 14) & 1) != 0) cpol |= MemoryFields.GLC;
    int slcBit = format == Format.MUBUF ? 17 : 54;
    int sccBit = format == Format.MUBUF ? 15 : 53;
    if (info.uses(1L << slcBit) && ((bits >>> slcBit) & 1) != 0) cpol |= MemoryFields.SLC;
    if (info.uses(1L << sccBit) && ((bits >>> sccBit) & 1) != 0) cpol |= MemoryFields.SCC;
    int dfmt = format == Format.MTBUF ? (int) (bits >>> 19) & 0xf : 0;
    int nfmt = format == Format.MTBUF ? (int) (bits >>> 23) & 0x7 : 0;
    int flags = MemoryFields.IMMEDIATE_OFFSET | (offen ? MemoryFields.OFFEN : 0) | (idxen ? MemoryFields.IDXEN : 0)
        | (lds ? MemoryFields.LDS : 0);
    b.memory = new MemoryFields((int) bits & 0xfff, 0, cpol, flags, dfmt, nfmt);
    return finish(b, cur);
  }

  // ------------------------------------------------------------------------------------ FLAT/GLOBAL/SCRATCH

  private Instruction flat(Format format, int opcode, long bits, Cursor cur, long address) {
    OpcodeInfo info = row(format, opcode, bits);
    if (info == null) return null;
    Instruction.Builder b = start(info, bits, address);
    boolean acc = info.uses(1L << 55) && ((bits >>> 55) & 1) != 0;
    boolean saddrOff = ((bits >>> 48) & 0x7f) == 0x7f;
    boolean bit13 = info.uses(1L << 13) && ((bits >>> 13) & 1) != 0;
    // Bit 13 is "lds" on gfx90a (data goes to LDS, no destination) and "sve" (scratch vaddr enable) on gfx940.
    boolean lds = bit13 && !target.isCdna3();
    boolean glc = info.uses(1L << 16) && ((bits >>> 16) & 1) != 0;
    int vaddr = (int) (bits >>> 32) & 0xff;
    for (OperandSpec s : info.operandArray()) {
      int v = s.extract(bits);
      switch (s.slot()) {
        case VDST -> {
          if (lds) continue;
          Operand op = acc ? Operands.agpr(v, s.dwords()) : Operands.vgpr(v, s.dwords());
          if (op == null) return null;
          b.set(Slot.VDST, op);
        }
        case DATA0 -> {
          Operand op = acc ? Operands.agpr(v, s.dwords()) : Operands.vgpr(v, s.dwords());
          if (op == null) return null;
          b.set(Slot.DATA0, op);
        }
        default -> {
        }
      }
    }
    Operand data = b.get(Slot.DATA0);
    if (glc && data != null && info.operand(Slot.VDST) == null && isAtomic(info.operation())) {
      // An atomic with glc (sc0) returns the old value.
      int dwords = info.operation().name().contains("CMPSWAP") ? Math.max(1, data.dwords() / 2) : data.dwords();
      int v = (int) (bits >>> 56) & 0xff;
      Operand op = acc ? Operands.agpr(v, dwords) : Operands.vgpr(v, dwords);
      if (op == null) return null;
      b.set(Slot.VDST, op);
    }
    switch (format) {
      case FLAT -> b.set(Slot.ADDR, Operands.vgpr(vaddr, 2));
      case GLOBAL -> {
        b.set(Slot.ADDR, Operands.vgpr(vaddr, saddrOff ? 2 : 1));
        if (!saddrOff) b.set(Slot.SADDR, saddr((int) (bits >>> 48) & 0x7f, 2));
      }
      default -> {
        boolean hasVaddr = target.isCdna3() ? bit13 : saddrOff;
        if (hasVaddr) b.set(Slot.ADDR, Operands.vgpr(vaddr, 1));
        if (!saddrOff) b.set(Slot.SADDR, saddr((int) (bits >>> 48) & 0x7f, 1));
      }
    }
    if (!saddrOff && format != Format.FLAT && b.get(Slot.SADDR) == null) return null;
    int cpol = glc ? MemoryFields.GLC : 0;
    if (info.uses(1L << 17) && ((bits >>> 17) & 1) != 0) cpol |= MemoryFields.SLC;
    if (info.uses(1L << 25) && ((bits >>> 25) & 1) != 0) cpol |= MemoryFields.SCC;
    int raw = (int) bits & 0x1fff;
    int offset = format == Format.FLAT ? raw : (raw << 19) >> 19;
    b.memory = new MemoryFields(offset, 0, cpol, MemoryFields.IMMEDIATE_OFFSET | (lds ? MemoryFields.LDS : 0), 0, 0);
    return finish(b, cur);
  }

  private static Operand saddr(int enc, int dwords) {
    return Operands.nonVgpr(enc, dwords, null, null);
  }

  private static boolean isAtomic(Operation op) {
    return op.name().contains("_ATOMIC_");
  }

  // ---------------------------------------------------------------------------------------------- bytes

  static int le32(byte[] b, int i) {
    return (b[i] & 0xff) | (b[i + 1] & 0xff) << 8 | (b[i + 2] & 0xff) << 16 | (b[i + 3] & 0xff) << 24;
  }

  private static int partialWord(byte[] b, int i, int n) {
    int v = 0;
    for (int k = 0; k < n; k++) v |= (b[i + k] & 0xff) << (8 * k);
    return v;
  }

  /** Reads the literal dword after the base encoding, once, when an operand asks for it. */
  private static final class Cursor implements Operands.LiteralSource {
    final byte[] code;
    final int start;
    final int end;
    int base;
    boolean literalRead;
    int literalValue;

    Cursor(byte[] code, int start, int end) {
      this.code = code;
      this.start = start;
      this.end = end;
    }

    void reset(int baseBytes) {
      base = baseBytes;
      literalRead = false;
    }

    int size() {
      return base + (literalRead ? 4 : 0);
    }

    @Override
    public Integer literal() {
      if (!literalRead) {
        if (start + base + 4 > end) return null;
        literalValue = le32(code, start + base);
        literalRead = true;
      }
      return literalValue;
    }
  }
}
