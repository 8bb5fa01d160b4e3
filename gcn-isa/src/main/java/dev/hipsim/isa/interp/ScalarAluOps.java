package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Slot;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.exec.Wave;

/**
 * SOP1, SOP2, SOPK and SOPC: the scalar ALU. Each instruction reads its scalar sources, computes, writes the scalar
 * destination and SCC as the ISA defines for the operation. Program-counter instructions (s_getpc, s_setpc,
 * s_swappc, s_call) and the hardware registers (s_getreg, s_setreg) are here too.
 */
final class ScalarAluOps {
  private ScalarAluOps() {}

  static Op compile(Instruction inst) {
    Operation op = inst.operation();
    switch (op) {
      case S_GETPC_B64: case S_SETPC_B64: case S_SWAPPC_B64: case S_CALL_B64: return new ProgramCounter(inst);
      case S_GETREG_B32: case S_SETREG_B32: case S_SETREG_IMM32_B32: return new HardwareRegister(inst);
      case S_SET_GPR_IDX_ON: case S_SET_GPR_IDX_OFF: case S_SET_GPR_IDX_IDX: case S_SET_GPR_IDX_MODE:
        return new GprIndex(inst);
      case S_CBRANCH_G_FORK: case S_CBRANCH_I_FORK: case S_CBRANCH_JOIN: case S_SETVSKIP: case S_RFE_B64:
      case S_RFE_RESTORE_B64:
        return ScalarControlOps.compile(inst);
      default:
        return Sop.supports(op) ? Sop.of(inst) : null;
    }
  }

  /**
   * The ordinary scalar operations: sources, destination, SCC. One subclass per family of operations, made by
   * {@link #of}: the JIT compiles only the families a kernel runs, each a method small enough to compile at once.
   * One switch over every operation compiled, under C1, to 60 KB of machine code in 60 ms, at the start of every
   * program's first kernel, while the kernel's scalar instructions ran in the bytecode interpreter.
   */
  abstract static class Sop extends Op {
    final Operation op;
    final Src s0;
    final Src s1;
    final Dst dst;
    final int imm;
    /** SOPK forms read their destination register as the first source. */
    final Src kdst;

    Sop(Instruction inst) {
      super(inst);
      this.op = inst.operation();
      this.s0 = Src.of(inst.operand(Slot.SRC0), 32);
      this.s1 = Src.of(inst.operand(Slot.SRC1), 32);
      this.dst = Dst.of(inst.operand(Slot.SDST));
      this.imm = inst.hasLiteral() && op == Operation.S_SETREG_IMM32_B32 ? inst.literal() : inst.imm();
      this.kdst = Src.of(inst.operand(Slot.SDST), 32);
    }

    static boolean supports(Operation op) {
      return op.name().startsWith("S_") && !op.name().startsWith("S_CBRANCH");
    }

