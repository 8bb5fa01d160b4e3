package dev.hipsim.isa.disasm;

import dev.hipsim.isa.decode.Target;

/** The operands LLVM prints symbolically: waitcnt, sendmsg, hwreg, gpr_idx, swizzle, DPP/SDWA controls, formats. */
final class SymbolicText {
  private SymbolicText() {}

  static void waitcnt(StringBuilder sb, int imm) {
    int vm = (imm & 0xf) | ((imm >>> 14) & 3) << 4;
    int exp = (imm >>> 4) & 7;
    int lgkm = (imm >>> 8) & 0xf;
    boolean defVm = vm == 63;
    boolean defExp = exp == 7;
    boolean defLgkm = lgkm == 15;
    boolean all = defVm && defExp && defLgkm;
    boolean space = false;
    if (!defVm || all) {
      sb.append("vmcnt(").append(vm).append(')');
      space = true;
    }
    if (!defExp || all) {
      if (space) sb.append(' ');
      sb.append("expcnt(").append(exp).append(')');
      space = true;
    }
    if (!defLgkm || all) {
      if (space) sb.append(' ');
      sb.append("lgkmcnt(").append(lgkm).append(')');
    }
  }

  private static final String[] MESSAGES = {
      null, "MSG_INTERRUPT", "MSG_GS", "MSG_GS_DONE", "MSG_SAVEWAVE", "MSG_STALL_WAVE_GEN", "MSG_HALT_WAVES",
      "MSG_ORDERED_PS_DONE", "MSG_EARLY_PRIM_DEALLOC", "MSG_GS_ALLOC_REQ", "MSG_GET_DOORBELL", null, null, null, null,
      "MSG_SYSMSG"};
  private static final String[] GS_OPS = {"GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"};
  private static final String[] SYSMSG_OPS = {
      null, "SYSMSG_OP_ECC_ERR_INTERRUPT", "SYSMSG_OP_REG_RD", null, "SYSMSG_OP_TTRACE_PC", null, null, null};

  static void sendmsg(StringBuilder sb, int imm) {
    int id = imm & 0xf;
    int op = (imm >>> 4) & 7;
    int stream = (imm >>> 8) & 3;
    String name = MESSAGES[id];
    if (name != null) {
      if (id == 2 || id == 3) {
        if (op >= 1 && op <= 3) {
          sb.append("sendmsg(").append(name).append(", ").append(GS_OPS[op]).append(", ").append(stream).append(')');
          return;
        }
        if (op == 0 && id == 3 && stream == 0) {
          sb.append("sendmsg(").append(name).append(", ").append(GS_OPS[0]).append(')');
          return;
        }
      } else if (id == 15) {
        if (SYSMSG_OPS[op] != null && stream == 0) {
          sb.append("sendmsg(").append(name).append(", ").append(SYSMSG_OPS[op]).append(')');
          return;
        }
      } else if (op == 0 && stream == 0) {
        sb.append("sendmsg(").append(name).append(')');
        return;
      }
    }
    if ((imm & ~0x37f) == 0) {
      sb.append("sendmsg(").append(id).append(", ").append(op).append(", ").append(stream).append(')');
    } else {
      sb.append(imm);
    }
  }

  private static final String[] HWREGS = {
      null, "HW_REG_MODE", "HW_REG_STATUS", "HW_REG_TRAPSTS", "HW_REG_HW_ID", "HW_REG_GPR_ALLOC", "HW_REG_LDS_ALLOC",
      "HW_REG_IB_STS", null, null, null, null, null, null, null, "HW_REG_SH_MEM_BASES", "HW_REG_TBA_LO",
      "HW_REG_TBA_HI", "HW_REG_TMA_LO", "HW_REG_TMA_HI", "HW_REG_XCC_ID", "HW_REG_SQ_PERF_SNAPSHOT_DATA",
      "HW_REG_SQ_PERF_SNAPSHOT_DATA1", "HW_REG_SQ_PERF_SNAPSHOT_PC_LO", "HW_REG_SQ_PERF_SNAPSHOT_PC_HI"};

  static void hwreg(StringBuilder sb, int imm, Target target) {
    int id = imm & 0x3f;
    int offset = (imm >>> 6) & 0x1f;
    int width = ((imm >>> 11) & 0x1f) + 1;
    String name = id < HWREGS.length ? HWREGS[id] : null;
    if (name != null && id >= 20 && !target.isCdna3()) name = null;
    sb.append("hwreg(");
    if (name != null) sb.append(name);
    else sb.append(id);
    if (width != 32 || offset != 0) sb.append(", ").append(offset).append(", ").append(width);
    sb.append(')');
  }

  private static final String[] GPR_IDX = {"SRC0", "SRC1", "SRC2", "DST"};

  static void gprIdx(StringBuilder sb, int imm) {
    if ((imm & ~0xf) != 0) {
      ConstantText.hex(sb, imm);
      return;
    }
    sb.append("gpr_idx(");
    boolean comma = false;
    for (int i = 0; i < 4; i++) {
      if ((imm & (1 << i)) != 0) {
        if (comma) sb.append(',');
        sb.append(GPR_IDX[i]);
        comma = true;
      }
    }
    sb.append(')');
  }

