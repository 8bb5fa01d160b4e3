package dev.hipsim.isa.interp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.dispatch.WaveFault;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.fp.Half;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * gfx90a's MIMG instructions on random linear images (every image type, 8/16/32-bit formats of 1-4 components,
 * every number format the loads convert, random DST_SEL, dmask, d16, a16, lwe, AGPR data, exec masks, in- and
 * out-of-range coordinates) against {@link ImageReference}: loads (typed and _pck/_sgn), stores, atomics with and
 * without return, image_get_resinfo, image_sample with point filtering (exact, every addressing mode and border
 * colour) and bilinear filtering (within the f32 accumulation tolerance); refusals of what hipsim does not model.
 */
class ImageProperties {
  static final long IMAGE = Machine.MEM + 0x10000;
  static final int REGION = 0x4000;
  static final int RSRC = 8;
  static final int SAMP = 16;
  static final int VADDR = 10;
  static final int VDATA = 20;
  static final int[] FORMATS = {1, 2, 3, 4, 5, 10, 11, 12, 13, 14};
  static final int[] TYPES = {8, 9, 10, 11, 12, 13};
  static final int IDENTITY = 4 | 5 << 3 | 6 << 6 | 7 << 9;

  /** A linear image's T# fields. */
  record Img(int type, int dfmt, int nfmt, int width, int height, int depthField, int pitch, int dstSel,
      int baseLevel, int lastLevel, int baseArray, int swMode) {
    int bpt() {
      return ImageReference.texelBytes(dfmt);
    }

    boolean array() {
      return type == 11 || type == 12 || type == 13;
    }

    boolean oneD() {
      return type == 8 || type == 12;
    }

    int layers() {
      return array() ? depthField - baseArray + 1 : 1;
    }

    int depth() {
      return type == 10 ? depthField + 1 : 1;
    }

    int coords() {
      return type == 8 ? 1 : type == 9 || type == 12 ? 2 : 3;
    }

    long address(long x, long y, long z) {
      long slice = array() ? baseArray + z : z;
      return IMAGE + ((slice * (oneD() ? 1 : height) + y) * pitch + x) * bpt();
    }

    void store(Machine m) {
      int[] s = m.w.s;
      s[RSRC] = (int) (IMAGE >>> 8);
      s[RSRC + 1] = (int) (IMAGE >>> 40) & 0xff | dfmt << 20 | nfmt << 26;
      s[RSRC + 2] = (width - 1) | (height - 1) << 14;
      s[RSRC + 3] = dstSel | baseLevel << 12 | lastLevel << 16 | swMode << 20 | type << 28;
      s[RSRC + 4] = depthField | (pitch - 1) << 13;
      s[RSRC + 5] = baseArray;
      s[RSRC + 6] = 0;
      s[RSRC + 7] = 0;
    }
  }

  /** An image of any type and data format, with a number format that suits it. */
  static Img anyImage(Random r) {
    int dfmt = FORMATS[r.nextInt(FORMATS.length)];
    int nfmt = numberFormat(r, dfmt);
    return image(r, TYPES[r.nextInt(TYPES.length)], dfmt, nfmt);
  }

  static Img image(Random r, int type, int dfmt, int nfmt) {
    boolean oneD = type == 8 || type == 12;
    int width = 1 + r.nextInt(12);
    int height = oneD ? 1 : 1 + r.nextInt(6);
    int baseArray = type >= 11 ? r.nextInt(3) : 0;
    int depthField = type == 10 ? r.nextInt(4) : type >= 11 ? baseArray + r.nextInt(4) : 0;
    int dstSel = r.nextBoolean() ? IDENTITY : r.nextInt(1 << 12);
    return new Img(type, dfmt, nfmt, width, height, depthField, width + r.nextInt(4), dstSel, 0, r.nextInt(3),
        baseArray, 0);
  }

  /** A number format valid for the data format (no 8-bit floats). */
  static int numberFormat(Random r, int dfmt) {
    int[] all = {0, 1, 2, 3, 4, 5, 7};
    int bits = ImageReference.shape(dfmt)[1];
    while (true) {
      int n = all[r.nextInt(all.length)];
      if (n != 7 || bits != 8) return n;
    }
  }

  static Enc encode(Operation op, int dmask, boolean unorm, boolean glc, boolean da, boolean a16, boolean acc,
      boolean lwe, boolean d16) {
    return Enc.of(Target.GFX90A, Format.MIMG, op).set(8, 4, dmask).bit(12, unorm).bit(13, glc).bit(14, da)
        .bit(15, a16).bit(16, acc).bit(17, lwe).set(32, 8, VADDR).set(40, 8, VDATA).set(48, 5, RSRC / 4)
        .set(53, 5, op == Operation.IMAGE_SAMPLE ? SAMP / 4 : 0).bit(63, d16);
  }