    /** The operation's family, or {@link Unhandled} (which reports the instruction when it runs). */
    static Sop of(Instruction inst) {
      switch (inst.operation()) {
        case S_MOV_B32: case S_MOV_B64: case S_CMOV_B32: case S_CMOV_B64: case S_MOVK_I32: case S_CMOVK_I32:
        case S_CSELECT_B32: case S_CSELECT_B64:
          return new Moves(inst);
        case S_ADD_U32: case S_SUB_U32: case S_ADDC_U32: case S_SUBB_U32: case S_ADD_I32: case S_SUB_I32:
        case S_ADDK_I32: case S_MULK_I32: case S_MUL_I32: case S_MUL_HI_U32: case S_MUL_HI_I32: case S_MIN_I32:
        case S_MIN_U32: case S_MAX_I32: case S_MAX_U32: case S_ABSDIFF_I32: case S_ABS_I32: case S_LSHL1_ADD_U32:
        case S_LSHL2_ADD_U32: case S_LSHL3_ADD_U32: case S_LSHL4_ADD_U32:
          return new Arithmetic(inst);
        case S_AND_B32: case S_OR_B32: case S_XOR_B32: case S_ANDN2_B32: case S_ORN2_B32: case S_NAND_B32:
        case S_NOR_B32: case S_XNOR_B32: case S_AND_B64: case S_OR_B64: case S_XOR_B64: case S_ANDN2_B64:
        case S_ORN2_B64: case S_NAND_B64: case S_NOR_B64: case S_XNOR_B64: case S_NOT_B32: case S_NOT_B64:
        case S_LSHL_B32: case S_LSHR_B32: case S_ASHR_I32: case S_LSHL_B64: case S_LSHR_B64: case S_ASHR_I64:
          return new Logic(inst);
        case S_BFM_B32: case S_BFM_B64: case S_BFE_U32: case S_BFE_I32: case S_BFE_U64: case S_BFE_I64:
        case S_BREV_B32: case S_BREV_B64: case S_BCNT0_I32_B32: case S_BCNT0_I32_B64: case S_BCNT1_I32_B32:
        case S_BCNT1_I32_B64: case S_FF0_I32_B32: case S_FF0_I32_B64: case S_FF1_I32_B32: case S_FF1_I32_B64:
        case S_FLBIT_I32_B32: case S_FLBIT_I32_B64: case S_FLBIT_I32: case S_FLBIT_I32_I64: case S_SEXT_I32_I8:
        case S_SEXT_I32_I16: case S_BITSET0_B32: case S_BITSET1_B32: case S_BITSET0_B64: case S_BITSET1_B64:
        case S_WQM_B32: case S_WQM_B64: case S_QUADMASK_B32: case S_QUADMASK_B64: case S_BITREPLICATE_B64_B32:
        case S_PACK_LL_B32_B16: case S_PACK_LH_B32_B16: case S_PACK_HH_B32_B16:
          return new BitFields(inst);
        case S_AND_SAVEEXEC_B64: case S_OR_SAVEEXEC_B64: case S_XOR_SAVEEXEC_B64: case S_ANDN2_SAVEEXEC_B64:
        case S_ORN2_SAVEEXEC_B64: case S_NAND_SAVEEXEC_B64: case S_NOR_SAVEEXEC_B64: case S_XNOR_SAVEEXEC_B64:
        case S_ANDN1_SAVEEXEC_B64: case S_ORN1_SAVEEXEC_B64: case S_ANDN1_WREXEC_B64: case S_ANDN2_WREXEC_B64:
          return new ExecMasks(inst);
        case S_MOVRELS_B32: case S_MOVRELS_B64: case S_MOVRELD_B32: case S_MOVRELD_B64:
          return new RelativeMoves(inst);
        case S_CMP_EQ_I32: case S_CMP_EQ_U32: case S_CMP_LG_I32: case S_CMP_LG_U32: case S_CMP_GT_I32:
        case S_CMP_GE_I32: case S_CMP_LT_I32: case S_CMP_LE_I32: case S_CMP_GT_U32: case S_CMP_GE_U32:
        case S_CMP_LT_U32: case S_CMP_LE_U32: case S_CMP_EQ_U64: case S_CMP_LG_U64: case S_BITCMP0_B32:
        case S_BITCMP1_B32: case S_BITCMP0_B64: case S_BITCMP1_B64: case S_CMPK_EQ_I32: case S_CMPK_LG_I32:
        case S_CMPK_GT_I32: case S_CMPK_GE_I32: case S_CMPK_LT_I32: case S_CMPK_LE_I32: case S_CMPK_EQ_U32:
        case S_CMPK_LG_U32: case S_CMPK_GT_U32: case S_CMPK_GE_U32: case S_CMPK_LT_U32: case S_CMPK_LE_U32:
          return new Compares(inst);
        default:
          return new Unhandled(inst);
      }
    }

    /** The error for an operation its family does not know (none: {@link #of} chose the family). */
    final DispatchException unimplemented(Wave w, Ctx cx) {
      return Faults.wave(dev.hipsim.isa.dispatch.WaveFault.Kind.UNIMPLEMENTED_INSTRUCTION, w, cx, instruction, -1, 0,
          "hipsim does not implement " + op, null);
    }


    final int a(Wave w, Ctx cx) throws DispatchException {
      return s0.scalarRaw32(w, cx);
    }

    /** SGPR {@code base + M0} for s_movrels/s_movreld, which must stay inside the SGPR file. */
    final int relative(Wave w, Ctx cx, int base, int dwords) throws DispatchException {
      long i = (long) base + w.s[Wave.M0];
      if (base < 0 || i < 0 || i + dwords > Wave.VCC_LO) {
        throw Faults.wave(dev.hipsim.isa.dispatch.WaveFault.Kind.ILLEGAL_INSTRUCTION, w, cx, instruction, -1, 0,
            "relative SGPR index " + base + " + M0 (" + w.s[Wave.M0] + ") is outside the SGPRs", null);
      }
      return (int) i;
    }

    final int b(Wave w, Ctx cx) throws DispatchException {
      return s1.scalarRaw32(w, cx);
    }

    final long a64(Wave w, Ctx cx) throws DispatchException {
      return s0.scalarRaw64(w, cx);
    }

    final long b64(Wave w, Ctx cx) throws DispatchException {
      return s1.scalarRaw64(w, cx);
    }

