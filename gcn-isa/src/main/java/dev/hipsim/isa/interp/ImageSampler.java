package dev.hipsim.isa.interp;

import dev.hipsim.isa.alu.BufferFormats;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Slot;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.fp.Half;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;

/**
 * image_sample at LOD 0 (compute code has no derivatives), so level BASE_LEVEL (only level 0 is modelled, see
 * {@link ImageDescriptor}) with the sampler's magnification filter ({@link SamplerDescriptor}).
 *
 * <p>Coordinates are f32 (f16 with a16), normalised unless the instruction's unorm or the sampler's
 * FORCE_UNNORMALIZED says otherwise: texel space is {@code u = s × width} (y and 3D z likewise); an array slice is
 * the coordinate rounded to nearest even, clamped to the view's slices. Point sampling takes texel
 * {@code floor(u)}; bilinear takes texels {@code floor(u - 0.5)} and the next, weighted by the fraction (3D
 * images also filter in z when Z_FILTER is linear). Each texel index goes through the axis's clamp mode: WRAP
 * repeats, MIRROR repeats mirrored, CLAMP_LAST_TEXEL clamps, MIRROR_ONCE_* mirror about 0 first, the *_BORDER modes
 * give the border colour (transparent black, opaque black, opaque white; a border colour table through a register,
 * type 3, is refused) outside the image, and the *_HALF_BORDER modes first clamp u to [0, size], so that at most
 * half the border enters a filtered value. Integer formats are point-sampled.
 *
 * <p>Precision: point sampling is exact (f32 texel-space coordinates, texels converted as the loads convert them).
 * Bilinear filtering is computed in f32 (the fraction of the f32 position {@code u - 0.5}, weights and sums in
 * f32), while the hardware quantises the weights to a few fractional bits (8 on GCN); values may differ from an
 * MI210's by up to about 2^-8 of the span of the filtered texels (plus f32 rounding).
 */
final class ImageSampler extends ImageOps.ImageAccess {
  private final int ssamp;

  ImageSampler(Instruction inst) {
    super(inst);
    this.ssamp = Src.of(inst.operand(Slot.SSAMP), 32).index;
  }

  @Override
  public void execute(Wave w, Ctx cx) throws DispatchException {
    ImageDescriptor d = resource(w, cx);
    if (d.type() == ImageDescriptor.TYPE_CUBE) {
      throw refuse(w, cx, "sampling a cube image (face selection) is not modelled; " + d.words(w.s, rsrc));
    }
    if (d.baseLevel() != 0) throw refuse(w, cx, String.format(ImageDescriptor.LEVEL_REFUSAL, d.baseLevel()));
    SamplerDescriptor s = SamplerDescriptor.decode(w.s, ssamp);
    if (s.borderType() == SamplerDescriptor.BORDER_REGISTER
        && (border(s.clampX()) || border(s.clampY()) || border(s.clampZ()))) {
      throw refuse(w, cx, "border colour from the border colour register table (BORDER_COLOR_TYPE 3) is not modelled");
    }
    int n = d.coordinates();
    checkRegisters(w, cx, n, dataDwords(Integer.bitCount(dmask), true));
    boolean ints = !BufferFormats.floatValued(d.numberFormat());
    boolean linear = s.bilinear() && !ints;
    boolean unnormalized = unorm || s.forceUnnormalized();
    int width = d.levelWidth(0);
    int height = d.levelHeight(0);
    int depth = d.levelDepth(0);
    int type = d.type();
    boolean hasY = type != ImageDescriptor.TYPE_1D && type != ImageDescriptor.TYPE_1D_ARRAY;
    int sliceAt = d.sliceCoordinate();
    boolean is3d = type == ImageDescriptor.TYPE_3D;
    int[] t = cx.data; // [0..3] texel words, [4..7] texel components, [8..11] output channels
    GpuMemory mem = cx.memory;
    int lane = -1;
    try {
      for (long m = w.exec(); m != 0; m &= m - 1) {
        lane = Long.numberOfTrailingZeros(m);
        float u = prepare(scaled(coordinateF(w, 0, lane), width, unnormalized), width, s.clampX());
        float v = hasY ? prepare(scaled(coordinateF(w, 1, lane), height, unnormalized), height, s.clampY()) : 0;
        float r = is3d ? prepare(scaled(coordinateF(w, 2, lane), depth, unnormalized), depth, s.clampZ()) : 0;
        long slice = 0;
        if (sliceAt >= 0) {
          if (d.layers() == 0) {
            t[8] = t[9] = t[10] = t[11] = 0;
            writeComponents(w, lane, t, 8, !ints);
            continue;
          }
          float c = coordinateF(w, sliceAt, lane);
          slice = c != c ? 0 : Math.max(0, Math.min(d.layers() - 1, (long) Math.rint(c)));
        }
        if (!linear) {
          long x = wrap(floor(u), width, s.clampX());
          long y = hasY ? wrap(floor(v), height, s.clampY()) : 0;
          long z = is3d ? wrap(floor(r), depth, s.clampZ()) : slice;
          fetch(mem, d, s, x, y, z, t);
          for (int c = 0; c < 4; c++) t[8 + c] = ImageOps.swizzle(d.dstSel(), c, t, 4, !ints);
        } else {
          float fu = u - 0.5f;
          long x0 = floor(fu);
          float fx = fu - x0;
          float fv = v - 0.5f;
          long y0 = hasY ? floor(fv) : 0;
          float fy = hasY ? fv - y0 : 0;
          boolean filterZ = is3d && s.linearZ();
          float fr = r - 0.5f;
          long z0 = filterZ ? floor(fr) : is3d ? floor(r) : slice;
          float fz = filterZ ? fr - z0 : 0;
          float a0 = 0;
          float a1 = 0;
          float a2 = 0;
          float a3 = 0;
          for (int k = 0; k < (filterZ ? 2 : 1); k++) {
            long z = is3d ? wrap(z0 + k, depth, s.clampZ()) : slice;
            float wz = filterZ ? (k == 0 ? 1 - fz : fz) : 1;
            for (int j = 0; j < (hasY ? 2 : 1); j++) {
              long y = hasY ? wrap(y0 + j, height, s.clampY()) : 0;
              float wy = hasY ? (j == 0 ? 1 - fy : fy) : 1;
              for (int i = 0; i < 2; i++) {
                long x = wrap(x0 + i, width, s.clampX());
                float wx = i == 0 ? 1 - fx : fx;
                fetch(mem, d, s, x, y, z, t);
                float weight = wz * (wy * wx);
                a0 += weight * Float.intBitsToFloat(t[4]);
                a1 += weight * Float.intBitsToFloat(t[5]);
                a2 += weight * Float.intBitsToFloat(t[6]);
                a3 += weight * Float.intBitsToFloat(t[7]);
              }
            }
          }
          t[4] = Float.floatToRawIntBits(a0);
          t[5] = Float.floatToRawIntBits(a1);
          t[6] = Float.floatToRawIntBits(a2);
          t[7] = Float.floatToRawIntBits(a3);
          for (int c = 0; c < 4; c++) t[8 + c] = ImageOps.swizzle(d.dstSel(), c, t, 4, true);
        }
        writeComponents(w, lane, t, 8, !ints);
      }
    } catch (GpuMemoryFault f) {
      throw Faults.memory(w, cx, instruction, lane, f);
    }
    w.pc += size;
  }

