package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.MemoryFields;
import dev.hipsim.isa.decode.Slot;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;

/**
 * MUBUF (and the untyped part of MTBUF): memory through a 128-bit buffer resource. Addresses follow the GFX9 buffer
 * addressing rules, including swizzled buffers and ADD_TID_ENABLE, which is how kernels reach their scratch through
 * the private segment buffer; out-of-range loads return 0 and out-of-range stores are dropped, as on hardware.
 */
final class BufferOps {
  private BufferOps() {}

  static Op compile(Instruction inst) {
    String n = inst.operation().name();
    if (n.startsWith("BUFFER_WB") || n.startsWith("BUFFER_INV") || n.equals("BUFFER_WBINVL1")
        || n.equals("BUFFER_WBINVL1_VOL")) {
      return new ProgramOps.Nop(inst);
    }
    if (n.contains("FORMAT") || inst.memory() != null && inst.memory().lds()) return null;
    MemoryAccess access = MemoryAccess.of(n);
    return access == null ? null : new Access(inst, access);
  }

  static final class Access extends Op {
    private final MemoryAccess access;
    private final int rsrc;
    private final Src soffset;
    private final Src vaddr;
    private final Src vdata;
    private final Dst vdataOut;
    private final int offset;
    private final boolean offen;
    private final boolean idxen;
    private final boolean returns;

    Access(Instruction inst, MemoryAccess access) {
      super(inst);
      this.access = access;
      this.rsrc = Src.of(inst.operand(Slot.SRSRC), 32).index;
      this.soffset = Src.of(inst.operand(Slot.SOFFSET), 32);
      this.vaddr = Src.of(inst.operand(Slot.VADDR), 32);
      this.vdata = Src.of(inst.operand(Slot.VDATA), 32);
      this.vdataOut = Dst.of(inst.operand(Slot.VDATA));
      MemoryFields m = inst.memory();
      this.offset = m.offset();
      this.offen = m.offen();
      this.idxen = m.idxen();
      this.returns = access.kind() == MemoryAccess.Kind.ATOMIC && m.glc();
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      int[] s = w.s;
      long base = (s[rsrc] & 0xffff_ffffL) | ((long) (s[rsrc + 1] & 0xffff) << 32);
      int stride = (s[rsrc + 1] >>> 16) & 0x3fff;
      boolean swizzle = s[rsrc + 1] < 0;
      long records = s[rsrc + 2] & 0xffff_ffffL;
      int word3 = s[rsrc + 3];
      boolean addTid = (word3 >>> 23 & 1) != 0;
      int indexStride = 8 << ((word3 >>> 21) & 3);
      long soff = soffset == null ? 0 : soffset.scalarRaw32(w, cx) & 0xffff_ffffL;
      int vb = vaddr == null ? -1 : vaddr.vectorBase(w);
      GpuMemory mem = cx.memory;
      int lane = -1;
      try {
        for (long m = w.exec(); m != 0; m &= m - 1) {
          lane = Long.numberOfTrailingZeros(m);
          long index = idxen ? w.v[vb + lane] & 0xffff_ffffL : 0;
          long off = offen ? w.v[vb + (idxen ? Wave.LANES : 0) + lane] & 0xffff_ffffL : 0;
          if (addTid) index += lane;
          off += offset;
          for (int k = 0; k < access.dwords(); k++) {
            long o = off + 4L * k;
            long bufferOffset;
            boolean inRange;
            if (swizzle) {
              long indexMsb = index / indexStride;
              long indexLsb = index % indexStride;
              bufferOffset = (indexMsb * stride + (o >>> 2) * 4) * indexStride + indexLsb * 4 + (o & 3);
              inRange = stride == 0 ? true : index < records;
            } else {
              bufferOffset = o + index * stride;
              inRange = stride == 0 ? o + access.bytes() <= records : index < records;
            }
            long address = base + soff + bufferOffset;
            switch (access.kind()) {
              case LOAD: {
                int old = w.v[vdataOut.base(w) + k * Wave.LANES + lane];
                int raw = inRange ? FlatOps.read(mem, address, access.bytes()) : 0;
                w.v[vdataOut.base(w) + k * Wave.LANES + lane] = access.loadedValue(raw, old);
                break;
              }
              case STORE:
                if (inRange) FlatOps.write(mem, address, access.bytes(), access.storedValue(vdata.vectorDword(w, k, lane)));
                break;
              default:
                if (k == 0) atomic(w, mem, address, lane, inRange);
            }
          }
        }
      } catch (GpuMemoryFault f) {
        throw Faults.memory(w, cx, instruction, lane, f);
      }
      w.pc += size;
    }

    private void atomic(Wave w, GpuMemory mem, long address, int lane, boolean inRange) throws GpuMemoryFault {
      if (!inRange) return;
      boolean cmp = access.atomic() == dev.hipsim.isa.mem.AtomicOp.CMPSWAP;
      int base = vdataOut.base(w);
      if (access.atomic64()) {
        long value = (vdata.vectorDword(w, 0, lane) & 0xffff_ffffL) | ((long) vdata.vectorDword(w, 1, lane) << 32);
        long compare = cmp ? (vdata.vectorDword(w, 2, lane) & 0xffff_ffffL) | ((long) vdata.vectorDword(w, 3, lane) << 32) : 0;
        long old = mem.atomic64(access.atomic(), address, value, compare);
        if (returns) {
          w.v[base + lane] = (int) old;
          w.v[base + Wave.LANES + lane] = (int) (old >>> 32);
        }
      } else {
        int value = vdata.vectorDword(w, 0, lane);
        int compare = cmp ? vdata.vectorDword(w, 1, lane) : 0;
        int old = mem.atomic32(access.atomic(), address, value, compare);
        if (returns) w.v[base + lane] = old;
      }
    }
  }
}