    final void r32(Wave w, int r) {
      dst.writeScalar32(w, r);
      w.scc = r != 0 ? 1 : 0;
    }

    final void r64(Wave w, long r) {
      dst.writeScalar64(w, r);
      w.scc = r != 0 ? 1 : 0;
    }

    final void shiftAdd(Wave w, Ctx cx, int shift) throws DispatchException {
      long r = (u(a(w, cx)) << shift) + u(b(w, cx));
      dst.writeScalar32(w, (int) r);
      w.scc = (r >>> 32) != 0 ? 1 : 0;
    }

    final void saveexec(Wave w, Ctx cx, int kind) throws DispatchException {
      long src = a64(w, cx);
      long exec = w.exec();
      long r;
      switch (kind) {
        case 0: r = src & exec; break;
        case 1: r = src | exec; break;
        case 2: r = src ^ exec; break;
        case 3: r = src & ~exec; break;
        case 4: r = src | ~exec; break;
        case 5: r = ~(src & exec); break;
        case 6: r = ~(src | exec); break;
        case 7: r = ~(src ^ exec); break;
        case 8: r = ~src & exec; break;
        default: r = ~src | exec; break;
      }
      dst.writeScalar64(w, exec);
      w.setExec(r);
      w.scc = r != 0 ? 1 : 0;
    }

    static long u(int x) {
      return x & 0xffff_ffffL;
    }

    static int wqm(int x) {
      int r = 0;
      for (int q = 0; q < 8; q++) if ((x >>> (4 * q) & 0xf) != 0) r |= 0xf << (4 * q);
      return r;
    }

    static long wqm64(long x) {
      long r = 0;
      for (int q = 0; q < 16; q++) if ((x >>> (4 * q) & 0xf) != 0) r |= 0xfL << (4 * q);
      return r;
    }

    static int quadmask(long x) {
      int r = 0;
      for (int q = 0; q < 16; q++) if ((x >>> (4 * q) & 0xf) != 0) r |= 1 << q;
      return r;
    }
  }

  /** Register moves, and selects by SCC. */
  static final class Moves extends Sop {
    Moves(Instruction inst) {
      super(inst);
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      switch (op) {
        case S_MOV_B32: dst.writeScalar32(w, a(w, cx)); break;
        case S_MOV_B64: dst.writeScalar64(w, a64(w, cx)); break;
        case S_CMOV_B32: if (w.scc != 0) dst.writeScalar32(w, a(w, cx)); break;
        case S_CMOV_B64: if (w.scc != 0) dst.writeScalar64(w, a64(w, cx)); break;
        case S_MOVK_I32: dst.writeScalar32(w, (short) imm); break;
        case S_CMOVK_I32: if (w.scc != 0) dst.writeScalar32(w, (short) imm); break;
        case S_CSELECT_B32: dst.writeScalar32(w, w.scc != 0 ? a(w, cx) : b(w, cx)); break;
        case S_CSELECT_B64: dst.writeScalar64(w, w.scc != 0 ? a64(w, cx) : b64(w, cx)); break;
        default:
          throw unimplemented(w, cx);
      }
      w.pc += size;
    }
  }

