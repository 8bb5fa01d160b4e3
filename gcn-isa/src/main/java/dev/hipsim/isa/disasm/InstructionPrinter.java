package dev.hipsim.isa.disasm;

import dev.hipsim.isa.decode.Dpp;
import dev.hipsim.isa.decode.Encoding;
import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.ImmStyle;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.MemoryFields;
import dev.hipsim.isa.decode.Mfma;
import dev.hipsim.isa.decode.OpcodeInfo;
import dev.hipsim.isa.decode.Operand;
import dev.hipsim.isa.decode.OperandKind;
import dev.hipsim.isa.decode.OperandSpec;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Sdwa;
import dev.hipsim.isa.decode.Slot;
import dev.hipsim.isa.decode.Special;
import dev.hipsim.isa.decode.Target;

/**
 * Writes a decoded instruction in the syntax of LLVM 22's AMDGPU disassembler (llvm-objdump, llvm-mc): the same
 * mnemonic, operands and modifiers, from the decoded form alone.
 */
public final class InstructionPrinter {
  private InstructionPrinter() {}

  public static String print(Instruction inst) {
    StringBuilder sb = new StringBuilder(48);
    print(inst, sb);
    return sb.toString();
  }

  public static void print(Instruction inst, StringBuilder sb) {
    OpcodeInfo info = inst.info();
    if (info == null) {
      invalid(inst, sb);
      return;
    }
    sb.append(info.mnemonic());
    switch (info.format()) {
      case SOP1, SOP2, SOPC, SOPK, SOPP -> scalar(inst, info, sb);
      case SMEM -> scalarMemory(inst, info, sb);
      case DS -> dataShare(inst, info, sb);
      case MUBUF, MTBUF -> buffer(inst, info, sb);
      case FLAT, GLOBAL, SCRATCH -> flat(inst, info, sb);
      default -> vector(inst, info, sb);
    }
  }

  private static void invalid(Instruction inst, StringBuilder sb) {
    if (inst.size() >= 4) {
      sb.append(".long 0x").append(String.format("%08x", inst.word0()));
    } else {
      sb.append(".byte ");
      for (int i = 0; i < inst.size(); i++) {
        if (i > 0) sb.append(", ");
        sb.append("0x").append(String.format("%02x", (inst.word0() >>> (8 * i)) & 0xff));
      }
    }
  }

  // --------------------------------------------------------------------------------------------- operands

  /** A register or constant operand without modifiers. */
  static void operand(StringBuilder sb, Operand op) {
    switch (op.kind()) {
      case SGPR -> regRange(sb, "s", op);
      case VGPR -> regRange(sb, "v", op);
      case AGPR -> regRange(sb, "a", op);
      case TTMP -> regRange(sb, "ttmp", op);
      case SPECIAL -> sb.append(Special.name(op.index(), op.dwords()));
      default -> ConstantText.append(sb, op);
    }
  }

  private static void regRange(StringBuilder sb, String prefix, Operand op) {
    sb.append(prefix);
    if (op.dwords() == 1) {
      sb.append(op.index());
    } else {
      sb.append('[').append(op.index()).append(':').append(op.index() + op.dwords() - 1).append(']');
    }
  }

  /** A source with its neg/abs/sext modifiers written inline, as LLVM does outside VOP3P. */
  private static void source(StringBuilder sb, Operand op) {
    if (op.has(Operand.SEXT)) {
      sb.append("sext(");
      operand(sb, op);
      sb.append(')');
      return;
    }
    boolean neg = op.has(Operand.NEG);
    boolean abs = op.has(Operand.ABS);
    boolean negCall = neg && !abs && op.isConstant();
    if (neg) sb.append(negCall ? "neg(" : "-");
    if (abs) sb.append('|');
    operand(sb, op);
    if (abs) sb.append('|');
    if (negCall) sb.append(')');
  }

  // ----------------------------------------------------------------------------------------------- scalar

  private static void scalar(Instruction inst, OpcodeInfo info, StringBuilder sb) {
    ImmStyle style = info.immStyle();
    String mn = info.mnemonic();
    boolean immFirst = mn.equals("s_setreg_b32") || mn.equals("s_setreg_imm32_b32");
    boolean first = true;
    if (immFirst) {
      sb.append(' ');
      immediate(inst, style, sb);
      first = false;
    }
    for (OperandSpec s : info.operands()) {
      Operand op = inst.operand(s.slot());
      if (op == null) continue;
      sb.append(first ? " " : ", ");
      operand(sb, op);
      first = false;
    }
    if (mn.equals("s_setreg_imm32_b32")) {
      sb.append(", ");
      ConstantText.hex(sb, inst.literal() & 0xffffffffL);
      return;
    }
    if (!immFirst && style != ImmStyle.NONE) {
      if (style == ImmStyle.ENDPGM) {
        if (inst.imm() != 0) sb.append(' ').append(inst.imm());
        return;
      }
      sb.append(first ? " " : ", ");
      immediate(inst, style, sb);
    }
  }

