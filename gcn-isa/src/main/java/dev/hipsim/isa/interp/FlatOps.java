package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.MemoryFields;
import dev.hipsim.isa.decode.Operand;
import dev.hipsim.isa.decode.Slot;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.dispatch.WaveFault;
import dev.hipsim.isa.exec.Lds;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.mem.AccessKind;
import dev.hipsim.isa.mem.AtomicMath;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;

/**
 * FLAT, GLOBAL and SCRATCH memory instructions. FLAT addresses are generic: an address in the LDS aperture reaches
 * the workgroup's LDS, one in the private aperture the lane's scratch, anything else global memory. Private memory
 * is interleaved per dword across the 64 lanes of a wave, as the hardware does for every path to scratch.
 */
final class FlatOps {
  private FlatOps() {}

  static Op compile(Instruction inst) {
    // gfx940's *_LOAD_LDS_* are the loads of the same width with their data sent to LDS.
    MemoryAccess access = MemoryAccess.of(inst.operation().name().replace("_LOAD_LDS_", "_LOAD_"));
    if (access == null) return null;
    return new Access(inst, access);
  }

  /** Lane scratch address: dword {@code p / 4} of lane {@code lane} in a wave's interleaved private memory. */
  static long scratchAddress(Wave w, long p, int lane) {
    return w.scratchBase + (p >>> 2) * (4L * Wave.LANES) + 4L * lane + (p & 3);
  }

  static final class Access extends Op {
    private static final int FLAT = 0;
    private static final int GLOBAL = 1;
    private static final int SCRATCH = 2;

    private final int segment;
    private final MemoryAccess access;
    private final Src addr;
    private final Src saddr;
    private final Src data;
    private final Dst vdst;
    private final int offset;
    private final boolean returns;
    /** The loaded data goes to LDS (gfx90a lds bit, gfx940 *_LOAD_LDS_*) rather than to VGPRs. */
    private final boolean lds;
    /** Whole dwords loaded into VGPRs or stored from VGPRs: what the lane-vector path of the memory does. */
    private final boolean dwordVector;

    Access(Instruction inst, MemoryAccess access) {
      super(inst);
      this.segment = switch (inst.encoding()) {
        case GLOBAL -> GLOBAL;
        case SCRATCH -> SCRATCH;
        default -> FLAT;
      };
      this.access = access;
      Operand a = inst.operand(Slot.ADDR);
      this.addr = a == null ? null : Src.of(a, 32);
      this.saddr = Src.of(inst.operand(Slot.SADDR), 32);
      this.data = Src.of(inst.operand(Slot.DATA0), 32);
      this.vdst = Dst.of(inst.vdst());
      MemoryFields m = inst.memory();
      this.offset = m == null ? 0 : m.offset();
      this.returns = vdst != null;
      this.lds = access.kind() == MemoryAccess.Kind.LOAD
          && (m != null && m.lds() || inst.operation().name().contains("_LOAD_LDS_"));
      this.dwordVector = access.bytes() == 4 && !access.d16() && !lds && (access.kind() == MemoryAccess.Kind.LOAD
          ? vdst != null : access.kind() == MemoryAccess.Kind.STORE && data != null);
    }

    /**
     * This instruction as the store that ends a fused run ({@link LaneFusion}): a global store of whole dwords
     * from VGPRs, addressed as {@link #fusible} loads are. Null for every other form.
     */
    LaneFusion.GlobalStore fusibleStore() {
      if (access.kind() != MemoryAccess.Kind.STORE || !dwordVector || data.kind != Src.VGPR) return null;
      LaneFusion.GlobalAddress a = fusedAddress();
      return a == null ? null : new LaneFusion.GlobalStore(instruction, a, data.index, access.dwords());
    }

    /**
     * This instruction as a step of a fused run ({@link LaneFusion}): a global load of whole dwords into VGPRs,
     * addressed by a VGPR pair or by an SGPR base and a VGPR offset. Null for every other form.
     */
    LaneFusion.GlobalLoad fusible() {
      if (access.kind() != MemoryAccess.Kind.LOAD || !dwordVector || !vdst.vector || vdst.agpr) return null;
      LaneFusion.GlobalAddress a = fusedAddress();
      return a == null ? null : new LaneFusion.GlobalLoad(a, vdst.index, access.dwords());
    }