  static Machine machine(Random r) throws Exception {
    Machine m = new Machine(Target.GFX90A);
    m.randomize(r, 32);
    byte[] bytes = new byte[REGION];
    r.nextBytes(bytes);
    m.memory.write(IMAGE, bytes, 0, bytes.length);
    if (r.nextInt(4) != 0) m.w.setExec(r.nextLong() | 1L << r.nextInt(64));
    return m;
  }

  static byte[] region(Machine m) throws Exception {
    byte[] b = new byte[REGION];
    m.memory.read(IMAGE, b, 0, b.length);
    return b;
  }

  static byte[] texel(byte[] region, long address, int bytes) {
    byte[] t = new byte[bytes];
    System.arraycopy(region, (int) (address - IMAGE), t, 0, bytes);
    return t;
  }

  /** Sets address component k of a lane (16-bit halves with a16). */
  static void setCoordinate(Machine m, boolean a16, int k, int lane, int value) {
    if (!a16) {
      m.setV(VADDR + k, lane, value);
      return;
    }
    int reg = VADDR + k / 2;
    int old = m.v(reg, lane);
    m.setV(reg, lane, (k & 1) == 0 ? (old & 0xffff0000) | (value & 0xffff) : (old & 0xffff) | value << 16);
  }

  /** An integer coordinate: mostly in [0, n), sometimes just past it or "negative". */
  static int intCoordinate(Random r, int n, boolean a16) {
    int k = r.nextInt(10);
    if (k < 8) return r.nextInt(n);
    if (k == 8) return n + r.nextInt(3);
    return a16 ? 0xffff : -1 - r.nextInt(3);
  }

  /** Lane coordinates x.. [, mip] of an integer-addressed access; returns the texel address or -1. */
  static long placeCoordinates(Random r, Machine m, Img img, boolean a16, boolean mip, int lane) {
    int n = img.coords();
    int x = intCoordinate(r, img.width, a16);
    int y = img.oneD() ? 0 : intCoordinate(r, img.height, a16);
    int z = img.type == 10 ? intCoordinate(r, img.depth(), a16) : img.array() ? intCoordinate(r, img.layers(), a16) : 0;
    int level = mip && r.nextInt(4) == 0 ? img.lastLevel + 1 + r.nextInt(2) : 0;
    int[] c = img.type == 12 ? new int[] {x, z} : n == 1 ? new int[] {x} : n == 2 ? new int[] {x, y}
        : new int[] {x, y, z};
    for (int k = 0; k < n; k++) setCoordinate(m, a16, k, lane, c[k]);
    if (mip) setCoordinate(m, a16, n, lane, level);
    long mask = a16 ? 0xffffL : 0xffff_ffffL;
    boolean in = level <= img.lastLevel && (x & mask) < img.width && (y & mask) < (img.oneD() ? 1 : img.height)
        && (z & mask) < (img.type == 10 ? img.depth() : img.layers());
    return in ? img.address(x, y, z) : -1;
  }

  /** Writes a lane's channels out[0..3] as the instruction returns them into the expected register file. */
  static void expectReturn(int[] v, int base, int lane, int dmask, boolean d16, boolean lwe, int[] out,
      boolean floats) {
    int k = 0;
    for (int c = 0; c < 4; c++) {
      if ((dmask >> c & 1) == 0) continue;
      if (d16) {
        int h = floats ? Half.fromFloat(Float.intBitsToFloat(out[c])) : out[c] & 0xffff;
        int at = (base + k / 2) * Wave.LANES + lane;
        v[at] = k % 2 == 0 ? (v[at] & 0xffff0000) | h : (v[at] & 0xffff) | h << 16;
      } else {
        v[(base + k) * Wave.LANES + lane] = out[c];
      }
      k++;
    }
    if (lwe) v[(base + (d16 ? (k + 1) / 2 : k)) * Wave.LANES + lane] = 0;
  }

  @Provide
  Arbitrary<Operation> loads() {
    return Arbitraries.of(Operation.IMAGE_LOAD, Operation.IMAGE_LOAD_MIP, Operation.IMAGE_LOAD_PCK,
        Operation.IMAGE_LOAD_PCK_SGN, Operation.IMAGE_LOAD_MIP_PCK, Operation.IMAGE_LOAD_MIP_PCK_SGN);
  }

