package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Decoder;
import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.OpcodeInfo;
import dev.hipsim.isa.decode.OpcodeTables;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Target;

/**
 * A small instruction encoder for tests: builds the words of one instruction of any format field by field (from
 * the GFX9/CDNA encoding tables in {@code /work/shared/reference/cdna-isa.md}), so that tests can decode what they
 * wrote with the real {@link Decoder} instead of trusting hand-made {@link Instruction}s.
 *
 * <p>Source operands use the 9-bit ALU encoding: 0-101 SGPRs, 106 vcc, 124 m0, 126 exec, 128-208 integer
 * constants, 240-248 float constants, 255 a literal, 256-511 VGPRs ({@link #v(int)}).
 */
final class Enc {
  final Target target;
  final Format format;
  long bits;
  Integer literal;

  private Enc(Target target, Format format, long bits) {
    this.target = target;
    this.format = format;
    this.bits = bits;
  }

  /** The 9-bit source encoding of VGPR {@code n}. */
  static int v(int n) {
    return 256 + n;
  }

  /** The opcode of {@code op} in {@code format} on {@code target}. */
  static int opcode(Target target, Format format, Operation op) {
    for (OpcodeInfo row : OpcodeTables.get().rows(target)) {
      if (row.format() == format && row.operation() == op) return row.opcode();
    }
    throw new IllegalArgumentException(op + " has no " + format + " form on " + target);
  }

  static boolean has(Target target, Format format, Operation op) {
    for (OpcodeInfo row : OpcodeTables.get().rows(target)) {
      if (row.format() == format && row.operation() == op) return true;
    }
    return false;
  }

  /** An instruction of {@code format} with the opcode set and every other field zero (DPP/SDWA: src0 250/249). */
  static Enc of(Target target, Format format, Operation op) {
    return raw(target, format, opcode(target, format, op));
  }

  static Enc raw(Target target, Format format, int opc) {
    long w = switch (format) {
      case SOP2 -> 0x8000_0000L | (long) opc << 23;
      case SOPK -> 0xB000_0000L | (long) opc << 23;
      case SOP1 -> 0xBE80_0000L | (long) opc << 8;
      case SOPC -> 0xBF00_0000L | (long) opc << 16;
      case SOPP -> 0xBF80_0000L | (long) opc << 16;
      case SMEM -> 0xC000_0000L | (long) opc << 18;
      case VOP1 -> 0x7E00_0000L | (long) opc << 9;
      case VOP2 -> (long) opc << 25;
      case VOPC -> 0x7C00_0000L | (long) opc << 17;
      case VOP1_DPP -> 0x7E00_0000L | (long) opc << 9 | 250 | 0xffL << 56;
      case VOP2_DPP -> (long) opc << 25 | 250 | 0xffL << 56;
      case VOP1_SDWA -> 0x7E00_0000L | (long) opc << 9 | 249 | 6L << 40 | 6L << 48;
      case VOP2_SDWA -> (long) opc << 25 | 249 | sdwaIdentity();
      case VOPC_SDWA -> 0x7C00_0000L | (long) opc << 17 | 249 | 6L << 48 | 6L << 56;
      case VOP3 -> 0xD000_0000L | (long) opc << 16;
      case VOP3P -> 0xD380_0000L | (long) opc << 16;
      case DS -> 0xD800_0000L | (long) opc << 17;
      case MUBUF -> 0xE000_0000L | (long) opc << 18;
      case MTBUF -> 0xE800_0000L | (long) opc << 15;
      case FLAT -> 0xDC00_0000L | (long) opc << 18;
      case SCRATCH -> 0xDC00_0000L | (long) opc << 18 | 1L << 14;
      case GLOBAL -> 0xDC00_0000L | (long) opc << 18 | 2L << 14;
    };
    return new Enc(target, format, w);
  }

  /** SDWA dword with every select DWORD (the identity) and dst_unused pad. */
  private static long sdwaIdentity() {
    return 6L << 40 | 6L << 48 | 6L << 56;
  }

  Enc set(int lo, int width, long value) {
    long mask = ((1L << width) - 1) << lo;
    bits = (bits & ~mask) | ((value << lo) & mask);
    return this;
  }

  Enc bit(int position, boolean on) {
    return set(position, 1, on ? 1 : 0);
  }