  /** Integer arithmetic, minimum and maximum (SCC: carry, borrow, overflow or the comparison). */
  static final class Arithmetic extends Sop {
    Arithmetic(Instruction inst) {
      super(inst);
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      switch (op) {
        case S_ADD_U32: { long r = u(a(w, cx)) + u(b(w, cx)); dst.writeScalar32(w, (int) r); w.scc = (int) (r >>> 32); break; }
        case S_SUB_U32: { int x = a(w, cx); int y = b(w, cx); dst.writeScalar32(w, x - y); w.scc = Integer.compareUnsigned(y, x) > 0 ? 1 : 0; break; }
        case S_ADDC_U32: { long r = u(a(w, cx)) + u(b(w, cx)) + w.scc; dst.writeScalar32(w, (int) r); w.scc = (int) (r >>> 32); break; }
        case S_SUBB_U32: { long r = u(a(w, cx)) - u(b(w, cx)) - w.scc; dst.writeScalar32(w, (int) r); w.scc = r < 0 ? 1 : 0; break; }
        case S_ADD_I32: { int x = a(w, cx); int y = b(w, cx); int r = x + y; dst.writeScalar32(w, r); w.scc = ((x ^ r) & (y ^ r)) < 0 ? 1 : 0; break; }
        case S_SUB_I32: { int x = a(w, cx); int y = b(w, cx); int r = x - y; dst.writeScalar32(w, r); w.scc = ((x ^ y) & (x ^ r)) < 0 ? 1 : 0; break; }
        case S_ADDK_I32: { int x = kdst.scalarRaw32(w, cx); int y = (short) imm; int r = x + y; dst.writeScalar32(w, r); w.scc = ((x ^ r) & (y ^ r)) < 0 ? 1 : 0; break; }
        case S_MULK_I32: dst.writeScalar32(w, kdst.scalarRaw32(w, cx) * (short) imm); break;
        case S_MUL_I32: dst.writeScalar32(w, a(w, cx) * b(w, cx)); break;
        case S_MUL_HI_U32: dst.writeScalar32(w, (int) ((u(a(w, cx)) * u(b(w, cx))) >>> 32)); break;
        case S_MUL_HI_I32: dst.writeScalar32(w, (int) (((long) a(w, cx) * b(w, cx)) >>> 32)); break;
        case S_MIN_I32: { int x = a(w, cx); int y = b(w, cx); w.scc = x < y ? 1 : 0; dst.writeScalar32(w, Math.min(x, y)); break; }
        case S_MIN_U32: { int x = a(w, cx); int y = b(w, cx); w.scc = Integer.compareUnsigned(x, y) < 0 ? 1 : 0; dst.writeScalar32(w, w.scc != 0 ? x : y); break; }
        case S_MAX_I32: { int x = a(w, cx); int y = b(w, cx); w.scc = x > y ? 1 : 0; dst.writeScalar32(w, Math.max(x, y)); break; }
        case S_MAX_U32: { int x = a(w, cx); int y = b(w, cx); w.scc = Integer.compareUnsigned(x, y) > 0 ? 1 : 0; dst.writeScalar32(w, w.scc != 0 ? x : y); break; }
        case S_ABSDIFF_I32: { int r = Math.abs(a(w, cx) - b(w, cx)); dst.writeScalar32(w, r); w.scc = r != 0 ? 1 : 0; break; }
        case S_ABS_I32: { int r = Math.abs(a(w, cx)); dst.writeScalar32(w, r); w.scc = r != 0 ? 1 : 0; break; }
        case S_LSHL1_ADD_U32: shiftAdd(w, cx, 1); break;
        case S_LSHL2_ADD_U32: shiftAdd(w, cx, 2); break;
        case S_LSHL3_ADD_U32: shiftAdd(w, cx, 3); break;
        case S_LSHL4_ADD_U32: shiftAdd(w, cx, 4); break;
        default:
          throw unimplemented(w, cx);
      }
      w.pc += size;
    }
  }

  /** Bitwise logic and shifts (SCC: result non-zero). */
  static final class Logic extends Sop {
    Logic(Instruction inst) {
      super(inst);
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      switch (op) {
        case S_AND_B32: r32(w, a(w, cx) & b(w, cx)); break;
        case S_OR_B32: r32(w, a(w, cx) | b(w, cx)); break;
        case S_XOR_B32: r32(w, a(w, cx) ^ b(w, cx)); break;
        case S_ANDN2_B32: r32(w, a(w, cx) & ~b(w, cx)); break;
        case S_ORN2_B32: r32(w, a(w, cx) | ~b(w, cx)); break;
        case S_NAND_B32: r32(w, ~(a(w, cx) & b(w, cx))); break;
        case S_NOR_B32: r32(w, ~(a(w, cx) | b(w, cx))); break;
        case S_XNOR_B32: r32(w, ~(a(w, cx) ^ b(w, cx))); break;
        case S_AND_B64: r64(w, a64(w, cx) & b64(w, cx)); break;
        case S_OR_B64: r64(w, a64(w, cx) | b64(w, cx)); break;
        case S_XOR_B64: r64(w, a64(w, cx) ^ b64(w, cx)); break;
        case S_ANDN2_B64: r64(w, a64(w, cx) & ~b64(w, cx)); break;
        case S_ORN2_B64: r64(w, a64(w, cx) | ~b64(w, cx)); break;
        case S_NAND_B64: r64(w, ~(a64(w, cx) & b64(w, cx))); break;
        case S_NOR_B64: r64(w, ~(a64(w, cx) | b64(w, cx))); break;
        case S_XNOR_B64: r64(w, ~(a64(w, cx) ^ b64(w, cx))); break;
        case S_NOT_B32: r32(w, ~a(w, cx)); break;
        case S_NOT_B64: r64(w, ~a64(w, cx)); break;
        case S_LSHL_B32: r32(w, a(w, cx) << (b(w, cx) & 31)); break;
        case S_LSHR_B32: r32(w, a(w, cx) >>> (b(w, cx) & 31)); break;
        case S_ASHR_I32: r32(w, a(w, cx) >> (b(w, cx) & 31)); break;
        case S_LSHL_B64: r64(w, a64(w, cx) << (b(w, cx) & 63)); break;
        case S_LSHR_B64: r64(w, a64(w, cx) >>> (b(w, cx) & 63)); break;
        case S_ASHR_I64: r64(w, a64(w, cx) >> (b(w, cx) & 63)); break;
        default:
          throw unimplemented(w, cx);
      }
      w.pc += size;
    }
  }