  @Property(tries = 300)
  void loadsMatchTheReference(@ForAll("loads") Operation op, @ForAll long seed) throws Exception {
    Random r = new Random(seed);
    Machine m = machine(r);
    Img img = anyImage(r);
    int dfmt = img.dfmt();
    int nfmt = img.nfmt();
    img.store(m);
    boolean pck = op.name().contains("PCK");
    boolean sgn = op.name().endsWith("SGN");
    boolean mip = op.name().contains("MIP");
    int dmask = 1 + r.nextInt(15);
    boolean d16 = !pck && r.nextBoolean();
    boolean a16 = r.nextInt(3) == 0;
    boolean lwe = r.nextInt(4) == 0;
    boolean acc = r.nextInt(4) == 0;
    Enc e = encode(op, dmask, false, r.nextBoolean(), img.array(), a16, acc, lwe, d16);
    long[] addr = new long[64];
    for (int l = 0; l < 64; l++) addr[l] = placeCoordinates(r, m, img, a16, mip, l);
    byte[] mem = region(m);
    m.snapshot();
    int[] v = m.savedV.clone();
    int base = (acc ? Machine.ACC_OFFSET : 0) + VDATA;
    boolean floats = !pck && ImageReference.floatValued(nfmt);
    int bytes = img.bpt();
    for (int l = 0; l < 64; l++) {
      if ((m.w.exec() >>> l & 1) == 0) continue;
      int[] out = new int[4];
      if (addr[l] >= 0) {
        byte[] t = texel(mem, addr[l], bytes);
        if (pck) {
          for (int c = 0; c < 4; c++) {
            long word = 0;
            for (int b = 0; b < 4 && 4 * c + b < bytes; b++) word |= (long) (t[4 * c + b] & 0xff) << (8 * b);
            out[c] = (int) word;
          }
          if (sgn && bytes < 4) out[0] = bytes == 1 ? (byte) out[0] : (short) out[0];
        } else {
          int[] comps = new int[4];
          for (int c = 0; c < 4; c++) comps[c] = ImageReference.load(t, dfmt, nfmt, c);
          for (int c = 0; c < 4; c++) out[c] = ImageReference.swizzle(img.dstSel, c, comps, floats);
        }
      }
      expectReturn(v, base, l, dmask, d16, lwe, out, floats);
    }
    m.run(e);
    m.assertState(v, m.savedS, m.text(e) + " " + img);
    assertThat(region(m)).isEqualTo(mem);
  }

  @Provide
  Arbitrary<Operation> stores() {
    return Arbitraries.of(Operation.IMAGE_STORE, Operation.IMAGE_STORE_MIP, Operation.IMAGE_STORE_PCK,
        Operation.IMAGE_STORE_MIP_PCK);
  }

  @Property(tries = 200)
  void storesMatchTheReference(@ForAll("stores") Operation op, @ForAll long seed) throws Exception {
    Random r = new Random(seed);
    Machine m = machine(r);
    Img img = anyImage(r);
    int dfmt = img.dfmt();
    int nfmt = img.nfmt();
    img.store(m);
    boolean pck = op.name().contains("PCK");
    boolean mip = op.name().contains("MIP");
    int dmask = 1 + r.nextInt(15);
    boolean d16 = !pck && r.nextBoolean();
    boolean a16 = r.nextInt(3) == 0;
    boolean acc = r.nextInt(4) == 0;
    boolean floats = !pck && ImageReference.floatValued(nfmt);
    Enc e = encode(op, dmask, false, r.nextBoolean(), img.array(), a16, acc, false, d16);
    int base = (acc ? Machine.ACC_OFFSET : 0) + VDATA;
    long[] addr = new long[64];
    for (int l = 0; l < 64; l++) {
      addr[l] = placeCoordinates(r, m, img, a16, mip, l);
      if (floats && r.nextBoolean()) {
        for (int k = 0; k < 4; k++) {
          float f = (float) (r.nextDouble() * 3 - 1);
          int bits = d16 ? Half.fromFloat(f) | Half.fromFloat((float) (r.nextDouble() * 3 - 1)) << 16
              : Float.floatToRawIntBits(f);
          m.w.v[(base + k) * Wave.LANES + l] = bits;
        }
      }
    }
    byte[] mem = region(m);
    m.snapshot();
    int[] bitsPer = ImageReference.shape(dfmt);
    int bytes = img.bpt();
    for (int l = 0; l < 64; l++) {
      if ((m.w.exec() >>> l & 1) == 0 || addr[l] < 0) continue;
      byte[] t = new byte[bytes];
      int k = 0;
      for (int c = 0; c < 4; c++) {
        if ((dmask >> c & 1) == 0) continue;
        int value;
        if (d16) {
          int reg = m.before(base + k / 2, l);
          int h = k % 2 == 0 ? reg & 0xffff : reg >>> 16;
          value = floats ? Float.floatToRawIntBits(Half.toFloat(h)) : nfmt == 5 ? (short) h : h;
        } else {
          value = m.before(base + k, l);
        }
        k++;
        if (pck) {
          for (int b = 0; b < 4 && 4 * c + b < bytes; b++) t[4 * c + b] = (byte) (value >>> (8 * b));
        } else if (c < bitsPer[0]) {
          long bits = ImageReference.encode(value, bitsPer[1], nfmt);
          for (int b = 0; b < bitsPer[1] / 8; b++) t[c * bitsPer[1] / 8 + b] = (byte) (bits >>> (8 * b));
        }
      }
      System.arraycopy(t, 0, mem, (int) (addr[l] - IMAGE), bytes);
    }
    m.run(e);
    m.assertState(m.savedV, m.savedS, m.text(e) + " " + img);
    assertThat(region(m)).as(m.text(e) + " " + img).isEqualTo(mem);
  }