  /** ds_swizzle_b32's offset: printed only when nonzero. */
  static void swizzle(StringBuilder sb, int imm) {
    if (imm == 0) return;
    sb.append(" offset:");
    if ((imm & 0xff00) == 0x8000) {
      sb.append("swizzle(QUAD_PERM");
      for (int i = 0; i < 4; i++) sb.append(',').append((imm >>> (2 * i)) & 3);
      sb.append(')');
    } else if ((imm & 0xe000) == 0xe000) {
      sb.append("swizzle(FFT,").append(imm & 0x1f).append(')');
    } else if ((imm & 0xe000) == 0xc000) {
      sb.append("swizzle(ROTATE,").append((imm >>> 10) & 1).append(',').append((imm >>> 5) & 0x1f).append(')');
    } else if ((imm & 0x8000) == 0) {
      // bitmask permute: and/or/xor masks over 32 lanes
      int and = imm & 0x1f;
      int or = (imm >>> 5) & 0x1f;
      int xor = (imm >>> 10) & 0x1f;
      if (and == 0x1f && or == 0 && Integer.bitCount(xor) == 1) {
        sb.append("swizzle(SWAP,").append(xor).append(')');
      } else if (and == 0x1f && or == 0 && xor > 0 && Integer.bitCount(xor + 1) == 1) {
        sb.append("swizzle(REVERSE,").append(xor + 1).append(')');
      } else {
        int group = 0x1f - and + 1;
        if (group > 1 && Integer.bitCount(group) == 1 && or < group && xor == 0) {
          sb.append("swizzle(BROADCAST,").append(group).append(',').append(or).append(')');
        } else {
          sb.append("swizzle(BITMASK_PERM,\"");
          int p0 = ((0 & and) | or) ^ xor;
          int p1 = ((0x1f & and) | or) ^ xor;
          for (int m = 1 << 4; m > 0; m >>= 1) {
            int a = p0 & m;
            int b = p1 & m;
            sb.append(a == b ? (a == 0 ? '0' : '1') : (a == 0 ? 'p' : 'i'));
          }
          sb.append("\")");
        }
      }
    } else {
      sb.append(imm & 0xffff);
    }
  }

  /** dpp_ctrl; returns false when LLVM prints a comment instead. */
  static void dppControl(StringBuilder sb, int ctrl, boolean doublePrecision) {
    if (doublePrecision && !(ctrl >= 0x150 && ctrl <= 0x15f)) {
      sb.append(" /* DP ALU dpp only supports row_newbcast */");
      return;
    }
    sb.append(' ');
    if (ctrl <= 0xff) {
      sb.append("quad_perm:[").append(ctrl & 3).append(',').append((ctrl >>> 2) & 3).append(',')
          .append((ctrl >>> 4) & 3).append(',').append((ctrl >>> 6) & 3).append(']');
    } else if (ctrl >= 0x101 && ctrl <= 0x10f) {
      sb.append("row_shl:").append(ctrl & 0xf);
    } else if (ctrl >= 0x111 && ctrl <= 0x11f) {
      sb.append("row_shr:").append(ctrl & 0xf);
    } else if (ctrl >= 0x121 && ctrl <= 0x12f) {
      sb.append("row_ror:").append(ctrl & 0xf);
    } else if (ctrl == 0x130) {
      sb.append("wave_shl:1");
    } else if (ctrl == 0x134) {
      sb.append("wave_rol:1");
    } else if (ctrl == 0x138) {
      sb.append("wave_shr:1");
    } else if (ctrl == 0x13c) {
      sb.append("wave_ror:1");
    } else if (ctrl == 0x140) {
      sb.append("row_mirror");
    } else if (ctrl == 0x141) {
      sb.append("row_half_mirror");
    } else if (ctrl == 0x142) {
      sb.append("row_bcast:15");
    } else if (ctrl == 0x143) {
      sb.append("row_bcast:31");
    } else if (ctrl >= 0x150 && ctrl <= 0x15f) {
      sb.append("row_newbcast:").append(ctrl & 0xf);
    } else {
      sb.append("/* Invalid dpp_ctrl value */");
    }
  }

  private static final String[] SELS = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD", "?"};
  private static final String[] UNUSED = {"UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE", "UNUSED_PAD"};

  static String sdwaSel(int sel) {
    return SELS[sel & 7];
  }

  static String sdwaUnused(int unused) {
    return UNUSED[unused & 3];
  }

  private static final String[] DFMT = {
      "BUF_DATA_FORMAT_INVALID", "BUF_DATA_FORMAT_8", "BUF_DATA_FORMAT_16", "BUF_DATA_FORMAT_8_8",
      "BUF_DATA_FORMAT_32", "BUF_DATA_FORMAT_16_16", "BUF_DATA_FORMAT_10_11_11", "BUF_DATA_FORMAT_11_11_10",
      "BUF_DATA_FORMAT_10_10_10_2", "BUF_DATA_FORMAT_2_10_10_10", "BUF_DATA_FORMAT_8_8_8_8",
      "BUF_DATA_FORMAT_32_32", "BUF_DATA_FORMAT_16_16_16_16", "BUF_DATA_FORMAT_32_32_32",
      "BUF_DATA_FORMAT_32_32_32_32", "BUF_DATA_FORMAT_RESERVED_15"};
  private static final String[] NFMT = {
      "BUF_NUM_FORMAT_UNORM", "BUF_NUM_FORMAT_SNORM", "BUF_NUM_FORMAT_USCALED", "BUF_NUM_FORMAT_SSCALED",
      "BUF_NUM_FORMAT_UINT", "BUF_NUM_FORMAT_SINT", "BUF_NUM_FORMAT_RESERVED_6", "BUF_NUM_FORMAT_FLOAT"};

  /** MTBUF data/number format, printed after soffset unless it is the default (dfmt 1, nfmt 0). */
  static void bufferFormat(StringBuilder sb, int dfmt, int nfmt) {
    if (dfmt == 1 && nfmt == 0) return;
    sb.append(" format:[");
    if (dfmt != 1) {
      sb.append(DFMT[dfmt & 0xf]);
      if (nfmt != 0) sb.append(',');
    }
    if (nfmt != 0) sb.append(NFMT[nfmt & 7]);
    sb.append(']');
  }
}