  /** Bit fields, bit counts and searches, sign extension, bit set and clear, quad masks, packing. */
  static final class BitFields extends Sop {
    BitFields(Instruction inst) {
      super(inst);
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      switch (op) {
        case S_BFM_B32: dst.writeScalar32(w, ((1 << (a(w, cx) & 31)) - 1) << (b(w, cx) & 31)); break;
        case S_BFM_B64: dst.writeScalar64(w, ((1L << (a(w, cx) & 63)) - 1) << (b(w, cx) & 63)); break;
        case S_BFE_U32: { int c = b(w, cx); int off = c & 31; int width = (c >>> 16) & 127; r32(w, width == 0 ? 0 : width >= 32 ? a(w, cx) >>> off : (a(w, cx) >>> off) & ((1 << width) - 1)); break; }
        case S_BFE_I32: { int c = b(w, cx); int off = c & 31; int width = (c >>> 16) & 127; int x = a(w, cx) >> off; r32(w, width == 0 ? 0 : width >= 32 ? x : (x << (32 - width)) >> (32 - width)); break; }
        case S_BFE_U64: { int c = b(w, cx); int off = c & 63; int width = (c >>> 16) & 127; long x = a64(w, cx) >>> off; r64(w, width == 0 ? 0 : width >= 64 ? x : x & ((1L << width) - 1)); break; }
        case S_BFE_I64: { int c = b(w, cx); int off = c & 63; int width = (c >>> 16) & 127; long x = a64(w, cx) >> off; r64(w, width == 0 ? 0 : width >= 64 ? x : (x << (64 - width)) >> (64 - width)); break; }
        case S_BREV_B32: dst.writeScalar32(w, Integer.reverse(a(w, cx))); break;
        case S_BREV_B64: dst.writeScalar64(w, Long.reverse(a64(w, cx))); break;
        case S_BCNT0_I32_B32: r32(w, 32 - Integer.bitCount(a(w, cx))); break;
        case S_BCNT0_I32_B64: r32(w, 64 - Long.bitCount(a64(w, cx))); break;
        case S_BCNT1_I32_B32: r32(w, Integer.bitCount(a(w, cx))); break;
        case S_BCNT1_I32_B64: r32(w, Long.bitCount(a64(w, cx))); break;
        case S_FF0_I32_B32: { int x = ~a(w, cx); dst.writeScalar32(w, x == 0 ? -1 : Integer.numberOfTrailingZeros(x)); break; }
        case S_FF0_I32_B64: { long x = ~a64(w, cx); dst.writeScalar32(w, x == 0 ? -1 : Long.numberOfTrailingZeros(x)); break; }
        case S_FF1_I32_B32: { int x = a(w, cx); dst.writeScalar32(w, x == 0 ? -1 : Integer.numberOfTrailingZeros(x)); break; }
        case S_FF1_I32_B64: { long x = a64(w, cx); dst.writeScalar32(w, x == 0 ? -1 : Long.numberOfTrailingZeros(x)); break; }
        case S_FLBIT_I32_B32: { int x = a(w, cx); dst.writeScalar32(w, x == 0 ? -1 : Integer.numberOfLeadingZeros(x)); break; }
        case S_FLBIT_I32_B64: { long x = a64(w, cx); dst.writeScalar32(w, x == 0 ? -1 : Long.numberOfLeadingZeros(x)); break; }
        // Leading bits equal to the sign bit; -1 when every bit is the same.
        case S_FLBIT_I32: { int x = a(w, cx); if (x < 0) x = ~x; dst.writeScalar32(w, x == 0 ? -1 : Integer.numberOfLeadingZeros(x)); break; }
        case S_FLBIT_I32_I64: { long x = a64(w, cx); if (x < 0) x = ~x; dst.writeScalar32(w, x == 0 ? -1 : Long.numberOfLeadingZeros(x)); break; }
        case S_SEXT_I32_I8: dst.writeScalar32(w, (byte) a(w, cx)); break;
        case S_SEXT_I32_I16: dst.writeScalar32(w, (short) a(w, cx)); break;
        case S_BITSET0_B32: dst.writeScalar32(w, kdst.scalarRaw32(w, cx) & ~(1 << (a(w, cx) & 31))); break;
        case S_BITSET1_B32: dst.writeScalar32(w, kdst.scalarRaw32(w, cx) | (1 << (a(w, cx) & 31))); break;
        case S_BITSET0_B64: dst.writeScalar64(w, kdst.scalarRaw64(w, cx) & ~(1L << (a(w, cx) & 63))); break;
        case S_BITSET1_B64: dst.writeScalar64(w, kdst.scalarRaw64(w, cx) | (1L << (a(w, cx) & 63))); break;
        case S_WQM_B32: r32(w, wqm(a(w, cx))); break;
        case S_WQM_B64: r64(w, wqm64(a64(w, cx))); break;
        case S_QUADMASK_B32: r32(w, quadmask(a(w, cx) & 0xffff_ffffL)); break;
        case S_QUADMASK_B64: r64(w, quadmask(a64(w, cx))); break;
        case S_BITREPLICATE_B64_B32: { long r = 0; int x = a(w, cx); for (int i = 0; i < 32; i++) if ((x >>> i & 1) != 0) r |= 3L << (2 * i); dst.writeScalar64(w, r); break; }
        case S_PACK_LL_B32_B16: dst.writeScalar32(w, (a(w, cx) & 0xffff) | (b(w, cx) << 16)); break;
        case S_PACK_LH_B32_B16: dst.writeScalar32(w, (a(w, cx) & 0xffff) | (b(w, cx) & 0xffff0000)); break;
        case S_PACK_HH_B32_B16: dst.writeScalar32(w, (a(w, cx) >>> 16) | (b(w, cx) & 0xffff0000)); break;
        default:
          throw unimplemented(w, cx);
      }
      w.pc += size;
    }
  }

