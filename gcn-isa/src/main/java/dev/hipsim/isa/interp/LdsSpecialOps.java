package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.MemoryFields;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Slot;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.dispatch.WaveFault;
import dev.hipsim.isa.exec.Lds;
import dev.hipsim.isa.exec.Wave;

/**
 * The DS instructions that do not take their address from a VGPR per lane, or that do more than one access:
 * ds_append/ds_consume (a wave-wide counter at M0[15:0] + offset), ds_read/write_addtid_b32 (M0[15:0] + offset +
 * 4 × lane) and ds_condxchg32_rtn_b64 (two conditional dword exchanges at an 8-byte aligned address).
 */
final class LdsSpecialOps {
  private LdsSpecialOps() {}

  static Op compile(Instruction inst) {
    switch (inst.operation()) {
      case DS_APPEND: case DS_CONSUME: return new AppendConsume(inst);
      case DS_READ_ADDTID_B32: case DS_WRITE_ADDTID_B32: return new AddTid(inst);
      case DS_CONDXCHG32_RTN_B64: return new ConditionalExchange(inst);
      default: return null;
    }
  }

  static int checked(Wave w, Ctx cx, Instruction inst, int lane, long address, int bytes) throws DispatchException {
    Lds lds = w.group.lds();
    if (!lds.inBounds(address, bytes)) {
      throw Faults.wave(WaveFault.Kind.MEMORY_FAULT, w, cx, inst, lane, address, "LDS access of " + bytes
          + " bytes at address " + address + " beyond the workgroup's " + lds.size() + " bytes of LDS", null);
    }
    return (int) address;
  }

  static int offset(Instruction inst) {
    MemoryFields m = inst.memory();
    return m == null ? 0 : m.offset();
  }

  /**
   * ds_append / ds_consume: the dword counter at (M0[15:0] + offset) & ~3 goes up (append) or down (consume) by
   * the number of active lanes; every active lane receives the value it had before (the wave's base index).
   */
  static final class AppendConsume extends Op {
    private final boolean append;
    private final int offset;
    private final Dst dst;

    AppendConsume(Instruction inst) {
      super(inst);
      this.append = inst.operation() == Operation.DS_APPEND;
      this.offset = offset(inst);
      this.dst = Dst.of(inst.vdst());
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      long exec = w.exec();
      if (exec != 0) {
        int a = checked(w, cx, instruction, -1, ((w.s[Wave.M0] & 0xffffL) + offset) & ~3L, 4);
        Lds lds = w.group.lds();
        int old = lds.load32(a);
        int n = Long.bitCount(exec);
        lds.store32(a, append ? old + n : old - n);
        int base = dst.base(w);
        for (long m = exec; m != 0; m &= m - 1) w.v[base + Long.numberOfTrailingZeros(m)] = old;
      }
      w.pc += size;
    }
  }

  /** ds_read_addtid_b32 / ds_write_addtid_b32: lane l accesses the dword at M0[15:0] + offset + 4l. */
  static final class AddTid extends Op {
    private final boolean read;
    private final int offset;
    private final Dst dst;
    private final Src data;

    AddTid(Instruction inst) {
      super(inst);
      this.read = inst.operation() == Operation.DS_READ_ADDTID_B32;
      this.offset = offset(inst);
      this.dst = Dst.of(inst.vdst());
      this.data = Src.of(inst.operand(Slot.DATA0), 32);
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      Lds lds = w.group.lds();
      long base = (w.s[Wave.M0] & 0xffffL) + offset;
      for (long m = w.exec(); m != 0; m &= m - 1) {
        int l = Long.numberOfTrailingZeros(m);
        int a = checked(w, cx, instruction, l, base + 4L * l, 4);
        if (read) {
          w.v[dst.base(w) + l] = lds.load32(a);
        } else {
          lds.store32(a, data.vectorDword(w, 0, l));
        }
      }
      w.pc += size;
    }
  }

  /**
   * ds_condxchg32_rtn_b64: at A = (addr + offset) & ~7 the pair of dwords is returned; dword k is replaced by
   * DATA[31 + 32k - 1 : 32k] when DATA bit 31 + 32k is set (the flag bit itself is not stored).
   */
  static final class ConditionalExchange extends Op {
    private final Src addr;
    private final Src data;
    private final Dst dst;
    private final int offset;

    ConditionalExchange(Instruction inst) {
      super(inst);
      this.addr = Src.of(inst.operand(Slot.ADDR), 32);
      this.data = Src.of(inst.operand(Slot.DATA0), 32);
      this.dst = Dst.of(inst.vdst());
      this.offset = offset(inst);
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      Lds lds = w.group.lds();
      for (long m = w.exec(); m != 0; m &= m - 1) {
        int l = Long.numberOfTrailingZeros(m);
        long at = ((w.v[addr.vectorBase(w) + l] & 0xffff_ffffL) + offset) & ~7L;
        int a = checked(w, cx, instruction, l, at, 8);
        int old0 = lds.load32(a);
        int old1 = lds.load32(a + 4);
        int d0 = data.vectorDword(w, 0, l);
        int d1 = data.vectorDword(w, 1, l);
        if (d0 < 0) lds.store32(a, d0 & 0x7fff_ffff);
        if (d1 < 0) lds.store32(a + 4, d1 & 0x7fff_ffff);
        w.v[dst.base(w) + l] = old0;
        w.v[dst.base(w) + Wave.LANES + l] = old1;
      }
      w.pc += size;
    }
  }
}
