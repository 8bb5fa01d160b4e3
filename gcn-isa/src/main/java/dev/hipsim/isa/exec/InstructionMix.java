package dev.hipsim.isa.exec;

import dev.hipsim.isa.decode.Operation;

/**
 * The categories wave-instructions are counted in for statistics (what profilers report as instruction mix): each
 * compiled instruction carries its category, and the interpreter counts with one array increment.
 */
public final class InstructionMix {
  public static final int SALU = 0;
  public static final int VALU = 1;
  public static final int SMEM = 2;
  public static final int VMEM = 3;
  public static final int LDS = 4;
  /** Branches, waits, barriers, s_nop, messages and anything not decodable. */
  public static final int BRANCH_OTHER = 5;
  public static final int MFMA = 6;
  public static final int COUNT = 7;

  private static final String[] NAMES = {"SALU", "VALU", "SMEM", "VMEM", "LDS", "branch/other", "MFMA"};

  private InstructionMix() {}

  public static String name(int category) {
    return NAMES[category];
  }

  /** The category of an operation. */
  public static int categoryOf(Operation op) {
    switch (op.category()) {
      case SALU: return SALU;
      case SMEM: return SMEM;
      case VALU: case VALU_COMPARE: case VALU_PACKED: return VALU;
      case MATRIX: return MFMA;
      case DS: return LDS;
      case MUBUF: case MTBUF: case FLAT: case GLOBAL: case SCRATCH: return VMEM;
      default: return BRANCH_OTHER;
    }
  }
}