  Enc literal(int value) {
    this.literal = value;
    return this;
  }

  // ---- scalar formats

  Enc sdst(int enc) {
    return switch (format) {
      case SOP1, SOP2, SOPK -> set(16, 7, enc);
      case VOP3 -> set(8, 7, enc);
      case VOPC_SDWA -> set(40, 7, enc).bit(47, true);
      default -> throw new IllegalStateException("sdst in " + format);
    };
  }

  Enc ssrc0(int enc) {
    return set(0, 8, enc);
  }

  Enc ssrc1(int enc) {
    return set(8, 8, enc);
  }

  Enc simm16(int imm) {
    return set(0, 16, imm & 0xffff);
  }

  // ---- vector ALU

  Enc vdst(int n) {
    return switch (format) {
      case VOP1, VOP2, VOP1_DPP, VOP2_DPP, VOP1_SDWA, VOP2_SDWA -> set(17, 8, n);
      case VOP3, VOP3P -> set(0, 8, n);
      case DS, FLAT, GLOBAL, SCRATCH -> set(56, 8, n);
      default -> throw new IllegalStateException("vdst in " + format);
    };
  }

  /** src0 as a 9-bit source (DPP: a VGPR number; SDWA: a 9-bit source, scalars set the S0 bit). */
  Enc src0(int enc) {
    return switch (format) {
      case VOP1, VOP2, VOPC -> set(0, 9, enc);
      case VOP3, VOP3P -> set(32, 9, enc);
      case VOP1_DPP, VOP2_DPP -> set(32, 8, enc - 256);
      case VOP1_SDWA, VOP2_SDWA, VOPC_SDWA -> set(32, 8, enc).bit(55, enc < 256);
      default -> throw new IllegalStateException("src0 in " + format);
    };
  }

  /** src1 (VOP2/VOPC/DPP/SDWA: vsrc1, a VGPR, except SDWA scalars). */
  Enc src1(int enc) {
    return switch (format) {
      case VOP2, VOPC, VOP2_DPP -> set(9, 8, enc - 256);
      case VOP3, VOP3P -> set(41, 9, enc);
      case VOP2_SDWA, VOPC_SDWA -> set(9, 8, enc).bit(63, enc < 256);
      default -> throw new IllegalStateException("src1 in " + format);
    };
  }

  Enc src2(int enc) {
    return set(50, 9, enc);
  }

  /** VOP3: abs bits (bit i for source i). */
  Enc abs(int mask) {
    return set(8, 3, mask);
  }

  /** VOP3/VOP3P: neg (neg_lo) bits. */
  Enc neg(int mask) {
    return set(61, 3, mask);
  }

  /** VOP3: op_sel[3:0] (bit 3 the destination); VOP3P: op_sel[2:0]. */
  Enc opSel(int mask) {
    return format == Format.VOP3P ? set(11, 3, mask) : set(11, 4, mask);
  }

  /** VOP3P: op_sel_hi[2:0]. */
  Enc opSelHi(int mask) {
    return set(59, 2, mask).set(14, 1, mask >>> 2);
  }

  /** VOP3P: neg_hi[2:0]. */
  Enc negHi(int mask) {
    return set(8, 3, mask);
  }

  Enc clamp(boolean on) {
    return switch (format) {
      case VOP3, VOP3P -> bit(15, on);
      case VOP1_SDWA, VOP2_SDWA -> bit(45, on);
      default -> throw new IllegalStateException("clamp in " + format);
    };
  }

  Enc omod(int omod) {
    return switch (format) {
      case VOP3 -> set(59, 2, omod);
      case VOP1_SDWA, VOP2_SDWA -> set(46, 2, omod);
      default -> throw new IllegalStateException("omod in " + format);
    };
  }

  // ---- MFMA

  Enc accCd(boolean on) {
    return bit(15, on);
  }

  /** ACC bits: bit 0 A, bit 1 B are AGPRs. */
  Enc acc(int mask) {
    return set(59, 2, mask);
  }

  Enc cbsz(int v) {
    return set(8, 3, v);
  }

  Enc abid(int v) {
    return set(11, 4, v);
  }

  Enc blgp(int v) {
    return set(61, 3, v);
  }

  // ---- DPP and SDWA