  private static boolean border(int mode) {
    return mode >= SamplerDescriptor.CLAMP_HALF_BORDER;
  }

  private float coordinateF(Wave w, int k, int lane) {
    int bits = (int) coordinate(w, k, lane);
    return a16 ? Half.toFloat(bits) : Float.intBitsToFloat(bits);
  }

  static float scaled(float c, int size, boolean unnormalized) {
    return unnormalized ? c : c * size;
  }

  /** The texel-space coordinate after the clamp mode's continuous part (mirror once, half-border clamp). */
  static float prepare(float u, int size, int mode) {
    if (u != u) return 0;
    switch (mode) {
      case SamplerDescriptor.MIRROR_ONCE_LAST_TEXEL: case SamplerDescriptor.MIRROR_ONCE_BORDER:
        return Math.abs(u);
      case SamplerDescriptor.CLAMP_HALF_BORDER:
        return Math.max(0, Math.min(size, u));
      case SamplerDescriptor.MIRROR_ONCE_HALF_BORDER:
        return Math.min(size, Math.abs(u));
      default:
        return u;
    }
  }

  /** floor, kept within ±2^40 so that neighbours and mirroring stay in range. */
  static long floor(float u) {
    double f = Math.floor(u);
    return (long) Math.max(-0x1p40, Math.min(0x1p40, f));
  }

  /** Texel index {@code i} through the axis's clamp mode, or -1 for the border colour. */
  static long wrap(long i, int size, int mode) {
    switch (mode) {
      case SamplerDescriptor.WRAP:
        return Math.floorMod(i, (long) size);
      case SamplerDescriptor.MIRROR: {
        long p = Math.floorMod(i, 2L * size);
        return p < size ? p : 2L * size - 1 - p;
      }
      case SamplerDescriptor.CLAMP_LAST_TEXEL:
        return Math.max(0, Math.min(size - 1, i));
      case SamplerDescriptor.MIRROR_ONCE_LAST_TEXEL:
        return Math.max(0, Math.min(size - 1, i < 0 ? -1 - i : i));
      case SamplerDescriptor.MIRROR_ONCE_HALF_BORDER: case SamplerDescriptor.MIRROR_ONCE_BORDER: {
        long m = i < 0 ? -1 - i : i;
        return m < size ? m : -1;
      }
      default: // CLAMP_HALF_BORDER, CLAMP_BORDER
        return i >= 0 && i < size ? i : -1;
    }
  }

  /** Texel (x, y, z) of level 0 converted into t[4..7] (floats as bits, or integers), or the border colour. */
  private static void fetch(GpuMemory mem, ImageDescriptor d, SamplerDescriptor s, long x, long y, long z, int[] t)
      throws GpuMemoryFault {
    int nf = d.numberFormat();
    if (x < 0 || y < 0 || z < 0) {
      int one = BufferFormats.floatValued(nf) ? 0x3f80_0000 : 1;
      int type = s.borderType();
      int rgb = type == SamplerDescriptor.BORDER_OPAQUE_WHITE ? one : 0;
      t[4] = t[5] = t[6] = rgb;
      t[7] = type == SamplerDescriptor.BORDER_TRANSPARENT_BLACK ? 0 : one;
      return;
    }
    ImageOps.readTexel(mem, d.texelAddress(x, y, z), d.bytesPerTexel(), t, 0);
    int comps = d.components();
    for (int c = 0; c < 4; c++) {
      t[4 + c] = c < comps ? BufferFormats.load(t, d.dataFormat(), nf, c) : BufferFormats.missing(nf, c);
    }
  }
}
