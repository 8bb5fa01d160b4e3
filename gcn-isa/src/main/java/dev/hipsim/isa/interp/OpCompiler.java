package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Instruction;

/**
 * Turns a decoded instruction into an executable {@link Op}: each family of instructions has its own compiler; an
 * instruction no family implements becomes an op that stops the dispatch with a typed error when executed.
 */
final class OpCompiler {
  private OpCompiler() {}

  static Op compile(Instruction inst) {
    if (!inst.isValid()) return new Unimplemented(inst, false);
    Op op;
    switch (inst.encoding()) {
      case SOPP: op = ProgramOps.compile(inst); break;
      case SOP1: case SOP2: case SOPK: case SOPC: op = ScalarAluOps.compile(inst); break;
      case SMEM: op = ScalarMemoryOps.compile(inst); break;
      case VOP1: case VOP2: case VOPC: case VOP3: case DPP: case SDWA: op = VectorAluOps.compile(inst); break;
      case VOP3P: op = PackedOps.compile(inst); break;
      case FLAT: case GLOBAL: case SCRATCH: op = FlatOps.compile(inst); break;
      case DS: op = LdsOps.compile(inst); break;
      case MUBUF: case MTBUF: op = BufferOps.compile(inst); break;
      case MIMG: op = ImageOps.compile(inst); break;
      default: op = null;
    }
    return op != null ? op : new Unimplemented(inst, true);
  }
}