  /** EXEC updates: dst = exec; exec = op(src, exec); scc = exec != 0. */
  static final class ExecMasks extends Sop {
    ExecMasks(Instruction inst) {
      super(inst);
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      switch (op) {
        case S_AND_SAVEEXEC_B64: saveexec(w, cx, 0); break;
        case S_OR_SAVEEXEC_B64: saveexec(w, cx, 1); break;
        case S_XOR_SAVEEXEC_B64: saveexec(w, cx, 2); break;
        case S_ANDN2_SAVEEXEC_B64: saveexec(w, cx, 3); break;
        case S_ORN2_SAVEEXEC_B64: saveexec(w, cx, 4); break;
        case S_NAND_SAVEEXEC_B64: saveexec(w, cx, 5); break;
        case S_NOR_SAVEEXEC_B64: saveexec(w, cx, 6); break;
        case S_XNOR_SAVEEXEC_B64: saveexec(w, cx, 7); break;
        case S_ANDN1_SAVEEXEC_B64: saveexec(w, cx, 8); break;
        case S_ORN1_SAVEEXEC_B64: saveexec(w, cx, 9); break;
        case S_ANDN1_WREXEC_B64: { long r = ~a64(w, cx) & w.exec(); w.setExec(r); dst.writeScalar64(w, r); w.scc = r != 0 ? 1 : 0; break; }
        case S_ANDN2_WREXEC_B64: { long r = a64(w, cx) & ~w.exec(); w.setExec(r); dst.writeScalar64(w, r); w.scc = r != 0 ? 1 : 0; break; }
        default:
          throw unimplemented(w, cx);
      }
      w.pc += size;
    }
  }

  /** Moves through M0-relative SGPR indices. */
  static final class RelativeMoves extends Sop {
    RelativeMoves(Instruction inst) {
      super(inst);
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      int[] s = w.s;
      switch (op) {
        case S_MOVRELS_B32: dst.writeScalar32(w, s[relative(w, cx, s0.index, 1)]); break;
        case S_MOVRELS_B64: dst.writeScalar64(w, w.s64(relative(w, cx, s0.index, 2))); break;
        case S_MOVRELD_B32: s[relative(w, cx, dst.index, 1)] = a(w, cx); break;
        case S_MOVRELD_B64: w.setS64(relative(w, cx, dst.index, 2), a64(w, cx)); break;
        default:
          throw unimplemented(w, cx);
      }
      w.pc += size;
    }
  }