  @Provide
  Arbitrary<Operation> atomics() {
    return Arbitraries.of(Operation.IMAGE_ATOMIC_SWAP, Operation.IMAGE_ATOMIC_CMPSWAP, Operation.IMAGE_ATOMIC_ADD,
        Operation.IMAGE_ATOMIC_SUB, Operation.IMAGE_ATOMIC_SMIN, Operation.IMAGE_ATOMIC_UMIN,
        Operation.IMAGE_ATOMIC_SMAX, Operation.IMAGE_ATOMIC_UMAX, Operation.IMAGE_ATOMIC_AND,
        Operation.IMAGE_ATOMIC_OR, Operation.IMAGE_ATOMIC_XOR, Operation.IMAGE_ATOMIC_INC,
        Operation.IMAGE_ATOMIC_DEC);
  }

  static long atomic(String op, long old, long src, long cmp, boolean wide) {
    long mask = wide ? -1L : 0xffff_ffffL;
    old &= mask;
    src &= mask;
    long sOld = wide ? old : (int) old;
    long sSrc = wide ? src : (int) src;
    switch (op) {
      case "SWAP": return src;
      case "CMPSWAP": return old == (cmp & mask) ? src : old;
      case "ADD": return (old + src) & mask;
      case "SUB": return (old - src) & mask;
      case "SMIN": return (sSrc < sOld ? src : old);
      case "UMIN": return Long.compareUnsigned(src, old) < 0 ? src : old;
      case "SMAX": return (sSrc > sOld ? src : old);
      case "UMAX": return Long.compareUnsigned(src, old) > 0 ? src : old;
      case "AND": return old & src;
      case "OR": return old | src;
      case "XOR": return old ^ src;
      case "INC": return Long.compareUnsigned(old, src) >= 0 ? 0 : (old + 1) & mask;
      default: return old == 0 || Long.compareUnsigned(old, src) > 0 ? src : (old - 1) & mask;
    }
  }

  @Property(tries = 250)
  void atomicsMatchTheReference(@ForAll("atomics") Operation op, @ForAll long seed) throws Exception {
    Random r = new Random(seed);
    Machine m = machine(r);
    boolean wide = r.nextInt(3) == 0;
    boolean cmp = op == Operation.IMAGE_ATOMIC_CMPSWAP;
    int[] types = {8, 9, 12, 13};
    Img full = image(r, types[r.nextInt(types.length)], wide ? 11 : 4, r.nextBoolean() ? 4 : 5);
    // Small images, so that lanes often hit the same texel (applied in lane order).
    Img img = new Img(full.type, full.dfmt, full.nfmt, 1 + r.nextInt(3), full.oneD() ? 1 : 1 + r.nextInt(2),
        full.depthField, full.pitch, full.dstSel, 0, full.lastLevel, full.baseArray, 0);
    img.store(m);
    boolean glc = r.nextBoolean();
    boolean a16 = r.nextInt(4) == 0;
    int dmask = cmp ? (wide ? 0xf : 0x3) : (wide ? 0x3 : 0x1);
    Enc e = encode(op, dmask, false, glc, img.array(), a16, false, false, false);
    long[] addr = new long[64];
    for (int l = 0; l < 64; l++) {
      addr[l] = placeCoordinates(r, m, img, a16, false, l);
      if (r.nextBoolean()) m.setV(VDATA, l, r.nextInt(5)); // small operands: inc/dec and compares take effect
    }
    byte[] mem = region(m);
    java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(mem).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    m.snapshot();
    int[] v = m.savedV.clone();
    String name = op.name().substring("IMAGE_ATOMIC_".length());
    for (int l = 0; l < 64; l++) {
      if ((m.w.exec() >>> l & 1) == 0) continue;
      long old = 0;
      if (addr[l] >= 0) {
        int at = (int) (addr[l] - IMAGE);
        old = wide ? bb.getLong(at) : bb.getInt(at) & 0xffff_ffffL;
        long src = wide ? m.before64(VDATA, l) : m.before(VDATA, l) & 0xffff_ffffL;
        long compare = cmp ? (wide ? m.before64(VDATA + 2, l) : m.before(VDATA + 1, l)) : 0;
        long now = atomic(name, old, src, compare, wide);
        if (wide) bb.putLong(at, now);
        else bb.putInt(at, (int) now);
      }
      if (glc) {
        v[VDATA * Wave.LANES + l] = (int) old;
        if (wide) v[(VDATA + 1) * Wave.LANES + l] = (int) (old >>> 32);
      }
    }
    m.run(e);
    m.assertState(v, m.savedS, m.text(e) + " " + img);
    assertThat(region(m)).as(m.text(e) + " " + img).isEqualTo(mem);
  }

