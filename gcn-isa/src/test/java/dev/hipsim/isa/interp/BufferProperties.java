package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.fp.Half;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * MUBUF and MTBUF against a memory model using the guide's buffer addressing: index (VGPR with idxen, plus the
 * lane with ADD_TID_ENABLE) and offset (VGPR with offen, plus the immediate), linear or swizzled records, the
 * range check on num_records, SGPR offsets; untyped and typed (dfmt/nfmt) accesses, D16, atomics, loads into
 * LDS; and SMEM loads, stores and atomics.
 */
class BufferProperties {
  static final long DATA = Machine.MEM + 0x10000;
  /** The part of memory the buffer tests reach (and compare): below MEM + 256 KiB. */
  static final int REGION = 0x40000;

  @Provide
  Arbitrary<Target> targets() {
    return Arbitraries.of(Target.GFX90A, Target.GFX942);
  }

  /** The guide's address of byte {@code offset} of record {@code index}, or -1 out of range. */
  static long address(long base, int stride, boolean swizzle, int indexStride, long records, long soffset, long index,
      long offset, int bytes) {
    long o;
    boolean in;
    if (swizzle) {
      // Swizzled: 4-byte elements of index_stride consecutive records interleave.
      o = (index / indexStride * stride + offset / 4 * 4) * indexStride + index % indexStride * 4 + offset % 4;
      in = stride == 0 || index < records;
    } else {
      o = index * stride + offset;
      in = stride == 0 ? offset + bytes <= records : index < records;
    }
    return in ? base + soffset + o : -1;
  }

  record Resource(int stride, boolean swizzle, int indexStride, long records, boolean addTid, int word3) {}

  static Resource resource(Random r, Machine m, int at, int dfmt, int nfmt) {
    int stride = new int[] {0, 4, 8, 12, 16, 32}[r.nextInt(6)];
    boolean swizzle = r.nextInt(3) == 0;
    int indexStrideCode = r.nextInt(4);
    long records = stride == 0 ? 256 + r.nextInt(4096) : 16 + r.nextInt(300);
    boolean addTid = r.nextInt(3) == 0;
    int dstSel = r.nextInt(4) == 0 ? r.nextInt(1 << 12) : (4 | 5 << 3 | 6 << 6 | 7 << 9);
    int word3 = dstSel | nfmt << 12 | dfmt << 15 | indexStrideCode << 21 | (addTid ? 1 << 23 : 0);
    m.w.s[at] = (int) DATA;
    m.w.s[at + 1] = (int) (DATA >>> 32) | stride << 16 | (swizzle ? 1 << 31 : 0);
    m.w.s[at + 2] = (int) records;
    m.w.s[at + 3] = word3;
    return new Resource(stride, swizzle, 8 << indexStrideCode, records, addTid, word3);
  }

  @Provide
  Arbitrary<Operation> untyped() {
    return Arbitraries.of(Operation.BUFFER_LOAD_DWORD, Operation.BUFFER_LOAD_DWORDX2, Operation.BUFFER_LOAD_DWORDX4,
        Operation.BUFFER_LOAD_UBYTE, Operation.BUFFER_LOAD_SSHORT, Operation.BUFFER_LOAD_SHORT_D16_HI,
        Operation.BUFFER_STORE_DWORD, Operation.BUFFER_STORE_DWORDX3, Operation.BUFFER_STORE_BYTE,
        Operation.BUFFER_STORE_SHORT_D16_HI, Operation.BUFFER_ATOMIC_ADD, Operation.BUFFER_ATOMIC_CMPSWAP,
        Operation.BUFFER_ATOMIC_SMAX_X2);
  }