    /**
     * The address as a fused run reads it: the VGPR (pair), the SGPR base when there is one, the offset; null unless
     * this is a GLOBAL access addressed by a VGPR (pair) and, if any, an SGPR base.
     */
    private LaneFusion.GlobalAddress fusedAddress() {
      if (segment != GLOBAL || addr == null || addr.kind != Src.VGPR || (saddr != null && saddr.kind != Src.SGPR)) {
        return null;
      }
      return new LaneFusion.GlobalAddress(addr.index, saddr == null ? null : instruction.operand(Slot.SADDR), offset);
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      long exec = w.exec();
      long[] address = cx.addr;
      computeAddresses(w, cx, exec, address);
      GpuMemory mem = cx.memory;
      if (dwordVector && allGlobal(cx, exec, address)) {
        vector(w, cx, mem, exec, address);
        return;
      }
      int lane = -1;
      try {
        switch (access.kind()) {
          case LOAD: {
            if (lds) {
              long base = LdsDma.base(w, instruction, offset);
              for (long m = exec; m != 0; m &= m - 1) {
                lane = Long.numberOfTrailingZeros(m);
                int raw = loadRaw(w, cx, mem, address[lane], lane);
                LdsDma.store(w, cx, instruction, base, lane, access.loadedValue(raw, 0));
              }
              break;
            }
            int[] out = cx.data;
            for (long m = exec; m != 0; m &= m - 1) {
              lane = Long.numberOfTrailingZeros(m);
              load(w, cx, mem, address[lane], lane, out);
            }
            int base = vdst.base(w);
            for (long m = exec; m != 0; m &= m - 1) {
              int l = Long.numberOfTrailingZeros(m);
              for (int k = 0; k < access.dwords(); k++) w.v[base + k * Wave.LANES + l] = out[k * Wave.LANES + l];
            }
            break;
          }
          case STORE:
            for (long m = exec; m != 0; m &= m - 1) {
              lane = Long.numberOfTrailingZeros(m);
              store(w, cx, mem, address[lane], lane);
            }
            break;
          default:
            for (long m = exec; m != 0; m &= m - 1) {
              lane = Long.numberOfTrailingZeros(m);
              atomic(w, cx, mem, address[lane], lane);
            }
        }
      } catch (GpuMemoryFault f) {
        throw Faults.memory(w, cx, instruction, lane, f);
      }
      w.pc += size;
    }

    /** Whether every active lane addresses global memory (always for GLOBAL; by aperture for FLAT). */
    private boolean allGlobal(Ctx cx, long exec, long[] address) {
      if (segment == GLOBAL) return true;
      if (segment != FLAT) return false;
      long shared = cx.launch.sharedApertureBase();
      long priv = cx.launch.privateApertureBase();
      for (long m = exec; m != 0; m &= m - 1) {
        long a = address[Long.numberOfTrailingZeros(m)];
        if ((a - shared) >>> 32 == 0 || (a - priv) >>> 32 == 0) return false;
      }
      return true;
    }

    /**
     * Whole-dword loads and stores to global memory through the memory's lane-vector path. Loaded data reaches the
     * registers only when every lane has been loaded, as on the lane-by-lane path.
     */
    private void vector(Wave w, Ctx cx, GpuMemory mem, long exec, long[] address) throws DispatchException {
      int dwords = access.dwords();
      try {
        if (access.kind() == MemoryAccess.Kind.LOAD) {
          int[] out = cx.data;
          mem.loadLanes32(address, exec, dwords, out);
          int base = vdst.base(w);
          int[] v = w.v;
          if (exec == -1L) {
            System.arraycopy(out, 0, v, base, dwords * Wave.LANES);
          } else {
            for (int k = 0; k < dwords; k++) {
              int o = k * Wave.LANES;
              for (long m = exec; m != 0; m &= m - 1) {
                int l = Long.numberOfTrailingZeros(m);
                v[base + o + l] = out[o + l];
              }
            }
          }
        } else {
          mem.storeLanes32(address, exec, dwords, w.v, data.vectorBase(w));
        }
      } catch (GpuMemoryFault f) {
        throw Faults.memory(w, cx, instruction, faultingLane(exec, address, 4L * dwords, f.address()), f);
      }
      w.pc += size;
    }

    /** The first lane whose access covers {@code faultAddress}: the one the lane-ordered accesses stopped at. */
    static int faultingLane(long exec, long[] address, long bytes, long faultAddress) {
      for (long m = exec; m != 0; m &= m - 1) {
        int l = Long.numberOfTrailingZeros(m);
        if (faultAddress - address[l] >= 0 && faultAddress - address[l] < bytes) return l;
      }
      return -1;
    }

