package dev.hipsim.isa.interp;

import dev.hipsim.isa.alu.BufferFormats;
import dev.hipsim.isa.decode.Image;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Slot;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.dispatch.WaveFault;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.fp.Half;
import dev.hipsim.isa.mem.AtomicOp;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;

/**
 * gfx90a's MIMG instructions on linear images ({@link ImageDescriptor}): loads and stores with and without format
 * conversion, atomics, image_get_resinfo and image_sample ({@link ImageSampler}).
 *
 * <p>Common rules (the Vega/CDNA ISA guides' MIMG field descriptions): the address VGPRs hold x [, y] [, z or array
 * slice] [, mip] as unsigned integers (sample: floats), two 16-bit values to a register with a16; dmask selects the
 * components that move, taken from or given to consecutive data registers (two 16-bit halves to a register with
 * d16, gfx9's packed D16; an odd count keeps the upper half of the last register); a load applies the resource's
 * DST_SEL swizzle before dmask; a store writes the dmask components in memory order and 0 into the format's other
 * components ("missing components get 0"); lwe writes one more register, the status dword, 0 (gfx90a has no tfe:
 * its bit is acc). Coordinates outside the level (or array slices past the last) load 0 and drop stores and
 * atomics (a returning atomic gives 0). glc/slc/scc only steer caches, which hipsim does not model, except glc on
 * atomics, which returns the pre-op value.
 */
final class ImageOps {
  private ImageOps() {}

  static Op compile(Instruction inst) {
    Operation op = inst.operation();
    String n = op.name();
    if (n.startsWith("IMAGE_ATOMIC_")) return new Atomic(inst, AtomicOp.valueOf(n.substring("IMAGE_ATOMIC_".length())));
    switch (op) {
      case IMAGE_GET_RESINFO: return new ResInfo(inst);
      case IMAGE_SAMPLE: return new ImageSampler(inst);
      case IMAGE_LOAD: case IMAGE_LOAD_MIP: case IMAGE_LOAD_PCK: case IMAGE_LOAD_PCK_SGN: case IMAGE_LOAD_MIP_PCK:
      case IMAGE_LOAD_MIP_PCK_SGN: case IMAGE_STORE: case IMAGE_STORE_MIP: case IMAGE_STORE_PCK:
      case IMAGE_STORE_MIP_PCK:
        return new Access(inst);
      default: return null;
    }
  }

  /** What every image instruction shares: the resource, the address and data registers and the controls. */
  abstract static class ImageAccess extends Op {
    final int rsrc;
    final Src vaddr;
    final Src vdata;
    final Dst vdataOut;
    final int dmask;
    final boolean d16;
    final boolean a16;
    final boolean lwe;
    final boolean unorm;
    final boolean glc;

    ImageAccess(Instruction inst) {
      super(inst);
      this.rsrc = Src.of(inst.operand(Slot.SRSRC), 32).index;
      this.vaddr = Src.of(inst.operand(Slot.VADDR), 32);
      this.vdata = Src.of(inst.operand(Slot.VDATA), 32);
      this.vdataOut = Dst.of(inst.operand(Slot.VDATA));
      Image img = inst.image();
      this.dmask = img.dmask();
      this.d16 = img.d16();
      this.a16 = img.a16();
      this.lwe = img.lwe();
      this.unorm = img.unorm();
      this.glc = inst.memory().glc();
    }

    /** The image resource, refused with a typed error when hipsim does not model it. */
    ImageDescriptor resource(Wave w, Ctx cx) throws DispatchException {
      ImageDescriptor d = ImageDescriptor.decode(w.s, rsrc);
      String why = d.unsupported();
      if (why != null) throw refuse(w, cx, why + "; " + d.words(w.s, rsrc));
      return d;
    }

    WaveFault refuse(Wave w, Ctx cx, String reason) {
      return Faults.wave(WaveFault.Kind.UNSUPPORTED_RESOURCE, w, cx, instruction, -1, 0, reason, null);
    }

    /** Stops with a typed error when the address or data registers this execution uses run past the file. */
    void checkRegisters(Wave w, Ctx cx, int addressDwords, int dataDwords) throws DispatchException {
      int addrEnd = vaddr.vectorBase(w) / Wave.LANES + (a16 ? (addressDwords + 1) / 2 : addressDwords);
      int dataEnd = vdataOut.base(w) / Wave.LANES + dataDwords;
      if (addrEnd > Wave.MAX_VGPRS || dataEnd > Wave.MAX_VGPRS) {
        throw Faults.wave(WaveFault.Kind.ILLEGAL_INSTRUCTION, w, cx, instruction, -1, 0,
            "image address or data registers run past the register file", null);
      }
    }