  @Property(tries = 100)
  void resinfoReportsTheLevelSizes(@ForAll long seed) throws Exception {
    Random r = new Random(seed);
    Machine m = machine(r);
    Img any = image(r, TYPES[r.nextInt(TYPES.length)], FORMATS[r.nextInt(FORMATS.length)], 4);
    int last = r.nextInt(6);
    int baseLevel = r.nextInt(last + 1);
    Img img = new Img(any.type, any.dfmt, any.nfmt, 1 + r.nextInt(1 << 14), any.oneD() ? 1 : 1 + r.nextInt(1 << 14),
        any.type == 10 ? r.nextInt(1 << 13) : any.depthField, any.pitch, any.dstSel, baseLevel, last, any.baseArray,
        r.nextInt(32));
    img.store(m);
    int dmask = 1 + r.nextInt(15);
    boolean a16 = r.nextInt(3) == 0;
    Enc e = encode(Operation.IMAGE_GET_RESINFO, dmask, false, false, img.array(), a16, false, false, false);
    for (int l = 0; l < 64; l++) setCoordinate(m, a16, 0, l, r.nextInt(8));
    m.snapshot();
    int[] v = m.savedV.clone();
    int levels = last - baseLevel + 1;
    for (int l = 0; l < 64; l++) {
      if ((m.w.exec() >>> l & 1) == 0) continue;
      int mipLevel = a16 ? m.before(VADDR, l) & 0xffff : m.before(VADDR, l);
      int[] out = new int[4];
      if (mipLevel < levels) {
        int level = baseLevel + mipLevel;
        out[0] = Math.max(1, img.width >> level);
        out[1] = img.oneD() ? 1 : Math.max(1, img.height >> level);
        out[2] = img.type == 10 ? Math.max(1, (img.depthField + 1) >> level) : img.array() ? img.layers() : 1;
      }
      out[3] = levels;
      expectReturn(v, VDATA, l, dmask, false, false, out, false);
    }
    m.run(e);
    m.assertState(v, m.savedS, m.text(e) + " " + img);
  }

  // ------------------------------------------------------------------------------------------ sampling

  record Sampler(int clampX, int clampY, int clampZ, boolean force, int xyFilter, int zFilter, int border) {
    void store(Machine m) {
      m.w.s[SAMP] = clampX | clampY << 3 | clampZ << 6 | (force ? 1 << 15 : 0);
      m.w.s[SAMP + 1] = 0;
      m.w.s[SAMP + 2] = xyFilter << 20 | xyFilter << 22 | zFilter << 24;
      m.w.s[SAMP + 3] = border << 30;
    }
  }

  /** A float coordinate: normalised in [-2, 3) or unnormalised in [-2n, 3n), sometimes on a texel edge. */
  static float floatCoordinate(Random r, int n, boolean unnormalized) {
    float c = r.nextInt(4) == 0 ? (r.nextInt(5 * n) - 2 * n) / 2f : (float) (r.nextDouble() * 5 - 2) * n;
    return unnormalized ? c : c / n;
  }