    private void computeAddresses(Wave w, Ctx cx, long exec, long[] out) throws DispatchException {
      int[] v = w.v;
      if (segment == SCRATCH) {
        long base = (saddr == null ? 0 : saddr.scalarRaw32(w, cx) & 0xffff_ffffL) + offset;
        int vb = addr == null ? -1 : addr.vectorBase(w);
        for (long m = exec; m != 0; m &= m - 1) {
          int l = Long.numberOfTrailingZeros(m);
          // The private offset is 32-bit arithmetic (SGPR + VGPR + signed immediate wrap around).
          out[l] = (base + (vb < 0 ? 0 : v[vb + l] & 0xffff_ffffL)) & 0xffff_ffffL;
        }
        return;
      }
      if (saddr != null) {
        long base = saddr.scalarRaw64(w, cx) + offset;
        int vb = addr == null ? -1 : addr.vectorBase(w);
        if (exec == -1L && vb >= 0) {
          // All lanes: a counted loop without dependences between lanes, which C2 vectorises (the lane chain of
          // the general loop it cannot): global accesses went from 2.6 to 4.2 M wave-instructions/s.
          for (int l = 0; l < Wave.LANES; l++) out[l] = base + (v[vb + l] & 0xffff_ffffL);
          return;
        }
        for (long m = exec; m != 0; m &= m - 1) {
          int l = Long.numberOfTrailingZeros(m);
          out[l] = base + (vb < 0 ? 0 : v[vb + l] & 0xffff_ffffL);
        }
        return;
      }
      int lo = addr.vectorBase(w);
      int hi = lo + Wave.LANES;
      if (exec == -1L) { // all lanes, as in the saddr case
        for (int l = 0; l < Wave.LANES; l++) out[l] = ((v[lo + l] & 0xffff_ffffL) | ((long) v[hi + l] << 32)) + offset;
        return;
      }
      for (long m = exec; m != 0; m &= m - 1) {
        int l = Long.numberOfTrailingZeros(m);
        out[l] = ((v[lo + l] & 0xffff_ffffL) | ((long) v[hi + l] << 32)) + offset;
      }
    }

    /** Where the address points: 0 global, 1 LDS, 2 private. */
    private int region(Ctx cx, long address) {
      if (segment == SCRATCH) return 2;
      if (segment == GLOBAL) return 0;
      long shared = cx.launch.sharedApertureBase();
      long priv = cx.launch.privateApertureBase();
      if ((address - shared) >>> 32 == 0) return 1;
      if ((address - priv) >>> 32 == 0) return 2;
      return 0;
    }

    private long privateOffset(Ctx cx, long address) {
      return segment == SCRATCH ? address : address - cx.launch.privateApertureBase();
    }

    private void checkPrivate(Wave w, Ctx cx, long p, int lane, AccessKind kind) throws GpuMemoryFault {
      long limit = (long) w.scratchPerLane;
      if (p < 0 || p + access.bytes() * (long) access.dwords() > limit) {
        throw new GpuMemoryFault(segment == SCRATCH ? p : cx.launch.privateApertureBase() + p, kind,
            "private memory access at offset " + p + " beyond the " + limit + " bytes per lane this kernel has");
      }
    }

    /** One element (the first dword of the access) from wherever the address points. */
    private int loadRaw(Wave w, Ctx cx, GpuMemory mem, long a, int lane) throws GpuMemoryFault, DispatchException {
      int region = region(cx, a);
      if (region == 1) return ldsRead(w, cx, a - cx.launch.sharedApertureBase(), access.bytes(), lane);
      if (region == 2) {
        long p = privateOffset(cx, a);
        checkPrivate(w, cx, p, lane, AccessKind.READ);
        return read(mem, scratchAddress(w, p, lane), access.bytes());
      }
      return read(mem, a, access.bytes());
    }

    private void load(Wave w, Ctx cx, GpuMemory mem, long a, int lane, int[] out) throws GpuMemoryFault,
        DispatchException {
      int region = region(cx, a);
      int dwords = access.dwords();
      int bytes = access.bytes();
      int base = vdst.base(w);
      for (int k = 0; k < dwords; k++) {
        int raw;
        if (region == 1) {
          raw = ldsRead(w, cx, a - cx.launch.sharedApertureBase() + 4L * k, bytes, lane);
        } else if (region == 2) {
          long p = privateOffset(cx, a) + 4L * k;
          checkPrivate(w, cx, p - 4L * k, lane, AccessKind.READ);
          raw = read(mem, scratchAddress(w, p, lane), bytes);
        } else {
          raw = read(mem, a + 4L * k, bytes);
        }
        out[k * Wave.LANES + lane] = access.loadedValue(raw, w.v[base + k * Wave.LANES + lane]);
      }
    }

    private void store(Wave w, Ctx cx, GpuMemory mem, long a, int lane) throws GpuMemoryFault, DispatchException {
      int region = region(cx, a);
      int bytes = access.bytes();
      for (int k = 0; k < access.dwords(); k++) {
        int value = access.storedValue(data.vectorDword(w, k, lane));
        if (region == 1) {
          ldsWrite(w, cx, a - cx.launch.sharedApertureBase() + 4L * k, bytes, value, lane);
        } else if (region == 2) {
          long p = privateOffset(cx, a) + 4L * k;
          checkPrivate(w, cx, p - 4L * k, lane, AccessKind.WRITE);
          write(mem, scratchAddress(w, p, lane), bytes, value);
        } else {
          write(mem, a + 4L * k, bytes, value);
        }
      }
    }