    /** Address component {@code k} of a lane as an unsigned integer (16 bits with a16). */
    long coordinate(Wave w, int k, int lane) {
      int base = vaddr.vectorBase(w);
      if (!a16) return w.v[base + k * Wave.LANES + lane] & 0xffff_ffffL;
      return (w.v[base + (k >> 1) * Wave.LANES + lane] >>> ((k & 1) * 16)) & 0xffff;
    }

    /** Data registers of {@code components} values (halved with d16), plus lwe's status dword for returns. */
    int dataDwords(int components, boolean returns) {
      return (d16 ? (components + 1) / 2 : components) + (returns && lwe ? 1 : 0);
    }

    /**
     * The level-0 address of the lane's texel (coordinates from the address VGPRs, with a mip level when
     * {@code withMip}), or -1 when outside the image; refuses an existing level other than 0.
     */
    long texel(Wave w, Ctx cx, ImageDescriptor d, int lane, boolean withMip) throws DispatchException {
      int n = d.coordinates();
      long level = d.baseLevel() + (withMip ? coordinate(w, n, lane) : 0);
      if (level > d.lastLevel()) return -1;
      if (level != 0) throw refuse(w, cx, String.format(ImageDescriptor.LEVEL_REFUSAL, level));
      long x = coordinate(w, 0, lane);
      if (x >= d.levelWidth(0)) return -1;
      long y = 0;
      long z = 0;
      switch (d.type()) {
        case ImageDescriptor.TYPE_1D:
          break;
        case ImageDescriptor.TYPE_1D_ARRAY:
          z = coordinate(w, 1, lane);
          if (z >= d.layers()) return -1;
          break;
        case ImageDescriptor.TYPE_3D:
          y = coordinate(w, 1, lane);
          z = coordinate(w, 2, lane);
          if (y >= d.levelHeight(0) || z >= d.levelDepth(0)) return -1;
          break;
        case ImageDescriptor.TYPE_2D:
          y = coordinate(w, 1, lane);
          if (y >= d.levelHeight(0)) return -1;
          break;
        default: // 2D array, cube (its faces are slices)
          y = coordinate(w, 1, lane);
          z = coordinate(w, 2, lane);
          if (y >= d.levelHeight(0) || z >= d.layers()) return -1;
      }
      return d.texelAddress(x, y, z);
    }

    /** Writes the lane's output components {@code out[0..3]} that dmask selects, then lwe's status dword. */
    void writeComponents(Wave w, int lane, int[] out, int at, boolean halvesAreFloats) {
      int base = vdataOut.base(w) + lane;
      int[] v = w.v;
      int k = 0;
      for (int c = 0; c < 4; c++) {
        if ((dmask & (1 << c)) == 0) continue;
        int value = out[at + c];
        if (!d16) {
          v[base + k * Wave.LANES] = value;
        } else {
          int half = halvesAreFloats ? Half.fromFloat(Float.intBitsToFloat(value)) : value & 0xffff;
          int r = base + (k >> 1) * Wave.LANES;
          v[r] = (k & 1) != 0 ? (v[r] & 0xffff) | half << 16 : (v[r] & 0xffff0000) | half;
        }
        k++;
      }
      if (lwe) v[base + (d16 ? (k + 1) / 2 : k) * Wave.LANES] = 0;
    }
  }

  /** Reads a texel of {@code bytes} bytes into words[at..at+3] (zero above the texel). */
  static void readTexel(GpuMemory mem, long a, int bytes, int[] words, int at) throws GpuMemoryFault {
    words[at] = words[at + 1] = words[at + 2] = words[at + 3] = 0;
    if (bytes < 4) {
      words[at] = bytes == 1 ? mem.load8(a) & 0xff : mem.load16(a) & 0xffff;
      return;
    }
    for (int k = 0; k < bytes / 4; k++) words[at + k] = mem.load32(a + 4L * k);
  }

  static void writeTexel(GpuMemory mem, long a, int bytes, int[] words) throws GpuMemoryFault {
    if (bytes < 4) {
      FlatOps.write(mem, a, bytes, words[0]);
      return;
    }
    for (int k = 0; k < bytes / 4; k++) mem.store32(a + 4L * k, words[k]);
  }