  /** Texel-space reference: the sampled components (before DST_SEL) for a lane. */
  static double[] sampleReference(byte[] mem, Img img, Sampler s, float[] c, boolean unnormalized, boolean linear,
      double[] absSum) {
    int nx = img.width;
    int ny = img.oneD() ? 1 : img.height;
    int nz = img.depth();
    boolean hasY = !img.oneD();
    boolean is3d = img.type == 10;
    int slice = 0;
    if (img.array()) {
      float sc = c[img.type == 12 ? 1 : 2];
      slice = (int) Math.max(0, Math.min(img.layers() - 1, Math.rint(sc)));
    }
    float u = ImageReference.fold(unnormalized ? c[0] : c[0] * nx, nx, s.clampX);
    float v = hasY ? ImageReference.fold(unnormalized ? c[1] : c[1] * ny, ny, s.clampY) : 0;
    float w = is3d ? ImageReference.fold(unnormalized ? c[2] : c[2] * nz, nz, s.clampZ) : 0;
    boolean floats = ImageReference.floatValued(img.nfmt);
    double[] out = new double[4];
    int xs = linear ? 2 : 1;
    int ys = linear && hasY ? 2 : 1;
    boolean linZ = linear && is3d && s.zFilter == 2;
    int zs = linZ ? 2 : 1;
    // The model's texel-space positions are f32: the half-texel shift is an f32 subtraction.
    double bu = linear ? u - 0.5f : u;
    double bv = linear ? v - 0.5f : v;
    double bw = linZ ? w - 0.5f : w;
    long x0 = (long) Math.floor(bu);
    long y0 = (long) Math.floor(bv);
    long z0 = (long) Math.floor(bw);
    double fx = bu - x0;
    double fy = bv - y0;
    double fz = bw - z0;
    for (int k = 0; k < zs; k++) {
      for (int j = 0; j < ys; j++) {
        for (int i = 0; i < xs; i++) {
          double weight = (linear ? (i == 0 ? 1 - fx : fx) : 1) * (ys == 2 ? (j == 0 ? 1 - fy : fy) : 1)
              * (zs == 2 ? (k == 0 ? 1 - fz : fz) : 1);
          long x = ImageReference.address(x0 + i, nx, s.clampX);
          long y = hasY ? ImageReference.address(y0 + j, ny, s.clampY) : 0;
          long z = is3d ? ImageReference.address(z0 + k, nz, s.clampZ) : slice;
          int[] comps;
          if (x < 0 || y < 0 || z < 0) {
            comps = ImageReference.border(s.border, floats);
          } else {
            byte[] t = texel(mem, img.address(x, y, z), img.bpt());
            comps = new int[4];
            for (int q = 0; q < 4; q++) comps[q] = ImageReference.load(t, img.dfmt, img.nfmt, q);
          }
          for (int q = 0; q < 4; q++) {
            double value = floats ? Float.intBitsToFloat(comps[q]) : comps[q];
            if (!linear) {
              out[q] = value;
            } else {
              out[q] += weight * value;
              absSum[q] += Math.abs(weight * value);
            }
          }
        }
      }
    }
    return out;
  }

