package dev.hipsim.isa.interp;

import dev.hipsim.isa.alu.BufferFormats;
import dev.hipsim.isa.decode.Encoding;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.fp.Half;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;

/**
 * Typed buffer accesses: BUFFER_{LOAD,STORE}_FORMAT_* (the resource's DATA_FORMAT and NUM_FORMAT) and
 * TBUFFER_* (the instruction's dfmt and nfmt). A load converts each component of the element to a 32-bit value
 * (components the format lacks read 0, and w reads 1 or 1.0), then applies the resource's DST_SEL swizzle; a store
 * converts the instruction's components into the element and leaves the others as they were. The D16 forms carry
 * 16-bit values, two to a register (gfx9's packed D16): halves of floats are binary16; a D16 load of an odd count,
 * and D16_HI_X, keeps the other half of the last register.
 */
final class BufferFormatOps {
  private BufferFormatOps() {}

  static final class FormatAccess extends BufferOps.BufferAccess {
    private final boolean load;
    private final int count;
    private final boolean d16;
    private final boolean d16High;
    private final boolean typed;
    private final int dfmt;
    private final int nfmt;

    FormatAccess(Instruction inst) {
      super(inst);
      String n = inst.operation().name();
      this.load = n.contains("_LOAD_");
      this.count = n.endsWith("XYZW") ? 4 : n.endsWith("XYZ") ? 3 : n.endsWith("XY") ? 2 : 1;
      this.d16 = n.contains("_D16");
      this.d16High = n.contains("_D16_HI");
      this.typed = inst.encoding() == Encoding.MTBUF;
      this.dfmt = inst.memory().dataFormat();
      this.nfmt = inst.memory().numberFormat();
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      int word3 = w.s[rsrc + 3];
      int df = typed ? dfmt : (word3 >>> 15) & 15;
      int nf = typed ? nfmt : (word3 >>> 12) & 7;
      int bytes = BufferFormats.bytes(df);
      int comps = BufferFormats.components(df);
      long soff = scalarOffset(w, cx);
      long ldsBase = lds ? LdsDma.base(w, instruction, offset) : 0;
      int[] words = cx.data; // 4 dwords of element, then 4 component values
      GpuMemory mem = cx.memory;
      int lane = -1;
      try {
        for (long m = w.exec(); m != 0; m &= m - 1) {
          lane = Long.numberOfTrailingZeros(m);
          long index = index(w, lane);
          long off = byteOffset(w, lane);
          boolean present = bytes > 0 && readElement(w.s, mem, index, off, soff, bytes, words);
          if (load) {
            for (int c = 0; c < 4; c++) {
              words[4 + c] = !present ? 0 : c < comps ? BufferFormats.load(words, df, nf, c)
                  : BufferFormats.missing(nf, c);
            }
            if (lds) {
              LdsDma.store(w, cx, instruction, ldsBase, lane, present ? swizzled(words, word3, 0, nf) : 0);
            } else {
              writeRegisters(w, lane, words, present ? word3 : 0, nf);
            }
          } else if (present) {
            for (int c = 0; c < Math.min(count, comps); c++) {
              BufferFormats.store(words, df, nf, c, componentToStore(w, lane, c, nf));
            }
            writeElement(w.s, mem, index, off, soff, bytes, words);
          }
        }
      } catch (GpuMemoryFault f) {
        throw Faults.memory(w, cx, instruction, lane, f);
      }
      w.pc += size;
    }

    /** Reads the element into words[0..3]; false when it is out of range (then loads give 0, stores are dropped). */
    private boolean readElement(int[] s, GpuMemory mem, long index, long off, long soff, int bytes, int[] words)
        throws GpuMemoryFault {
      words[0] = words[1] = words[2] = words[3] = 0;
      if (bytes < 4) {
        long a = BufferOps.address(s, rsrc, soff, index, off, bytes);
        if (a < 0) return false;
        words[0] = bytes == 1 ? mem.load8(a) & 0xff : mem.load16(a) & 0xffff;
        return true;
      }
      for (int k = 0; k < bytes / 4; k++) {
        long a = BufferOps.address(s, rsrc, soff, index, off + 4L * k, 4);
        if (a < 0) return false;
        words[k] = mem.load32(a);
      }
      return true;
    }

    private void writeElement(int[] s, GpuMemory mem, long index, long off, long soff, int bytes, int[] words)
        throws GpuMemoryFault {
      if (bytes < 4) {
        long a = BufferOps.address(s, rsrc, soff, index, off, bytes);
        if (a < 0) return;
        if (bytes == 1) mem.store8(a, (byte) words[0]);
        else mem.store16(a, (short) words[0]);
        return;
      }
      for (int k = 0; k < bytes / 4; k++) {
        long a = BufferOps.address(s, rsrc, soff, index, off + 4L * k, 4);
        if (a >= 0) mem.store32(a, words[k]);
      }
    }

    /** Output channel c after the resource's DST_SEL (0, 1, or a component X..W); 0 for out-of-range data. */
    private static int swizzled(int[] words, int word3, int c, int nf) {
      int sel = (word3 >>> (3 * c)) & 7;
      switch (sel) {
        case 0: return 0;
        case 1: return BufferFormats.floatValued(nf) ? 0x3f800000 : 1;
        case 4: case 5: case 6: case 7: return words[4 + sel - 4];
        default: return 0;
      }
    }

    private void writeRegisters(Wave w, int lane, int[] words, int word3, int nf) {
      int base = vdataOut.base(w);
      int[] v = w.v;
      boolean floats = BufferFormats.floatValued(nf);
      for (int c = 0; c < count; c++) {
        int value = word3 == 0 ? 0 : swizzled(words, word3, c, nf);
        if (!d16) {
          v[base + c * Wave.LANES + lane] = value;
          continue;
        }
        int half = floats ? Half.fromFloat(Float.intBitsToFloat(value)) : value & 0xffff;
        int at = base + (c >> 1) * Wave.LANES + lane;
        boolean high = d16High || (c & 1) != 0;
        v[at] = high ? (v[at] & 0xffff) | half << 16 : (v[at] & 0xffff0000) | half;
      }
    }

    /** Component c of the store data as a 32-bit value (a D16 half widened to f32, or extended as an integer). */
    private int componentToStore(Wave w, int lane, int c, int nf) {
      if (!d16) return vdata.vectorDword(w, c, lane);
      int reg = vdata.vectorDword(w, c >> 1, lane);
      int half = d16High || (c & 1) != 0 ? reg >>> 16 : reg & 0xffff;
      if (BufferFormats.floatValued(nf)) return Float.floatToRawIntBits(Half.toFloat(half));
      return nf == BufferFormats.NFMT_SINT ? (short) half : half;
    }
  }
}