  /** Compares into SCC. */
  static final class Compares extends Sop {
    Compares(Instruction inst) {
      super(inst);
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      switch (op) {
        case S_CMP_EQ_I32: case S_CMP_EQ_U32: w.scc = a(w, cx) == b(w, cx) ? 1 : 0; break;
        case S_CMP_LG_I32: case S_CMP_LG_U32: w.scc = a(w, cx) != b(w, cx) ? 1 : 0; break;
        case S_CMP_GT_I32: w.scc = a(w, cx) > b(w, cx) ? 1 : 0; break;
        case S_CMP_GE_I32: w.scc = a(w, cx) >= b(w, cx) ? 1 : 0; break;
        case S_CMP_LT_I32: w.scc = a(w, cx) < b(w, cx) ? 1 : 0; break;
        case S_CMP_LE_I32: w.scc = a(w, cx) <= b(w, cx) ? 1 : 0; break;
        case S_CMP_GT_U32: w.scc = Integer.compareUnsigned(a(w, cx), b(w, cx)) > 0 ? 1 : 0; break;
        case S_CMP_GE_U32: w.scc = Integer.compareUnsigned(a(w, cx), b(w, cx)) >= 0 ? 1 : 0; break;
        case S_CMP_LT_U32: w.scc = Integer.compareUnsigned(a(w, cx), b(w, cx)) < 0 ? 1 : 0; break;
        case S_CMP_LE_U32: w.scc = Integer.compareUnsigned(a(w, cx), b(w, cx)) <= 0 ? 1 : 0; break;
        case S_CMP_EQ_U64: w.scc = a64(w, cx) == b64(w, cx) ? 1 : 0; break;
        case S_CMP_LG_U64: w.scc = a64(w, cx) != b64(w, cx) ? 1 : 0; break;
        case S_BITCMP0_B32: w.scc = (a(w, cx) >>> (b(w, cx) & 31) & 1) == 0 ? 1 : 0; break;
        case S_BITCMP1_B32: w.scc = (a(w, cx) >>> (b(w, cx) & 31) & 1) != 0 ? 1 : 0; break;
        case S_BITCMP0_B64: w.scc = (a64(w, cx) >>> (b(w, cx) & 63) & 1) == 0 ? 1 : 0; break;
        case S_BITCMP1_B64: w.scc = (a64(w, cx) >>> (b(w, cx) & 63) & 1) != 0 ? 1 : 0; break;
        case S_CMPK_EQ_I32: w.scc = kdst.scalarRaw32(w, cx) == (short) imm ? 1 : 0; break;
        case S_CMPK_LG_I32: w.scc = kdst.scalarRaw32(w, cx) != (short) imm ? 1 : 0; break;
        case S_CMPK_GT_I32: w.scc = kdst.scalarRaw32(w, cx) > (short) imm ? 1 : 0; break;
        case S_CMPK_GE_I32: w.scc = kdst.scalarRaw32(w, cx) >= (short) imm ? 1 : 0; break;
        case S_CMPK_LT_I32: w.scc = kdst.scalarRaw32(w, cx) < (short) imm ? 1 : 0; break;
        case S_CMPK_LE_I32: w.scc = kdst.scalarRaw32(w, cx) <= (short) imm ? 1 : 0; break;
        case S_CMPK_EQ_U32: w.scc = kdst.scalarRaw32(w, cx) == (imm & 0xffff) ? 1 : 0; break;
        case S_CMPK_LG_U32: w.scc = kdst.scalarRaw32(w, cx) != (imm & 0xffff) ? 1 : 0; break;
        case S_CMPK_GT_U32: w.scc = Integer.compareUnsigned(kdst.scalarRaw32(w, cx), imm & 0xffff) > 0 ? 1 : 0; break;
        case S_CMPK_GE_U32: w.scc = Integer.compareUnsigned(kdst.scalarRaw32(w, cx), imm & 0xffff) >= 0 ? 1 : 0; break;
        case S_CMPK_LT_U32: w.scc = Integer.compareUnsigned(kdst.scalarRaw32(w, cx), imm & 0xffff) < 0 ? 1 : 0; break;
        case S_CMPK_LE_U32: w.scc = Integer.compareUnsigned(kdst.scalarRaw32(w, cx), imm & 0xffff) <= 0 ? 1 : 0; break;
        default:
          throw unimplemented(w, cx);
      }
      w.pc += size;
    }
  }

  /** An S_ operation hipsim does not implement: reported with the wave and the instruction when it runs. */
  static final class Unhandled extends Sop {
    Unhandled(Instruction inst) {
      super(inst);
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      throw unimplemented(w, cx);
    }
  }

  /** s_getpc_b64, s_setpc_b64, s_swappc_b64, s_call_b64: calls and returns through SGPR pairs. */
  static final class ProgramCounter extends Op {
    private final Operation op;
    private final Src src;
    private final Dst dst;

    ProgramCounter(Instruction inst) {
      super(inst);
      this.op = inst.operation();
      this.src = Src.of(inst.operand(Slot.SRC0), 64);
      this.dst = Dst.of(inst.operand(Slot.SDST));
    }