  void samplingCase(long seed, boolean linear) throws Exception {
    Random r = new Random(seed);
    Machine m = machine(r);
    int[] types = {8, 9, 10, 12, 13};
    int dfmt = FORMATS[r.nextInt(FORMATS.length)];
    int nfmt = numberFormat(r, dfmt);
    if (linear) {
      int[] floatFormats = {0, 1, 7};
      nfmt = floatFormats[r.nextInt(3)];
      if (nfmt == 7 && ImageReference.shape(dfmt)[1] == 8) nfmt = 0;
    }
    Img img = image(r, types[r.nextInt(types.length)], dfmt, nfmt);
    img.store(m);
    if (nfmt == 7 && ImageReference.shape(dfmt)[1] == 32) {
      // Moderate floats, so that f32 accumulation does not overflow where the double reference does not.
      for (int k = 0; k < REGION; k += 4) m.memory.store32(IMAGE + k, Float.floatToRawIntBits((float) (r.nextGaussian() * 50)));
    }
    Sampler s = new Sampler(r.nextInt(8), r.nextInt(8), r.nextInt(8), r.nextInt(4) == 0, (linear ? 1 : 0) | (r.nextBoolean() ? 2 : 0),
        r.nextInt(3), r.nextInt(3));
    s.store(m);
    boolean unormBit = r.nextInt(4) == 0;
    boolean unnormalized = unormBit || s.force;
    int dmask = 1 + r.nextInt(15);
    boolean d16 = !linear && r.nextBoolean();
    boolean a16 = r.nextInt(4) == 0;
    boolean lwe = r.nextInt(4) == 0;
    Enc e = encode(Operation.IMAGE_SAMPLE, dmask, unormBit, false, img.array(), a16, false, lwe, d16);
    int n = img.coords();
    int[] sizes = {img.width, img.oneD() ? img.layers() : img.height, img.type == 10 ? img.depth() : img.layers()};
    float[][] coords = new float[64][n];
    for (int l = 0; l < 64; l++) {
      for (int k = 0; k < n; k++) {
        boolean slice = (img.type == 12 && k == 1) || (img.type == 13 && k == 2);
        float c = slice ? r.nextInt(img.layers() + 2) - 1 + (float) r.nextDouble() * 0.98f - 0.49f
            : floatCoordinate(r, sizes[k], unnormalized);
        int bits = a16 ? Half.fromFloat(c) : Float.floatToRawIntBits(c);
        coords[l][k] = a16 ? Half.toFloat(bits) : c;
        setCoordinate(m, a16, k, l, bits);
      }
    }
    byte[] mem = region(m);
    m.snapshot();
    int[] v = m.savedV.clone();
    boolean floats = ImageReference.floatValued(nfmt);
    double[][] expected = new double[64][];
    double[][] sums = new double[64][4];
    for (int l = 0; l < 64; l++) {
      if ((m.w.exec() >>> l & 1) == 0) continue;
      double[] comps = sampleReference(mem, img, s, coords[l], unnormalized, linear && floats, sums[l]);
      int[] bits = new int[4];
      for (int q = 0; q < 4; q++) bits[q] = floats ? Float.floatToRawIntBits((float) comps[q]) : (int) comps[q];
      int[] out = new int[4];
      for (int q = 0; q < 4; q++) out[q] = ImageReference.swizzle(img.dstSel, q, bits, floats);
      expected[l] = new double[4];
      for (int q = 0; q < 4; q++) {
        int sel = img.dstSel >>> (3 * q) & 7;
        expected[l][q] = sel >= 4 ? comps[sel - 4] : sel == 1 ? 1 : 0;
      }
      expectReturn(v, VDATA, l, dmask, d16, lwe, out, floats);
    }
    m.run(e);
    if (!linear) {
      m.assertState(v, m.savedS, m.text(e) + " " + img + " " + s);
      return;
    }
    // Bilinear: each returned channel within the f32 accumulation tolerance of the exact weighted sum.
    for (int l = 0; l < 64; l++) {
      if ((m.w.exec() >>> l & 1) == 0) continue;
      int k = 0;
      for (int q = 0; q < 4; q++) {
        if ((dmask >> q & 1) == 0) continue;
        float got = Float.intBitsToFloat(m.v(VDATA + k++, l));
        int sel = img.dstSel >>> (3 * q) & 7;
        double want = expected[l][q];
        double tol = sel >= 4 ? 1e-6 * (1 + sums[l][sel - 4]) : 0;
        boolean ok = Double.isNaN(want) ? Float.isNaN(got) : got == want || Math.abs(got - want) <= tol;
        assertThat(ok).as("%s %s %s lane %d channel %d (coordinates %s, a16 %s): got %s, want %s (tolerance %s)",
            m.text(e), img, s, l, q, java.util.Arrays.toString(coords[l]), a16, got, want, tol).isTrue();
      }
      if (lwe) assertThat(m.v(VDATA + k, l)).isZero();
    }
    // Registers other than the returned ones are untouched.
    for (int reg = 0; reg < 32; reg++) {
      if (reg >= VDATA && reg < VDATA + Integer.bitCount(dmask) + (lwe ? 1 : 0)) continue;
      for (int l = 0; l < 64; l++) assertThat(m.v(reg, l)).isEqualTo(m.before(reg, l));
    }
  }

  @Property(tries = 300)
  void pointSamplingIsExact(@ForAll long seed) throws Exception {
    samplingCase(seed, false);
  }

  @Property(tries = 200)
  void bilinearSamplingIsWithinTolerance(@ForAll long seed) throws Exception {
    samplingCase(seed, true);
  }

  // ------------------------------------------------------------------------------------------ refusals

  static WaveFault refusal(Img img, Enc e, Machine m) {
    img.store(m);
    try {
      m.run(e);
    } catch (WaveFault f) {
      return f;
    } catch (Exception other) {
      throw new AssertionError(other);
    }
    throw new AssertionError("not refused: " + m.text(e));
  }

