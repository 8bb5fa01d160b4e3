package dev.hipsim.isa.decode;

/** Where each named operand field sits in each format (bit 32 is bit 0 of the second dword). */
final class FieldLayout {
  private FieldLayout() {}

  /** {lo, width, extraBit} of a field, or null when the format has no such field. */
  static int[] of(Format format, String field) {
    return switch (format) {
      case SOP2 -> switch (field) {
        case "ssrc0" -> f(0, 8);
        case "ssrc1" -> f(8, 8);
        case "sdst" -> f(16, 7);
        default -> null;
      };
      case SOPK -> field.equals("sdst") ? f(16, 7) : null;
      case SOP1 -> switch (field) {
        case "ssrc0" -> f(0, 8);
        case "sdst" -> f(16, 7);
        default -> null;
      };
      case SOPC -> switch (field) {
        case "ssrc0" -> f(0, 8);
        case "ssrc1" -> f(8, 8);
        default -> null;
      };
      case SOPP -> null;
      case SMEM -> switch (field) {
        case "sbase" -> f(0, 6);
        case "sdata" -> f(6, 7);
        case "soffset" -> f(57, 7);
        default -> null;
      };
      case VOP2, VOP1, VOPC -> switch (field) {
        case "src0" -> f(0, 9);
        case "vsrc1" -> f(9, 8);
        case "vdst" -> f(17, 8);
        default -> null;
      };
      case VOP3, VOP3P -> switch (field) {
        case "vdst" -> f(0, 8);
        case "sdst" -> f(8, 7);
        case "src0" -> f(32, 9);
        case "src1" -> f(41, 9);
        case "src2" -> f(50, 9);
        default -> null;
      };
      case VOP1_DPP, VOP2_DPP -> switch (field) {
        case "vdst" -> f(17, 8);
        case "vsrc1" -> f(9, 8);
        case "src0" -> f(32, 8);
        default -> null;
      };
      case VOP1_SDWA, VOP2_SDWA, VOPC_SDWA -> switch (field) {
        case "vdst" -> f(17, 8);
        case "vsrc1" -> new int[] {9, 8, 63};
        case "src0" -> new int[] {32, 8, 55};
        case "sdst" -> new int[] {40, 7, 47};
        default -> null;
      };
      case DS -> switch (field) {
        case "addr" -> f(32, 8);
        case "data0" -> f(40, 8);
        case "data1" -> f(48, 8);
        case "vdst" -> f(56, 8);
        default -> null;
      };
      case MUBUF, MTBUF -> switch (field) {
        case "vaddr" -> f(32, 8);
        case "vdata" -> f(40, 8);
        case "srsrc" -> f(48, 5);
        case "soffset" -> f(56, 8);
        default -> null;
      };
      case FLAT, GLOBAL, SCRATCH -> switch (field) {
        case "addr" -> f(32, 8);
        case "data" -> f(40, 8);
        case "saddr" -> f(48, 7);
        case "vdst" -> f(56, 8);
        default -> null;
      };
      case MIMG -> switch (field) {
        case "vaddr" -> f(32, 8);
        case "vdata" -> f(40, 8);
        case "srsrc" -> f(48, 5);
        case "ssamp" -> f(53, 5);
        default -> null;
      };
    };
  }

  private static int[] f(int lo, int width) {
    return new int[] {lo, width, -1};
  }
}