  private static void immediate(Instruction inst, ImmStyle style, StringBuilder sb) {
    int imm = inst.imm();
    switch (style) {
      case BRANCH, ENDPGM -> sb.append(imm & 0xffff);
      case DECIMAL -> {
        int v = imm & 0xffff;
        if (v <= 64) sb.append(v);
        else ConstantText.hex(sb, v);
      }
      case WAITCNT -> SymbolicText.waitcnt(sb, imm);
      case SENDMSG -> SymbolicText.sendmsg(sb, imm);
      case GPR_IDX -> SymbolicText.gprIdx(sb, imm);
      case HWREG -> SymbolicText.hwreg(sb, imm, inst.target());
      case HEX16 -> ConstantText.hex(sb, imm & 0xffff);
      default -> {
      }
    }
  }

  private static void scalarMemory(Instruction inst, OpcodeInfo info, StringBuilder sb) {
    boolean first = true;
    for (OperandSpec s : info.operands()) {
      sb.append(first ? " " : ", ");
      first = false;
      if (s.kind() == OperandSpec.FieldKind.IMMEDIATE) {
        if (inst.imm() <= 64) sb.append(inst.imm());
        else ConstantText.hex(sb, inst.imm());
      } else {
        operand(sb, inst.operand(s.slot()));
      }
    }
    MemoryFields m = inst.memory();
    if (inst.operand(Slot.SBASE) != null) {
      sb.append(", ");
      Operand soffset = inst.operand(Slot.SOFFSET);
      if (soffset != null) {
        operand(sb, soffset);
        if (m.immediateOffset()) sb.append(" offset:");
      }
      if (m.immediateOffset()) signedHex(sb, m.offset());
    }
    if (m.glc()) sb.append(" glc");
  }

  private static void signedHex(StringBuilder sb, int v) {
    if (v < 0) {
      sb.append("-0x").append(Integer.toHexString(-v));
    } else {
      sb.append("0x").append(Integer.toHexString(v));
    }
  }

  // ----------------------------------------------------------------------------------------------- vector

  private static void vector(Instruction inst, OpcodeInfo info, StringBuilder sb) {
    boolean packed = info.format() == Format.VOP3P;
    // v_fma_mix*: neg_lo and neg_hi act as neg and abs of the selected halves and print that way
    boolean mix = packed && info.mnemonic().startsWith("v_fma_mix");
    boolean first = true;
    for (OperandSpec s : info.operands()) {
      Operand op = inst.operand(s.slot());
      if (op == null) continue;
      sb.append(first ? " " : ", ");
      first = false;
      if (s.kind() == OperandSpec.FieldKind.LITERAL) {
        ConstantText.appendK(sb, op.value());
      } else if (packed && !mix) {
        operand(sb, op);
      } else if (packed) {
        mixSource(sb, op);
      } else {
        source(sb, op);
      }
    }
    switch (info.format()) {
      case VOP3 -> {
        opSel(inst, info, sb);
        clampOmod(inst, sb);
      }
      case VOP3P -> {
        if (inst.mfma() != null) {
          mfma(inst, sb);
        } else {
          packedModifiers(inst, info, sb, mix);
          if (inst.clamp()) sb.append(" clamp");
        }
      }
      case VOP1_DPP, VOP2_DPP -> dpp(inst, info, sb);
      case VOP1_SDWA, VOP2_SDWA, VOPC_SDWA -> sdwa(inst, info, sb);
      default -> {
      }
    }
  }

  private static void clampOmod(Instruction inst, StringBuilder sb) {
    if (inst.clamp()) sb.append(" clamp");
    switch (inst.omod()) {
      case 1 -> sb.append(" mul:2");
      case 2 -> sb.append(" mul:4");
      case 3 -> sb.append(" div:2");
      default -> {
      }
    }
  }

  /** The number of ALU source operands a form has (src0..src2 fields present). */
  private static int sourceCount(OpcodeInfo info) {
    int n = 0;
    for (int i = 0; i < 3; i++) {
      if (info.sourceSlot(i) != null) n++;
    }
    return n;
  }

  /** The operand read from source field i (src0, src1/vsrc1, src2). */
  private static Operand sourceField(Instruction inst, OpcodeInfo info, int i) {
    Slot slot = info.sourceSlot(i);
    return slot == null ? null : inst.operand(slot);
  }