    private void atomic(Wave w, Ctx cx, GpuMemory mem, long a, int lane) throws GpuMemoryFault, DispatchException {
      int region = region(cx, a);
      boolean wide = access.atomic64();
      boolean cmp = access.atomic() == dev.hipsim.isa.mem.AtomicOp.CMPSWAP;
      if (wide) {
        long value = (data.vectorDword(w, 0, lane) & 0xffff_ffffL) | ((long) data.vectorDword(w, 1, lane) << 32);
        long compare = cmp ? (data.vectorDword(w, 2, lane) & 0xffff_ffffL) | ((long) data.vectorDword(w, 3, lane) << 32) : 0;
        long old;
        if (region == 0) {
          old = mem.atomic64(access.atomic(), a, value, compare);
        } else if (region == 1) {
          Lds lds = w.group.lds();
          int at = ldsAddress(w, cx, a - cx.launch.sharedApertureBase(), 8, lane);
          old = lds.load64(at);
          lds.store64(at, AtomicMath.apply64(access.atomic(), old, value, compare));
        } else {
          long p = privateOffset(cx, a);
          checkPrivate(w, cx, p, lane, AccessKind.ATOMIC);
          long lo = scratchAddress(w, p, lane);
          long hi = scratchAddress(w, p + 4, lane);
          old = (mem.load32(lo) & 0xffff_ffffL) | ((long) mem.load32(hi) << 32);
          long r = AtomicMath.apply64(access.atomic(), old, value, compare);
          mem.store32(lo, (int) r);
          mem.store32(hi, (int) (r >>> 32));
        }
        if (returns) {
          int base = vdst.base(w);
          w.v[base + lane] = (int) old;
          w.v[base + Wave.LANES + lane] = (int) (old >>> 32);
        }
      } else {
        int value = data.vectorDword(w, 0, lane);
        int compare = cmp ? data.vectorDword(w, 1, lane) : 0;
        int old;
        if (region == 0) {
          old = mem.atomic32(access.atomic(), a, value, compare);
        } else if (region == 1) {
          Lds lds = w.group.lds();
          int at = ldsAddress(w, cx, a - cx.launch.sharedApertureBase(), 4, lane);
          old = lds.load32(at);
          lds.store32(at, AtomicMath.apply32(access.atomic(), old, value, compare));
        } else {
          long p = privateOffset(cx, a);
          checkPrivate(w, cx, p, lane, AccessKind.ATOMIC);
          long at = scratchAddress(w, p, lane);
          old = mem.load32(at);
          mem.store32(at, AtomicMath.apply32(access.atomic(), old, value, compare));
        }
        if (returns) w.v[vdst.base(w) + lane] = old;
      }
    }

    private int ldsAddress(Wave w, Ctx cx, long offset, int bytes, int lane) throws DispatchException {
      if (!w.group.lds().inBounds(offset, bytes)) {
        throw Faults.wave(WaveFault.Kind.MEMORY_FAULT, w, cx, instruction, lane,
            cx.launch.sharedApertureBase() + offset, "LDS access at offset " + offset + " beyond the workgroup's "
                + w.group.lds().size() + " bytes", null);
      }
      return (int) offset;
    }

    private int ldsRead(Wave w, Ctx cx, long offset, int bytes, int lane) throws DispatchException {
      Lds lds = w.group.lds();
      int at = ldsAddress(w, cx, offset, bytes, lane);
      return bytes == 1 ? lds.load8(at) : bytes == 2 ? lds.load16(at) : lds.load32(at);
    }

    private void ldsWrite(Wave w, Ctx cx, long offset, int bytes, int value, int lane) throws DispatchException {
      Lds lds = w.group.lds();
      int at = ldsAddress(w, cx, offset, bytes, lane);
      if (bytes == 1) lds.store8(at, value);
      else if (bytes == 2) lds.store16(at, value);
      else lds.store32(at, value);
    }
  }

  static int read(GpuMemory mem, long a, int bytes) throws GpuMemoryFault {
    return bytes == 1 ? mem.load8(a) : bytes == 2 ? mem.load16(a) : mem.load32(a);
  }

  static void write(GpuMemory mem, long a, int bytes, int value) throws GpuMemoryFault {
    if (bytes == 1) mem.store8(a, (byte) value);
    else if (bytes == 2) mem.store16(a, (short) value);
    else mem.store32(a, value);
  }
}