  Enc dpp(int ctrl, int rowMask, int bankMask, boolean boundCtrl) {
    return set(40, 9, ctrl).set(60, 4, rowMask).set(56, 4, bankMask).bit(51, boundCtrl);
  }

  /** DPP source modifiers: neg/abs of src0 and src1. */
  Enc dppMods(boolean neg0, boolean abs0, boolean neg1, boolean abs1) {
    return bit(52, neg0).bit(53, abs0).bit(54, neg1).bit(55, abs1);
  }

  Enc sdwa(int dstSel, int dstUnused, int src0Sel, int src1Sel) {
    if (format == Format.VOPC_SDWA) return set(48, 3, src0Sel).set(56, 3, src1Sel);
    return set(40, 3, dstSel).set(43, 2, dstUnused).set(48, 3, src0Sel).set(56, 3, src1Sel);
  }

  /** SDWA source modifiers (sext, neg, abs) of src0 and src1. */
  Enc sdwaMods(boolean sext0, boolean neg0, boolean abs0, boolean sext1, boolean neg1, boolean abs1) {
    return bit(51, sext0).bit(52, neg0).bit(53, abs0).bit(59, sext1).bit(60, neg1).bit(61, abs1);
  }

  // ---- memory

  /** DS: addr, data0, data1 VGPRs; offsets. */
  Enc ds(int addr, int data0, int data1, int offset0, int offset1) {
    return set(32, 8, addr).set(40, 8, data0).set(48, 8, data1).set(0, 8, offset0).set(8, 8, offset1);
  }

  Enc dsOffset(int offset16) {
    return set(0, 16, offset16);
  }

  /** MUBUF/MTBUF: vaddr, vdata, srsrc (SGPR number, multiple of 4), soffset (scalar encoding), offset. */
  Enc buffer(int vaddr, int vdata, int srsrc, int soffset, int offset) {
    return set(32, 8, vaddr).set(40, 8, vdata).set(48, 5, srsrc / 4).set(56, 8, soffset).set(0, 12, offset);
  }

  Enc offen(boolean on) {
    return bit(12, on);
  }

  Enc idxen(boolean on) {
    return bit(13, on);
  }

  Enc glc(boolean on) {
    return switch (format) {
      case MUBUF, MTBUF -> bit(14, on);
      case FLAT, GLOBAL, SCRATCH, SMEM -> bit(16, on);
      default -> throw new IllegalStateException("glc in " + format);
    };
  }

  /** MUBUF: the lds bit (data goes to LDS at M0). */
  Enc lds(boolean on) {
    return bit(16, on);
  }

  /** MTBUF: data and number formats. */
  Enc tbufFormat(int dfmt, int nfmt) {
    return set(19, 4, dfmt).set(23, 3, nfmt);
  }

  /** FLAT/GLOBAL/SCRATCH: addr VGPR, data VGPR, saddr (0x7f: off), offset. */
  Enc flat(int addr, int data, int saddr, int offset) {
    int width = format == Format.FLAT ? 12 : 13;
    return set(32, 8, addr).set(40, 8, data).set(48, 7, saddr).set(0, width, offset);
  }

  /** SMEM: sbase (SGPR pair number, even), sdata, 21-bit offset, optional soffset (scalar encoding, -1 none). */
  Enc smem(int sbase, int sdata, int offset, int soffset) {
    set(0, 6, sbase / 2).set(6, 7, sdata).set(32, 21, offset).bit(17, true);
    if (soffset >= 0) set(57, 7, soffset).bit(14, true);
    return this;
  }

  // ---- output

  int size() {
    int base = format.encoding().baseBytes();
    return base + (literal != null ? 4 : 0);
  }

  byte[] bytes() {
    byte[] b = new byte[12];
    for (int i = 0; i < 8; i++) b[i] = (byte) (bits >>> (8 * i));
    int base = format.encoding().baseBytes();
    if (literal != null) {
      int l = literal;
      for (int i = 0; i < 4; i++) b[base + i] = (byte) (l >>> (8 * i));
    }
    byte[] out = new byte[size()];
    System.arraycopy(b, 0, out, 0, out.length);
    return out;
  }

  /** Decodes the words with the real decoder at {@code address}. */
  Instruction decode(long address) {
    byte[] b = bytes();
    return new Decoder(target).decode(b, 0, b.length, address);
  }

  Instruction decode() {
    return decode(0x1000);
  }
}