  private static void opSel(Instruction inst, OpcodeInfo info, StringBuilder sb) {
    if (!info.uses(0xfL << 11) || inst.opSel() == 0) return;
    int n = sourceCount(info);
    // LLVM gives the stochastic-rounding fp8 conversions an (unused) third source, and so a third op_sel entry
    Operation operation = inst.operation();
    if (operation == Operation.V_CVT_SR_BF8_F32 || operation == Operation.V_CVT_SR_FP8_F32) n = 3;
    sb.append(" op_sel:[");
    for (int i = 0; i < n; i++) {
      if (i > 0) sb.append(',');
      sb.append((inst.opSel() >>> i) & 1);
    }
    if (info.uses(1L << 14)) sb.append(',').append(inst.dstOpSel() ? 1 : 0);
    sb.append(']');
  }

  private static void packedModifiers(Instruction inst, OpcodeInfo info, StringBuilder sb, boolean mix) {
    int n = sourceCount(info);
    boolean packed = info.hasFlag(OpcodeInfo.FLAG_PACKED);
    packedArray(inst, info, sb, n, " op_sel:[", Operand.OP_SEL, false);
    packedArray(inst, info, sb, n, " op_sel_hi:[", Operand.OP_SEL_HI, packed);
    if (mix) return;
    packedArray(inst, info, sb, n, " neg_lo:[", Operand.NEG, false);
    packedArray(inst, info, sb, n, " neg_hi:[", Operand.NEG_HI, false);
  }

  /** A v_fma_mix source: neg_lo prints as negation, neg_hi as absolute value. */
  private static void mixSource(StringBuilder sb, Operand op) {
    int m = 0;
    if (op.has(Operand.NEG)) m |= Operand.NEG;
    if (op.has(Operand.NEG_HI)) m |= Operand.ABS;
    source(sb, op.withMods(m));
  }

  private static void packedArray(Instruction inst, OpcodeInfo info, StringBuilder sb, int n, String name, int mod,
      boolean defaultSet) {
    boolean allDefault = true;
    for (int i = 0; i < n; i++) {
      Operand op = sourceField(inst, info, i);
      boolean set = op != null ? op.has(mod) : defaultSet;
      if (set != defaultSet) allDefault = false;
    }
    if (allDefault) return;
    sb.append(name);
    for (int i = 0; i < n; i++) {
      Operand op = sourceField(inst, info, i);
      if (i > 0) sb.append(',');
      sb.append((op != null ? op.has(mod) : defaultSet) ? 1 : 0);
    }
    sb.append(']');
  }

  private static void mfma(Instruction inst, StringBuilder sb) {
    Mfma m = inst.mfma();
    if (m.cbsz() != 0) sb.append(" cbsz:").append(m.cbsz());
    if (m.abid() != 0) sb.append(" abid:").append(m.abid());
    if (m.blgp() != 0) {
      Operation op = inst.operation();
      boolean f64 = inst.target().isCdna3()
          && (op == Operation.V_MFMA_F64_16X16X4_F64 || op == Operation.V_MFMA_F64_4X4X4_4B_F64);
      if (f64) {
        int b = m.blgp();
        sb.append(" neg:[").append(b & 1).append(',').append((b >>> 1) & 1).append(',').append((b >>> 2) & 1)
            .append(']');
      } else {
        sb.append(" blgp:").append(m.blgp());
      }
    }
  }

  private static void dpp(Instruction inst, OpcodeInfo info, StringBuilder sb) {
    Dpp d = inst.dpp();
    SymbolicText.dppControl(sb, d.control(), info.hasFlag(OpcodeInfo.FLAG_DP_ALU));
    sb.append(" row_mask:0x").append(Integer.toHexString(d.rowMask()));
    sb.append(" bank_mask:0x").append(Integer.toHexString(d.bankMask()));
    if (d.boundControl()) sb.append(" bound_ctrl:1");
  }

  private static void sdwa(Instruction inst, OpcodeInfo info, StringBuilder sb) {
    Sdwa s = inst.sdwa();
    clampOmod(inst, sb);
    if (info.format() != Format.VOPC_SDWA && info.operand(Slot.VDST) != null) {
      sb.append(" dst_sel:").append(SymbolicText.sdwaSel(s.dstSel()));
      sb.append(" dst_unused:").append(SymbolicText.sdwaUnused(s.dstUnused()));
    }
    boolean src0 = false;
    boolean src1 = false;
    for (OperandSpec o : info.operands()) {
      if ("src0".equals(o.field())) src0 = true;
      if ("vsrc1".equals(o.field())) src1 = true;
    }
    if (src0) sb.append(" src0_sel:").append(SymbolicText.sdwaSel(s.src0Sel()));
    if (src1) sb.append(" src1_sel:").append(SymbolicText.sdwaSel(s.src1Sel()));
  }