  /** Output channel {@code c} after the resource's DST_SEL: 0, 1 (1.0 for float-valued data), or a component. */
  static int swizzle(int dstSel, int c, int[] comps, int at, boolean floatOne) {
    int sel = (dstSel >>> (3 * c)) & 7;
    if (sel >= 4) return comps[at + sel - 4];
    return sel == 1 ? (floatOne ? 0x3f80_0000 : 1) : 0;
  }

  /**
   * image_load*, image_store*: typed (the resource's DATA_FORMAT and NUM_FORMAT, converted as {@link
   * BufferFormats} converts MUBUF format accesses), or with _pck without conversion: the guide says only "without
   * format conversion; 8- and 16-bit elements are (not) sign-extended"; hipsim reads that as the texel's raw dwords,
   * dmask component c being texel dword c (0 past the texel; an 8- or 16-bit texel zero- or, with _sgn,
   * sign-extended) and no DST_SEL, the packed layout the name suggests.
   */
  static final class Access extends ImageAccess {
    private final boolean load;
    private final boolean mip;
    private final boolean packed;
    private final boolean signed;

    Access(Instruction inst) {
      super(inst);
      String n = inst.operation().name();
      this.load = n.startsWith("IMAGE_LOAD");
      this.mip = n.contains("_MIP");
      this.packed = n.contains("_PCK");
      this.signed = n.endsWith("_SGN");
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      ImageDescriptor d = resource(w, cx);
      int components = Integer.bitCount(dmask);
      checkRegisters(w, cx, d.coordinates() + (mip ? 1 : 0), dataDwords(components, load));
      int df = d.dataFormat();
      int nf = d.numberFormat();
      int bytes = d.bytesPerTexel();
      int comps = d.components();
      boolean floats = !packed && BufferFormats.floatValued(nf);
      int[] t = cx.data; // [0..3] texel words, [4..7] components, [8..11] output channels
      GpuMemory mem = cx.memory;
      int lane = -1;
      try {
        for (long m = w.exec(); m != 0; m &= m - 1) {
          lane = Long.numberOfTrailingZeros(m);
          long a = texel(w, cx, d, lane, mip);
          if (load) {
            if (a < 0) {
              t[8] = t[9] = t[10] = t[11] = 0;
            } else {
              readTexel(mem, a, bytes, t, 0);
              if (packed) {
                // Raw texel dwords; a texel narrower than a dword is zero- or sign-extended (_sgn).
                if (signed && bytes < 4) t[0] = t[0] << (32 - 8 * bytes) >> (32 - 8 * bytes);
                for (int c = 0; c < 4; c++) t[8 + c] = t[c];
              } else {
                for (int c = 0; c < 4; c++) {
                  t[4 + c] = c < comps ? BufferFormats.load(t, df, nf, c) : BufferFormats.missing(nf, c);
                }
                for (int c = 0; c < 4; c++) t[8 + c] = swizzle(d.dstSel(), c, t, 4, floats);
              }
            }
            writeComponents(w, lane, t, 8, floats);
          } else if (a >= 0) {
            t[0] = t[1] = t[2] = t[3] = 0;
            int k = 0;
            for (int c = 0; c < 4; c++) {
              if ((dmask & (1 << c)) == 0) continue;
              int value = storedComponent(w, k++, lane, floats, nf);
              if (packed) t[c] = value; // raw texel dword c (dwords past the texel are not written)
              else if (c < comps) BufferFormats.store(t, df, nf, c, value);
            }
            writeTexel(mem, a, bytes, t);
          }
        }
      } catch (GpuMemoryFault f) {
        throw Faults.memory(w, cx, instruction, lane, f);
      }
      w.pc += size;
    }

    /** Store data component {@code k}: a register, or with d16 a half widened to f32 or extended as an integer. */
    private int storedComponent(Wave w, int k, int lane, boolean floats, int nf) {
      if (!d16) return vdata.vectorDword(w, k, lane);
      int reg = vdata.vectorDword(w, k >> 1, lane);
      int half = (k & 1) != 0 ? reg >>> 16 : reg & 0xffff;
      if (floats) return Float.floatToRawIntBits(Half.toFloat(half));
      return nf == BufferFormats.NFMT_SINT ? (short) half : half;
    }
  }