  @Property(tries = 250)
  void untypedBufferAccesses(@ForAll("untyped") Operation op, @ForAll("targets") Target t, @ForAll long seed)
      throws Exception {
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 16);
    byte[] bytes = new byte[REGION];
    r.nextBytes(bytes);
    m.memory.write(Machine.MEM, bytes, 0, bytes.length);
    long exec = Vals.exec(r);
    m.w.setExec(exec);
    Resource res = resource(r, m, 8, 4, 4);
    String n = op.name().substring(7);
    boolean atomic = n.startsWith("ATOMIC");
    boolean store = n.startsWith("STORE");
    boolean wide = n.endsWith("_X2");
    int bytesPer = n.contains("BYTE") ? 1 : n.contains("SHORT") ? 2 : 4;
    int dwords = n.endsWith("X4") ? 4 : n.endsWith("X3") ? 3 : n.endsWith("X2") && !atomic ? 2 : 1;
    boolean offen = r.nextBoolean();
    boolean idxen = r.nextBoolean();
    boolean glc = atomic && r.nextBoolean();
    int vaddr = 0;
    for (int l = 0; l < 64; l++) {
      m.setV(0, l, atomic ? r.nextInt(4) : r.nextInt(400));
      m.setV(1, l, atomic ? 4 * r.nextInt(4) : r.nextInt(1200) & ~(bytesPer - 1));
    }
    int soffset = r.nextBoolean() ? 20 : 128 + r.nextInt(17);
    m.w.s[20] = 4 * r.nextInt(64);
    int offset = atomic ? 8 * r.nextInt(8) : r.nextInt(512) & ~(bytesPer - 1);
    int vdata = 4;
    Enc e = Enc.of(t, Format.MUBUF, op).buffer(vaddr, vdata, 8, soffset, offset).offen(offen).idxen(idxen).glc(glc);
    m.snapshot();
    ByteBuffer mem = ByteBuffer.wrap(bytes.clone()).order(ByteOrder.LITTLE_ENDIAN);
    m.run(e);
    int[] v = m.savedV.clone();
    long soff = Sources.value(m, soffset, 0, 0, Sources.Type.I32) & 0xffff_ffffL;
    for (int l = 0; l < 64; l++) {
      if ((exec >>> l & 1) == 0) continue;
      long index = (idxen ? m.before(0, l) & 0xffff_ffffL : 0) + (res.addTid() ? l : 0);
      long off = (offen ? m.before(idxen ? 1 : 0, l) & 0xffff_ffffL : 0) + offset;
      for (int k = 0; k < dwords; k++) {
        long a = address(DATA, res.stride(), res.swizzle(), res.indexStride(), res.records(), soff, index,
            off + 4L * k, bytesPer);
        int at = (int) (a - Machine.MEM);
        if (store) {
          if (a < 0) continue;
          int value = m.before(vdata + k, l);
          if (n.endsWith("D16_HI")) value >>>= 16;
          if (bytesPer == 1) mem.put(at, (byte) value);
          else if (bytesPer == 2) mem.putShort(at, (short) value);
          else mem.putInt(at, value);
        } else if (!atomic) {
          int raw = a < 0 ? 0 : bytesPer == 1 ? mem.get(at) : bytesPer == 2 ? mem.getShort(at) : mem.getInt(at);
          v[(vdata + k) * 64 + l] = VectorMemoryProperties.loaded(n, raw, m.before(vdata + k, l));
        } else if (a >= 0) {
          if (wide) {
            long old = mem.getLong(at);
            mem.putLong(at, Math.max(old, m.before64(vdata, l)));
            if (glc) {
              v[vdata * 64 + l] = (int) old;
              v[(vdata + 1) * 64 + l] = (int) (old >>> 32);
            }
          } else {
            int old = mem.getInt(at);
            int x = m.before(vdata, l);
            mem.putInt(at, n.equals("ATOMIC_ADD") ? old + x : old == m.before(vdata + 1, l) ? x : old);
            if (glc) v[vdata * 64 + l] = old;
          }
        }
      }
    }
    m.assertState(v, m.savedS, m.text(e));
    byte[] now = new byte[REGION];
    m.memory.read(Machine.MEM, now, 0, now.length);
    VectorMemoryProperties.compare(mem.array(), now, m.text(e) + " memory");
  }

  /** A test-side model of one typed component: {dfmt, nfmt} pairs it covers, from the format definitions. */
  static final int[][] FORMATS = {{4, 4}, {4, 5}, {4, 7}, {2, 4}, {2, 0}, {2, 7}, {1, 4}, {1, 1}, {10, 0}, {10, 4},
      {5, 5}, {5, 7}, {11, 4}, {14, 7}, {12, 7}, {13, 5}};

  static int[] layout(int dfmt) {
    return switch (dfmt) {
      case 1 -> new int[] {8};
      case 2 -> new int[] {16};
      case 4 -> new int[] {32};
      case 5 -> new int[] {16, 16};
      case 10 -> new int[] {8, 8, 8, 8};
      case 11 -> new int[] {32, 32};
      case 12 -> new int[] {16, 16, 16, 16};
      case 13 -> new int[] {32, 32, 32};
      default -> new int[] {32, 32, 32, 32};
    };
  }

  /** A field's register value: unsigned/signed integer, normalized, or float (binary16/32). */
  static int fromField(long raw, int bits, int nfmt) {
    long max = (1L << bits) - 1;
    long signed = raw << (64 - bits) >> (64 - bits);
    return switch (nfmt) {
      case 0 -> Float.floatToRawIntBits((float) (raw / (double) max));
      case 1 -> Float.floatToRawIntBits((float) Math.max(signed / (double) (max >> 1), -1.0));
      case 4 -> (int) raw;
      case 5 -> (int) signed;
      default -> bits == 16 ? Float.floatToRawIntBits(Half.toFloat((int) raw)) : (int) raw;
    };
  }

  static long toField(int v, int bits, int nfmt) {
    long max = (1L << bits) - 1;
    double x = Float.intBitsToFloat(v);
    return switch (nfmt) {
      case 0 -> x != x ? 0 : (long) Math.rint(Math.max(0, Math.min(1, x)) * max);
      case 1 -> (x != x ? 0 : (long) Math.rint(Math.max(-1, Math.min(1, x)) * (max >> 1))) & max;
      case 4, 5 -> v & max;
      default -> bits == 16 ? Half.fromFloat((float) x) : v & max;
    };
  }

  @Provide
  Arbitrary<Operation> typed() {
    return Arbitraries.of(Operation.BUFFER_LOAD_FORMAT_X, Operation.BUFFER_LOAD_FORMAT_XY,
        Operation.BUFFER_LOAD_FORMAT_XYZW, Operation.BUFFER_STORE_FORMAT_X, Operation.BUFFER_STORE_FORMAT_XYZW,
        Operation.BUFFER_LOAD_FORMAT_D16_XYZ, Operation.BUFFER_STORE_FORMAT_D16_XY, Operation.TBUFFER_LOAD_FORMAT_XYZW,
        Operation.TBUFFER_LOAD_FORMAT_X, Operation.TBUFFER_STORE_FORMAT_XY, Operation.TBUFFER_STORE_FORMAT_XYZW,
        Operation.TBUFFER_LOAD_FORMAT_D16_XY);
  }

  @Property(tries = 250)
  void typedBufferAccesses(@ForAll("typed") Operation op, @ForAll("targets") Target t, @ForAll long seed)
      throws Exception {
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 16);
    byte[] bytes = new byte[REGION];
    r.nextBytes(bytes);
    m.memory.write(Machine.MEM, bytes, 0, bytes.length);
    long exec = Vals.exec(r);
    m.w.setExec(exec);
    int[] fmt = FORMATS[r.nextInt(FORMATS.length)];
    int dfmt = fmt[0];
    int nfmt = fmt[1];
    boolean mtbuf = op.name().startsWith("T");
    Resource res = resource(r, m, 8, mtbuf ? 4 : dfmt, mtbuf ? 4 : nfmt);
    String n = op.name();
    boolean store = n.contains("_STORE_");
    boolean d16 = n.contains("_D16");
    int count = n.endsWith("XYZW") ? 4 : n.endsWith("XYZ") ? 3 : n.endsWith("XY") ? 2 : 1;
    int[] lay = layout(dfmt);
    int elementBytes = 0;
    for (int b : lay) elementBytes += b / 8;
    for (int l = 0; l < 64; l++) {
      m.setV(0, l, r.nextInt(100) * elementBytes);
      for (int k = 0; k < 4; k++) m.setV(4 + k, l, r.nextInt(4) == 0 ? Vals.f32(r) : r.nextInt());
    }
    int offset = 0;
    Enc e = mtbuf ? Enc.of(t, Format.MTBUF, op).buffer(0, 4, 8, 128, offset).offen(true).tbufFormat(dfmt, nfmt)
        : Enc.of(t, Format.MUBUF, op).buffer(0, 4, 8, 128, offset).offen(true);
    m.snapshot();
    ByteBuffer mem = ByteBuffer.wrap(bytes.clone()).order(ByteOrder.LITTLE_ENDIAN);
    m.run(e);
    int[] v = m.savedV.clone();
    boolean floats = nfmt != 4 && nfmt != 5;
    for (int l = 0; l < 64; l++) {
      if ((exec >>> l & 1) == 0) continue;
      long index = res.addTid() ? l : 0;
      long off = m.before(0, l) & 0xffff_ffffL;
      int pos = 0;
      int[] comp = new int[4];
      boolean in = true;
      long[] addrs = new long[lay.length];
      for (int c = 0; c < lay.length; c++) {
        int bytesC = lay[c] / 8;
        // Elements are read dword by dword (or whole when smaller than a dword), each range-checked.
        long a = address(DATA, res.stride(), res.swizzle(), res.indexStride(), res.records(), 0, index,
            off + (elementBytes < 4 ? 0 : pos / 4 * 4), Math.min(4, elementBytes));
        if (a < 0) in = false;
        addrs[c] = a < 0 ? -1 : a + (elementBytes < 4 ? pos : pos % 4);
        pos += bytesC;
      }
      if (!store) {
        for (int c = 0; c < 4; c++) {
          if (!in) {
            comp[c] = 0;
          } else if (c < lay.length) {
            int at = (int) (addrs[c] - Machine.MEM);
            long raw = lay[c] == 8 ? mem.get(at) & 0xff : lay[c] == 16 ? mem.getShort(at) & 0xffff
                : mem.getInt(at) & 0xffff_ffffL;
            comp[c] = fromField(raw, lay[c], nfmt);
          } else {
            comp[c] = c == 3 ? (floats ? 0x3f800000 : 1) : 0;
          }
        }
        for (int c = 0; c < count; c++) {
          int sel = in ? res.word3() >>> 3 * c & 7 : 0;
          int value = sel >= 4 ? comp[sel - 4] : sel == 1 ? (floats ? 0x3f800000 : 1) : 0;
          if (!d16) {
            v[(4 + c) * 64 + l] = value;
          } else {
            int half = floats ? Half.fromFloat(Float.intBitsToFloat(value)) : value & 0xffff;
            int at = (4 + c / 2) * 64 + l;
            v[at] = (c & 1) != 0 ? (v[at] & 0xffff) | half << 16 : (v[at] & 0xffff0000) | half;
          }
        }
      } else if (in) {
        for (int c = 0; c < Math.min(count, lay.length); c++) {
          int value;
          if (d16) {
            int reg = m.before(4 + c / 2, l);
            int half = (c & 1) != 0 ? reg >>> 16 : reg & 0xffff;
            value = floats ? Float.floatToRawIntBits(Half.toFloat(half)) : nfmt == 5 ? (short) half : half;
          } else {
            value = m.before(4 + c, l);
          }
          long field = toField(value, lay[c], nfmt);
          int at = (int) (addrs[c] - Machine.MEM);
          if (lay[c] == 8) mem.put(at, (byte) field);
          else if (lay[c] == 16) mem.putShort(at, (short) field);
          else mem.putInt(at, (int) field);
        }
      }
    }
    m.assertState(v, m.savedS, m.text(e) + " dfmt " + dfmt + " nfmt " + nfmt);
    byte[] now = new byte[REGION];
    m.memory.read(Machine.MEM, now, 0, now.length);
    VectorMemoryProperties.compare(mem.array(), now, m.text(e) + " dfmt " + dfmt + " nfmt " + nfmt + " memory");
  }

  @Property(tries = 80)
  void bufferLoadsIntoLds(@ForAll("targets") Target t, @ForAll long seed) throws Exception {
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 8);
    byte[] bytes = new byte[REGION];
    r.nextBytes(bytes);
    m.memory.write(Machine.MEM, bytes, 0, bytes.length);
    long exec = Vals.exec(r);
    m.w.setExec(exec);
    m.w.s[8] = (int) DATA;
    m.w.s[9] = (int) (DATA >>> 32);
    m.w.s[10] = 4096;
    m.w.s[11] = 4 << 15 | 4 << 12;
    int m0 = 4 * r.nextInt(512);
    m.w.s[Wave.M0] = m0;
    for (int l = 0; l < 64; l++) m.setV(0, l, 4 * r.nextInt(1100));
    int offset = 4 * r.nextInt(64);
    Enc e = Enc.of(t, Format.MUBUF, Operation.BUFFER_LOAD_DWORD).buffer(0, 0, 8, 128, offset).offen(true).lds(true);
    m.snapshot();
    m.run(e);
    ByteBuffer mem = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer lds = ByteBuffer.wrap(m.savedLds.clone()).order(ByteOrder.LITTLE_ENDIAN);
    for (int l = 0; l < 64; l++) {
      if ((exec >>> l & 1) == 0) continue;
      long o = m.before(0, l) + offset;
      int value = o + 4 <= 4096 ? mem.getInt((int) (DATA - Machine.MEM + o)) : 0;
      lds.putInt(m0 + offset + 4 * l, value);
    }
    m.assertState(m.savedV, m.savedS, m.text(e));
    VectorMemoryProperties.compare(lds.array(), m.group.lds().read(0, m.group.lds().capacity()), m.text(e) + " LDS");
  }

  @Property(tries = 150)
  void scalarMemory(@ForAll("targets") Target t, @ForAll long seed) throws Exception {
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 1);
    byte[] bytes = new byte[REGION];
    r.nextBytes(bytes);
    m.memory.write(Machine.MEM, bytes, 0, bytes.length);
    ByteBuffer mem = ByteBuffer.wrap(bytes.clone()).order(ByteOrder.LITTLE_ENDIAN);
    int kind = r.nextInt(5);
    m.w.setS64(4, DATA);
    m.w.s[8] = (int) DATA;
    m.w.s[9] = (int) (DATA >>> 32);
    m.w.s[10] = 2048; // num_records of the buffer form
    m.w.s[11] = 0;
    int off = 4 * r.nextInt(600);
    int soff = 4 * r.nextInt(32);
    m.w.s[3] = soff;
    boolean useSoffset = r.nextBoolean();
    int[] s = m.w.s.clone();
    Enc e;
    int sdata = 16;
    switch (kind) {
      case 0, 1 -> {
        int dwords = new int[] {1, 2, 4, 8, 16}[r.nextInt(5)];
        Operation op = Operation.valueOf((kind == 0 ? "S_LOAD_DWORD" : "S_BUFFER_LOAD_DWORD")
            + (dwords == 1 ? "" : "X" + dwords));
        e = Enc.of(t, Format.SMEM, op).smem(kind == 0 ? 4 : 8, sdata, off, useSoffset ? 3 : -1);
        long o = off + (useSoffset ? soff : 0);
        for (int k = 0; k < dwords; k++) {
          boolean in = kind == 0 || o + 4L * k + 4 <= 2048;
          s[sdata + k] = in ? mem.getInt((int) (DATA - Machine.MEM + o + 4L * k)) : 0;
        }
      }
      case 2 -> {
        e = Enc.of(t, Format.SMEM, Operation.S_STORE_DWORDX2).smem(4, sdata, off, useSoffset ? 3 : -1);
        long o = off + (useSoffset ? soff : 0);
        mem.putInt((int) (DATA - Machine.MEM + o), s[sdata]);
        mem.putInt((int) (DATA - Machine.MEM + o + 4), s[sdata + 1]);
      }
      case 3 -> {
        e = Enc.of(t, Format.SMEM, Operation.S_ATOMIC_ADD).smem(4, sdata, off, useSoffset ? 3 : -1).glc(true);
        int at = (int) (DATA - Machine.MEM + off + (useSoffset ? soff : 0));
        int old = mem.getInt(at);
        mem.putInt(at, old + s[sdata]);
        s[sdata] = old;
      }
      default -> {
        // An SGPR offset without the IMM bit: the offset field names the register.
        e = Enc.of(t, Format.SMEM, Operation.S_LOAD_DWORD).smem(4, sdata, 3, -1).bit(17, false);
        s[sdata] = mem.getInt((int) (DATA - Machine.MEM + soff));
      }
    }
    m.snapshot();
    m.run(e);
    m.assertState(m.savedV, s, m.text(e));
    byte[] now = new byte[REGION];
    m.memory.read(Machine.MEM, now, 0, now.length);
    VectorMemoryProperties.compare(mem.array(), now, m.text(e) + " memory");
  }

  /** buffer_store_lds_dword (gfx90a): lane l stores the LDS dword at M0 + offset + 4l to record l (ADD_TID). */
  @net.jqwik.api.Example
  void bufferStoresFromLds() throws Exception {
    Target t = Target.GFX90A;
    Machine m = new Machine(t);
    Random r = new Random(11);
    m.randomize(r, 4);
    for (int i = 0; i < 1024; i++) m.group.lds().store32(4 * i, 0x1000 + i);
    long exec = 0xffff_0000_0f0f_00ffL;
    m.w.setExec(exec);
    m.w.s[Wave.M0] = 64;
    // 4-byte records, ADD_TID_ENABLE: lane l writes record l.
    m.w.s[8] = (int) DATA;
    m.w.s[9] = (int) (DATA >>> 32) | 4 << 16;
    m.w.s[10] = 64;
    m.w.s[11] = 1 << 23;
    byte[] before = new byte[256];
    m.memory.read(DATA + 16, before, 0, 256);
    m.run(Enc.of(t, Format.MUBUF, Operation.BUFFER_STORE_LDS_DWORD).buffer(0, 0, 8, 128, 16).lds(true));
    for (int l = 0; l < 64; l++) {
      int got = m.memory.load32(DATA + 16 + 4L * l);
      int old = ByteBuffer.wrap(before).order(ByteOrder.LITTLE_ENDIAN).getInt(4 * l);
      org.assertj.core.api.Assertions.assertThat(got).as("record %d", l)
          .isEqualTo((exec >>> l & 1) != 0 ? 0x1000 + (64 + 16) / 4 + l : old);
    }
  }
}