  // ----------------------------------------------------------------------------------------------- memory

  private static void dataShare(Instruction inst, OpcodeInfo info, StringBuilder sb) {
    boolean first = true;
    for (OperandSpec s : info.operands()) {
      Operand op = inst.operand(s.slot());
      if (op == null) continue;
      sb.append(first ? " " : ", ");
      first = false;
      operand(sb, op);
    }
    MemoryFields m = inst.memory();
    if (info.hasFlag(OpcodeInfo.FLAG_TWO_OFFSETS)) {
      if (m.offset() != 0) sb.append(" offset0:").append(m.offset());
      if (m.offset1() != 0) sb.append(" offset1:").append(m.offset1());
    } else if (info.hasFlag(OpcodeInfo.FLAG_SWIZZLE)) {
      SymbolicText.swizzle(sb, m.offset());
    } else if (m.offset() != 0) {
      sb.append(" offset:").append(m.offset());
    }
    if (m.gds()) sb.append(" gds");
  }

  private static void buffer(Instruction inst, OpcodeInfo info, StringBuilder sb) {
    MemoryFields m = inst.memory();
    if (info.operand(Slot.SRSRC) != null) {
      sb.append(' ');
      Operand vdata = inst.operand(Slot.VDATA);
      if (vdata != null) {
        operand(sb, vdata);
        sb.append(", ");
      }
      Operand vaddr = inst.operand(Slot.VADDR);
      if (vaddr != null) {
        operand(sb, vaddr);
        sb.append(", ");
      } else if (inst.operation() != Operation.BUFFER_STORE_LDS_DWORD) {
        // buffer_store_lds_dword has no address position at all
        sb.append("off, ");
      }
      operand(sb, inst.operand(Slot.SRSRC));
      sb.append(", ");
      operand(sb, inst.operand(Slot.SOFFSET));
      if (info.format() == Format.MTBUF) SymbolicText.bufferFormat(sb, m.dataFormat(), m.numberFormat());
      if (m.idxen()) sb.append(" idxen");
      if (m.offen()) sb.append(" offen");
      if (m.offset() != 0) sb.append(" offset:").append(m.offset());
    }
    // buffer_store_lds_dword spells lds as part of its syntax, before the cache bits
    boolean ldsFirst = inst.operation() == Operation.BUFFER_STORE_LDS_DWORD;
    if (m.lds() && ldsFirst) sb.append(" lds");
    cachePolicy(inst.target(), m, sb);
    if (m.lds() && !ldsFirst) sb.append(" lds");
  }

  private static void cachePolicy(Target target, MemoryFields m, StringBuilder sb) {
    boolean cdna3 = target.isCdna3();
    if (m.glc()) sb.append(cdna3 ? " sc0" : " glc");
    if (m.slc()) sb.append(cdna3 ? " nt" : " slc");
    if (m.scc()) sb.append(cdna3 ? " sc1" : " scc");
  }

  private static void flat(Instruction inst, OpcodeInfo info, StringBuilder sb) {
    MemoryFields m = inst.memory();
    Format f = info.format();
    sb.append(' ');
    Operand vdst = inst.operand(Slot.VDST);
    if (vdst != null) {
      operand(sb, vdst);
      sb.append(", ");
    }
    Operand addr = inst.operand(Slot.ADDR);
    if (addr != null) {
      operand(sb, addr);
    } else {
      sb.append("off");
    }
    Operand data = inst.operand(Slot.DATA0);
    if (data != null) {
      sb.append(", ");
      operand(sb, data);
    }
    if (f != Format.FLAT) {
      sb.append(", ");
      Operand saddr = inst.operand(Slot.SADDR);
      if (saddr != null) {
        operand(sb, saddr);
      } else {
        sb.append("off");
      }
    }
    if (m.offset() != 0) sb.append(" offset:").append(m.offset());
    cachePolicy(inst.target(), m, sb);
    if (m.lds()) sb.append(" lds");
  }

  /** The encoding of an instruction as LLVM's objdump shows it: dwords in hex, most significant digit first. */
  public static String encodingText(Instruction inst) {
    StringBuilder sb = new StringBuilder();
    int words = Math.max(1, inst.size() / 4);
    for (int i = 0; i < words; i++) {
      if (i > 0) sb.append(' ');
      int w = i == 0 ? inst.word0() : i == 1 && inst.encoding() != Encoding.INVALID && inst.encoding().baseBytes() == 8
          ? inst.word1() : inst.literal();
      sb.append(String.format("%08X", w));
    }
    return sb.toString();
  }

  static boolean isRegister(Operand op) {
    return op.kind() != OperandKind.INLINE_CONSTANT && op.kind() != OperandKind.LITERAL;
  }
}