    @Override
    boolean fallsThrough() {
      return false;
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      long next = w.pc + size;
      switch (op) {
        case S_GETPC_B64: dst.writeScalar64(w, next); w.pc = next; break;
        case S_SETPC_B64: w.pc = src.scalarRaw64(w, cx); break;
        case S_SWAPPC_B64: { long target = src.scalarRaw64(w, cx); dst.writeScalar64(w, next); w.pc = target; break; }
        default: dst.writeScalar64(w, next); w.pc = instruction.branchTarget(); break; // s_call_b64
      }
    }
  }

  /** s_getreg_b32 / s_setreg_b32 / s_setreg_imm32_b32 on the hardware registers a kernel may use. */
  static final class HardwareRegister extends Op {
    static final int HW_REG_MODE = 1;
    static final int HW_REG_STATUS = 2;
    static final int HW_REG_TRAPSTS = 3;
    static final int HW_REG_HW_ID = 4;
    static final int HW_REG_GPR_ALLOC = 5;
    static final int HW_REG_LDS_ALLOC = 6;
    static final int HW_REG_IB_STS = 7;
    static final int HW_REG_SH_MEM_BASES = 15;
    static final int HW_REG_XNACK_MASK = 22;

    private final Operation op;
    private final int id;
    private final int offset;
    private final int width;
    private final Dst dst;
    private final Src src;
    private final int literal;

    HardwareRegister(Instruction inst) {
      super(inst);
      this.op = inst.operation();
      int simm = inst.imm();
      this.id = simm & 0x3f;
      this.offset = (simm >>> 6) & 0x1f;
      this.width = ((simm >>> 11) & 0x1f) + 1;
      this.dst = Dst.of(inst.operand(Slot.SDST));
      this.src = Src.of(inst.operand(Slot.SDST), 32);
      this.literal = inst.literal();
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      int mask = width >= 32 ? -1 : (1 << width) - 1;
      if (op == Operation.S_GETREG_B32) {
        dst.writeScalar32(w, (read(w, cx) >>> offset) & mask);
      } else {
        int value = op == Operation.S_SETREG_IMM32_B32 ? literal : src.scalarRaw32(w, cx);
        int field = mask << offset;
        int updated = (read(w, cx) & ~field) | ((value << offset) & field);
        switch (id) {
          case HW_REG_MODE: w.mode = updated; break;
          case HW_REG_TRAPSTS: w.trapsts = updated; break;
          default: break; // other registers are read-only to shaders or have no effect here
        }
      }
      w.pc += size;
    }

    private int read(Wave w, Ctx cx) {
      switch (id) {
        case HW_REG_MODE: return w.mode;
        case HW_REG_TRAPSTS: return w.trapsts;
        case HW_REG_STATUS: return (w.scc) | (w.exec() == 0 ? 1 << 9 : 0) | (w.vcc() == 0 ? 1 << 10 : 0);
        case HW_REG_HW_ID: return w.waveInGroup & 0xf;
        case HW_REG_GPR_ALLOC: return ((w.vgprCount / 8 - 1) & 0x3f) << 8;
        case HW_REG_LDS_ALLOC: return 0;
        case HW_REG_SH_MEM_BASES:
          return (int) ((cx.launch.privateApertureBase() >>> 48) & 0xffff)
              | (int) (((cx.launch.sharedApertureBase() >>> 48) & 0xffff) << 16);
        case HW_REG_XNACK_MASK: return w.s[Wave.XNACK_MASK_LO];
        default: return 0;
      }
    }
  }

  /** GPR indexing mode: s_set_gpr_idx_on/off/idx/mode. The VALU honours it through {@link Wave#gprIdxMask}. */
  static final class GprIndex extends Op {
    private final Operation op;
    private final Src src;
    private final int imm;

    GprIndex(Instruction inst) {
      super(inst);
      this.op = inst.operation();
      this.src = Src.of(inst.operand(Slot.SRC0), 32);
      this.imm = inst.imm();
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      int m0 = w.s[Wave.M0];
      switch (op) {
        case S_SET_GPR_IDX_ON:
          w.s[Wave.M0] = (m0 & ~0xf0ff) | (src.scalarRaw32(w, cx) & 0xff) | ((imm & 0xf) << 12);
          w.gprIdxMask = imm & 0xf;
          break;
        case S_SET_GPR_IDX_OFF: w.gprIdxMask = 0; break;
        case S_SET_GPR_IDX_IDX: w.s[Wave.M0] = (m0 & ~0xff) | (src.scalarRaw32(w, cx) & 0xff); break;
        default: w.s[Wave.M0] = (m0 & ~0xf000) | ((imm & 0xf) << 12); w.gprIdxMask = imm & 0xf; break;
      }
      w.pc += size;
    }
  }
}