  /**
   * image_atomic_*: a 32-bit atomic (dmask 0x1; cmpswap 0x3: data then compare) or a 64-bit one (dmask 0x3;
   * cmpswap 0xf) on the texel, which must be that wide (R32 or R32G32 formats); glc returns the pre-op value.
   */
  static final class Atomic extends ImageAccess {
    private final AtomicOp op;

    Atomic(Instruction inst, AtomicOp op) {
      super(inst);
      this.op = op;
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      boolean cmp = op == AtomicOp.CMPSWAP;
      int n = Integer.bitCount(dmask);
      if (cmp ? n != 2 && n != 4 : n != 1 && n != 2) {
        throw Faults.wave(WaveFault.Kind.ILLEGAL_INSTRUCTION, w, cx, instruction, -1, 0,
            "dmask 0x" + Integer.toHexString(dmask) + " selects no atomic width", null);
      }
      boolean wide = n == (cmp ? 4 : 2);
      ImageDescriptor d = resource(w, cx);
      if (d.bytesPerTexel() != (wide ? 8 : 4)) {
        throw refuse(w, cx, (wide ? "64" : "32") + "-bit image atomic on a " + d.bytesPerTexel()
            + "-byte texel (DATA_FORMAT " + d.dataFormat() + ")");
      }
      checkRegisters(w, cx, d.coordinates(), n);
      int base = vdataOut.base(w);
      GpuMemory mem = cx.memory;
      int lane = -1;
      try {
        for (long m = w.exec(); m != 0; m &= m - 1) {
          lane = Long.numberOfTrailingZeros(m);
          long a = texel(w, cx, d, lane, false);
          if (wide) {
            long old = 0;
            if (a >= 0) {
              long value = (vdata.vectorDword(w, 0, lane) & 0xffff_ffffL) | (long) vdata.vectorDword(w, 1, lane) << 32;
              long compare = cmp
                  ? (vdata.vectorDword(w, 2, lane) & 0xffff_ffffL) | (long) vdata.vectorDword(w, 3, lane) << 32 : 0;
              old = mem.atomic64(op, a, value, compare);
            }
            if (glc) {
              w.v[base + lane] = (int) old;
              w.v[base + Wave.LANES + lane] = (int) (old >>> 32);
            }
          } else {
            int old = 0;
            if (a >= 0) {
              old = mem.atomic32(op, a, vdata.vectorDword(w, 0, lane), cmp ? vdata.vectorDword(w, 1, lane) : 0);
            }
            if (glc) w.v[base + lane] = old;
          }
        }
      } catch (GpuMemoryFault f) {
        throw Faults.memory(w, cx, instruction, lane, f);
      }
      w.pc += size;
    }
  }

  /**
   * image_get_resinfo: for the mip level in the address VGPR (relative to BASE_LEVEL) the level's width, height
   * (1 for 1D images: GFX9 makes them 2D images one texel high), depth of a 3D image or the view's array slices
   * (BASE_ARRAY to the last; 1 for other types), and the view's level count (LAST_LEVEL - BASE_LEVEL + 1), as
   * unsigned integers in the dmask components. A level past the last gives 0 sizes (the level count still). Reads
   * no memory, so any tiling is fine.
   */
  static final class ResInfo extends ImageAccess {
    ResInfo(Instruction inst) {
      super(inst);
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      ImageDescriptor d = ImageDescriptor.decode(w.s, rsrc);
      if (d.type() < ImageDescriptor.TYPE_1D || d.type() > ImageDescriptor.TYPE_2D_ARRAY) {
        throw refuse(w, cx, "resource type " + d.type() + " is not modelled; " + d.words(w.s, rsrc));
      }
      checkRegisters(w, cx, 1, dataDwords(Integer.bitCount(dmask), true));
      int levels = Math.max(0, d.lastLevel() - d.baseLevel() + 1);
      int[] t = cx.data;
      for (long m = w.exec(); m != 0; m &= m - 1) {
        int lane = Long.numberOfTrailingZeros(m);
        long mipLevel = coordinate(w, 0, lane);
        if (mipLevel >= levels) {
          t[0] = t[1] = t[2] = 0;
        } else {
          int level = d.baseLevel() + (int) mipLevel;
          t[0] = d.levelWidth(level);
          t[1] = d.levelHeight(level);
          t[2] = d.type() == ImageDescriptor.TYPE_3D ? d.levelDepth(level) : d.isArray() ? d.layers() : 1;
        }
        t[3] = levels;
        writeComponents(w, lane, t, 0, false);
      }
      w.pc += size;
    }
  }
}
