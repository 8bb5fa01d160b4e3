package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.MemoryFields;
import dev.hipsim.isa.decode.Slot;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;

/**
 * MUBUF and MTBUF: memory through a 128-bit buffer resource. Addresses follow the GFX9 buffer addressing rules,
 * including swizzled buffers and ADD_TID_ENABLE, which is how kernels reach their scratch through the private
 * segment buffer; out-of-range loads return 0 and out-of-range stores are dropped, as on hardware. Typed (format)
 * accesses are in {@link BufferFormatOps}; loads with the lds bit write LDS ({@link LdsDma}).
 */
final class BufferOps {
  private BufferOps() {}

  /** GFX9 swizzled buffers interleave 4-byte elements (the resource has no ELEMENT_SIZE field on GFX9). */
  static final int SWIZZLE_ELEMENT = 4;

  static Op compile(Instruction inst) {
    String n = inst.operation().name();
    if (n.startsWith("BUFFER_WB") || n.startsWith("BUFFER_INV") || n.equals("BUFFER_WBINVL1")
        || n.equals("BUFFER_WBINVL1_VOL")) {
      return new ProgramOps.Nop(inst);
    }
    if (n.contains("FORMAT")) return new BufferFormatOps.FormatAccess(inst);
    MemoryAccess access = MemoryAccess.of(n);
    return access == null ? null : new Access(inst, access);
  }

  /**
   * The address of {@code bytes} bytes at byte {@code offset} of record {@code index} through the resource at
   * s[rsrc..rsrc+3] (plus the scalar offset), or -1 when the range check fails.
   */
  static long address(int[] s, int rsrc, long soffset, long index, long offset, int bytes) {
    long base = (s[rsrc] & 0xffff_ffffL) | ((long) (s[rsrc + 1] & 0xffff) << 32);
    int stride = (s[rsrc + 1] >>> 16) & 0x3fff;
    boolean swizzle = s[rsrc + 1] < 0;
    long records = s[rsrc + 2] & 0xffff_ffffL;
    int indexStride = 8 << ((s[rsrc + 3] >>> 21) & 3);
    long bufferOffset;
    boolean inRange;
    if (swizzle) {
      long indexMsb = index / indexStride;
      long indexLsb = index % indexStride;
      bufferOffset = (indexMsb * stride + (offset / SWIZZLE_ELEMENT) * SWIZZLE_ELEMENT) * indexStride
          + indexLsb * SWIZZLE_ELEMENT + offset % SWIZZLE_ELEMENT;
      inRange = stride == 0 || index < records;
    } else {
      bufferOffset = offset + index * stride;
      inRange = stride == 0 ? offset + bytes <= records : index < records;
    }
    return inRange ? base + soffset + bufferOffset : -1;
  }

  /** What every buffer instruction shares: the resource, the scalar offset and the per-lane index and offset. */
  abstract static class BufferAccess extends Op {
    final int rsrc;
    final Src soffset;
    final Src vaddr;
    final Src vdata;
    final Dst vdataOut;
    final int offset;
    final boolean offen;
    final boolean idxen;
    final boolean lds;

    BufferAccess(Instruction inst) {
      super(inst);
      this.rsrc = Src.of(inst.operand(Slot.SRSRC), 32).index;
      this.soffset = Src.of(inst.operand(Slot.SOFFSET), 32);
      this.vaddr = Src.of(inst.operand(Slot.VADDR), 32);
      this.vdata = Src.of(inst.operand(Slot.VDATA), 32);
      this.vdataOut = Dst.of(inst.operand(Slot.VDATA));
      MemoryFields m = inst.memory();
      this.offset = m.offset();
      this.offen = m.offen();
      this.idxen = m.idxen();
      this.lds = m.lds();
    }

    long scalarOffset(Wave w, Ctx cx) throws DispatchException {
      return soffset == null ? 0 : soffset.scalarRaw32(w, cx) & 0xffff_ffffL;
    }

    /** The lane's record index: the index VGPR (idxen) plus the lane number with ADD_TID_ENABLE. */
    long index(Wave w, int lane) {
      long index = idxen ? w.v[vaddr.vectorBase(w) + lane] & 0xffff_ffffL : 0;
      if ((w.s[rsrc + 3] >>> 23 & 1) != 0) index += lane;
      return index;
    }

    /** The lane's byte offset in the record: the offset VGPR (offen) plus the instruction's offset. */
    long byteOffset(Wave w, int lane) {
      long off = offen ? w.v[vaddr.vectorBase(w) + (idxen ? Wave.LANES : 0) + lane] & 0xffff_ffffL : 0;
      return off + offset;
    }
  }

  /** Untyped loads, stores and atomics of bytes, shorts and dwords. */
  static final class Access extends BufferAccess {
    private final MemoryAccess access;
    private final boolean returns;

    Access(Instruction inst, MemoryAccess access) {
      super(inst);
      this.access = access;
      this.returns = access.kind() == MemoryAccess.Kind.ATOMIC && inst.memory().glc();
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      int[] s = w.s;
      long soff = scalarOffset(w, cx);
      long ldsBase = lds ? LdsDma.base(w, instruction, offset) : 0;
      GpuMemory mem = cx.memory;
      int lane = -1;
      try {
        for (long m = w.exec(); m != 0; m &= m - 1) {
          lane = Long.numberOfTrailingZeros(m);
          long index = index(w, lane);
          long off = byteOffset(w, lane);
          for (int k = 0; k < access.dwords(); k++) {
            long address = address(s, rsrc, soff, index, off + 4L * k, access.bytes());
            boolean inRange = address >= 0;
            switch (access.kind()) {
              case LOAD: {
                int raw = inRange ? FlatOps.read(mem, address, access.bytes()) : 0;
                if (lds) {
                  LdsDma.store(w, cx, instruction, ldsBase, lane, access.loadedValue(raw, 0));
                } else {
                  int at = vdataOut.base(w) + k * Wave.LANES + lane;
                  w.v[at] = access.loadedValue(raw, w.v[at]);
                }
                break;
              }
              case STORE:
                if (inRange) FlatOps.write(mem, address, access.bytes(), access.storedValue(vdata.vectorDword(w, k, lane)));
                break;
              default:
                if (k == 0 && inRange) atomic(w, mem, address, lane);
            }
          }
        }
      } catch (GpuMemoryFault f) {
        throw Faults.memory(w, cx, instruction, lane, f);
      }
      w.pc += size;
    }

    private void atomic(Wave w, GpuMemory mem, long address, int lane) throws GpuMemoryFault {
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
