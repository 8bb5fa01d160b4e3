package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.MemoryFields;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Slot;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.mem.AtomicOp;
import dev.hipsim.isa.mem.GpuMemoryFault;

/**
 * SMEM: scalar loads and stores through a 64-bit address or a buffer resource, scalar atomics, cache controls and
 * the time counters. Addresses are dword-aligned by the hardware (the low two bits are ignored).
 */
final class ScalarMemoryOps {
  private ScalarMemoryOps() {}

  static Op compile(Instruction inst) {
    Operation op = inst.operation();
    String name = op.name();
    switch (op) {
      case S_DCACHE_INV: case S_DCACHE_WB: case S_DCACHE_INV_VOL: case S_DCACHE_WB_VOL: case S_DCACHE_DISCARD:
      case S_DCACHE_DISCARD_X2: case S_ATC_PROBE: case S_ATC_PROBE_BUFFER:
        return new ProgramOps.Nop(inst);
      case S_MEMTIME: case S_MEMREALTIME: return new Time(inst);
      default: break;
    }
    if (name.contains("_LOAD_DWORD") || name.contains("_STORE_DWORD") || name.startsWith("S_BUFFER_ATOMIC")
        || name.startsWith("S_ATOMIC")) {
      return new Access(inst);
    }
    return null;
  }

  /** Loads, stores and atomics. */
  static final class Access extends Op {
    private final boolean buffer;
    /** s_scratch_*: the address is relative to the wave's private memory, seen linearly (no lane swizzle). */
    private final boolean scratch;
    private final boolean load;
    private final boolean store;
    private final AtomicOp atomic;
    private final boolean wide;
    private final boolean returns;
    private final int dwords;
    private final int sbase;
    private final Src soffset;
    private final int offset;
    private final Dst data;
    private final Src dataSrc;

    Access(Instruction inst) {
      super(inst);
      String name = inst.operation().name();
      this.buffer = name.startsWith("S_BUFFER");
      this.scratch = name.startsWith("S_SCRATCH");
      this.load = name.contains("_LOAD_");
      this.store = name.contains("_STORE_");
      this.atomic = load || store ? null : atomicOf(name);
      this.wide = name.endsWith("_X2");
      MemoryFields m = inst.memory();
      this.returns = m != null && m.glc();
      this.dwords = inst.operand(Slot.SDATA).dwords();
      this.sbase = Src.of(inst.operand(Slot.SBASE), 64).index;
      // The decoder resolves the offset forms: an SGPR offset (SOE, or IMM clear) and/or the immediate.
      this.soffset = Src.of(inst.operand(Slot.SOFFSET), 32);
      this.offset = m == null ? 0 : m.offset();
      this.data = Dst.of(inst.operand(Slot.SDATA));
      this.dataSrc = Src.of(inst.operand(Slot.SDATA), 32);
    }

    private static AtomicOp atomicOf(String name) {
      String op = name.replace("S_BUFFER_ATOMIC_", "").replace("S_ATOMIC_", "").replace("_X2", "");
      return AtomicOp.valueOf(op);
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      long address;
      long limit = Long.MAX_VALUE;
      long extra = offset + (soffset == null ? 0 : soffset.scalarRaw32(w, cx) & 0xffff_ffffL);
      if (buffer) {
        long base = (w.s[sbase] & 0xffff_ffffL) | ((long) (w.s[sbase + 1] & 0xffff) << 32);
        limit = w.s[sbase + 2] & 0xffff_ffffL;
        address = base + extra;
        extra = extra & ~3L;
      } else {
        address = w.s64(sbase) + extra + (scratch ? w.scratchBase : 0);
      }
      address &= ~3L;
      try {
        if (load) {
          if (buffer || !loadFromWords(w, cx, address, dwords, data.index)) {
            for (int k = 0; k < dwords; k++) {
              long off = extra + 4L * k;
              int value = buffer && off + 4 > limit ? 0 : cx.memory.load32(address + 4L * k);
              w.s[data.index + k] = value;
            }
          }
        } else if (store) {
          for (int k = 0; k < dwords; k++) {
            if (buffer && extra + 4L * k + 4 > limit) continue;
            cx.memory.store32(address + 4L * k, w.s[dataSrc.index + k]);
          }
        } else if (!buffer || extra + (wide ? 8 : 4) <= limit) {
          int i = dataSrc.index;
          if (wide) {
            long value = w.s64(i);
            long compare = atomic == AtomicOp.CMPSWAP ? w.s64(i + 2) : 0;
            long old = cx.memory.atomic64(atomic, address & ~7L, value, compare);
            if (returns) w.setS64(i, old);
          } else {
            int value = w.s[i];
            int compare = atomic == AtomicOp.CMPSWAP ? w.s[i + 1] : 0;
            int old = cx.memory.atomic32(atomic, address, value, compare);
            if (returns) w.s[i] = old;
          }
        }
      } catch (GpuMemoryFault f) {
        throw Faults.memory(w, cx, instruction, -1, f);
      }
      w.pc += size;
    }
  }

  /**
   * Loads the dwords from the words of their page when they lie in one page that plain loads may read (see {@link
   * dev.hipsim.isa.mem.GpuMemory#readableWords}): one translation for an s_load_dwordx8 instead of eight. False,
   * having loaded nothing, otherwise.
   */
  private static boolean loadFromWords(Wave w, Ctx cx, long address, int dwords, int first) {
    if ((address & 4095) + 4L * dwords > 4096) return false;
    long[] words = cx.memory.readableWords(address);
    if (words == null) return false;
    int at = (int) address & 4095;
    int[] s = w.s;
    for (int k = 0; k < dwords; k++, at += 4) s[first + k] = (int) (words[at >>> 3] >>> ((at & 4) << 3));
    return true;
  }

  /** s_memtime (shader clock) and s_memrealtime (the fixed 100 MHz clock). */
  static final class Time extends Op {
    private final boolean real;
    private final Dst dst;

    Time(Instruction inst) {
      super(inst);
      this.real = inst.operation() == Operation.S_MEMREALTIME;
      this.dst = Dst.of(inst.operand(Slot.SDATA));
    }

    @Override
    public void execute(Wave w, Ctx cx) {
      long ns = System.nanoTime();
      dst.writeScalar64(w, real ? ns / 10 : ns);
      w.pc += size;
    }
  }
}