  @Test
  void whatHipsimDoesNotModelStopsWithATypedError() throws Exception {
    Random r = new Random(7);
    Machine m = machine(r);
    m.w.setExec(-1L);
    for (int l = 0; l < 64; l++) {
      for (int k = 0; k < 4; k++) m.setV(VADDR + k, l, 0);
    }
    Img linear = new Img(9, 10, 0, 8, 8, 0, 8, IDENTITY, 0, 2, 0, 0);
    Enc load = encode(Operation.IMAGE_LOAD, 0xf, false, false, false, false, false, false, false);

    WaveFault tiled = refusal(new Img(9, 10, 0, 8, 8, 0, 8, IDENTITY, 0, 0, 0, 9), load, m);
    assertThat(tiled.kind()).isEqualTo(WaveFault.Kind.UNSUPPORTED_RESOURCE);
    assertThat(tiled.reason()).contains("SW_MODE 9");
    assertThat(tiled.location().pc()).isEqualTo(Machine.PC);
    assertThat(tiled.getMessage()).contains("image_load");

    assertThat(refusal(new Img(14, 10, 0, 8, 8, 0, 8, IDENTITY, 0, 0, 0, 0), load, m).reason())
        .contains("multisampled");
    assertThat(refusal(new Img(9, 10, 9, 8, 8, 0, 8, IDENTITY, 0, 0, 0, 0), load, m).reason())
        .contains("NUM_FORMAT 9");

    Enc loadMip = encode(Operation.IMAGE_LOAD_MIP, 0xf, false, false, false, false, false, false, false);
    for (int l = 0; l < 64; l++) m.setV(VADDR + 2, l, 1);
    assertThat(refusal(linear, loadMip, m).reason()).contains("mip level 1");
    for (int l = 0; l < 64; l++) m.setV(VADDR + 2, l, 3); // past LAST_LEVEL: out of range, not refused
    linear.store(m);
    m.run(loadMip);

    Enc sample = encode(Operation.IMAGE_SAMPLE, 0xf, false, false, false, false, false, false, false);
    new Sampler(6, 6, 6, false, 0, 0, 3).store(m);
    assertThat(refusal(linear, sample, m).reason()).contains("BORDER_COLOR_TYPE 3");
    new Sampler(0, 0, 0, false, 0, 0, 0).store(m);
    assertThat(refusal(new Img(11, 10, 0, 8, 8, 5, 8, IDENTITY, 0, 0, 0, 0), sample, m).reason()).contains("cube");

    Enc atomic64 = encode(Operation.IMAGE_ATOMIC_ADD, 0x3, false, true, false, false, false, false, false);
    assertThat(refusal(new Img(9, 4, 4, 8, 8, 0, 8, IDENTITY, 0, 0, 0, 0), atomic64, m).reason())
        .contains("64-bit image atomic on a 4-byte texel");
    Enc badMask = encode(Operation.IMAGE_ATOMIC_ADD, 0x7, false, true, false, false, false, false, false);
    assertThat(refusal(new Img(9, 4, 4, 8, 8, 0, 8, IDENTITY, 0, 0, 0, 0), badMask, m).kind())
        .isEqualTo(WaveFault.Kind.ILLEGAL_INSTRUCTION);
  }

  // ------------------------------------------------------------------------------------------ encodings

  /** The test encoder's words equal llvm-mc's encoding of the text the disassembler prints for them. */
  @Test
  void encodingsAgreeWithLlvmMc() throws Exception {
    Path mc = Paths.get("/usr/lib/llvm-22/bin/llvm-mc");
    Assumptions.assumeTrue(Files.isExecutable(mc), "llvm-mc 22 not installed at " + mc);
    Machine m = new Machine(Target.GFX90A);
    Enc[] encs = {
        encode(Operation.IMAGE_LOAD, 0xf, false, false, false, false, false, false, false),
        encode(Operation.IMAGE_LOAD_MIP, 0x5, true, true, true, false, true, false, false),
        encode(Operation.IMAGE_LOAD_PCK_SGN, 0x3, false, false, false, true, false, false, false),
        encode(Operation.IMAGE_STORE, 0xb, false, true, false, false, false, false, true),
        encode(Operation.IMAGE_STORE_MIP_PCK, 0x1, false, false, true, false, false, false, false),
        encode(Operation.IMAGE_ATOMIC_CMPSWAP, 0xf, false, true, false, false, false, false, false),
        encode(Operation.IMAGE_ATOMIC_DEC, 0x1, false, false, false, true, false, false, false),
        encode(Operation.IMAGE_GET_RESINFO, 0xf, false, false, false, false, false, false, false),
        encode(Operation.IMAGE_SAMPLE, 0x7, false, false, false, false, false, true, true),
        encode(Operation.IMAGE_SAMPLE, 0xf, true, false, true, true, false, false, false),
    };
    StringBuilder in = new StringBuilder();
    for (Enc e : encs) in.append(m.text(e)).append('\n');
    Process p = new ProcessBuilder(mc.toString(), "-arch=amdgcn", "-mcpu=gfx90a", "-show-encoding")
        .redirectErrorStream(true).start();
    p.getOutputStream().write(in.toString().getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().close();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    p.getInputStream().transferTo(out);
    p.waitFor();
    Matcher mt = Pattern.compile("encoding: \\[([^\\]]*)\\]").matcher(out.toString(StandardCharsets.UTF_8));
    for (Enc e : encs) {
      assertThat(mt.find()).as("llvm-mc output for %s:%n%s", m.text(e), out).isTrue();
      String[] bytes = mt.group(1).split(",");
      long bits = 0;
      for (int i = bytes.length - 1; i >= 0; i--) bits = bits << 8 | Integer.decode(bytes[i].trim());
      assertThat(Long.toHexString(bits)).as(m.text(e)).isEqualTo(Long.toHexString(e.bits));
    }
  }
}
