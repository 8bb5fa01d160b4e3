package dev.hipsim.isa.interp;

import dev.hipsim.isa.alu.LaneOps;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.MemoryFields;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Slot;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.dispatch.WaveFault;
import dev.hipsim.isa.exec.Lds;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.mem.AtomicMath;
import dev.hipsim.isa.mem.AtomicOp;

/**
 * DS: the local data share. Reads, writes (one or two addresses), atomics with and without return, and the lane
 * permutations that use the LDS crossbar without touching memory (ds_swizzle, ds_permute, ds_bpermute). An access
 * outside the workgroup's LDS allocation stops the dispatch with a typed error.
 */
final class LdsOps {
  private LdsOps() {}

  static Op compile(Instruction inst) {
    Operation op = inst.operation();
    String n = op.name();
    // The gds bit sends an ordinary DS operation to the global data share, which hipsim does not model: such an
    // instruction stops the dispatch as unimplemented rather than touching the workgroup's LDS.
    if (inst.memory() != null && inst.memory().gds() && !n.startsWith("DS_GWS_")) return null;
    switch (op) {
      case DS_NOP: return new ProgramOps.Nop(inst);
      case DS_SWIZZLE_B32: case DS_PERMUTE_B32: case DS_BPERMUTE_B32: return new Permute(inst);
      case DS_APPEND: case DS_CONSUME: case DS_READ_ADDTID_B32: case DS_WRITE_ADDTID_B32:
      case DS_CONDXCHG32_RTN_B64:
        return LdsSpecialOps.compile(inst);
      default: break;
    }
    if (n.startsWith("DS_GWS_")) return GlobalWaveSync.compile(inst);
    if (n.startsWith("DS_READ") && !n.contains("ADDTID")) return new Read(inst);
    if (n.startsWith("DS_WRITE") && !n.contains("ADDTID")) return new Write(inst);
    AtomicKind k = AtomicKind.of(n);
    return k == null ? null : new Atomic(inst, k);
  }

  /** The common part: the address VGPR, the offsets and the bounds check. */
  abstract static class Access extends Op {
    final Src addr;
    /** OFFSET, in bytes (or the pattern of ds_swizzle); for the two-address forms, OFFSET0 in elements. */
    final int offset0;
    /** Whether the instruction has two addresses: DS_READ2, DS_WRITE2, DS_WRXCHG2, with or without ST64. */
    final boolean two;
    /**
     * The byte offsets of a two-address form's first and second address: OFFSET0 and OFFSET1 times the element
     * size (times 64 for ST64). Zero for the other forms.
     */
    final long pairOffset0;
    final long pairOffset1;
    /** Dwords per element of a dword read or write (b32 … b128; per address for the two-address forms). */
    final int dwords;

    Access(Instruction inst) {
      super(inst);
      this.addr = Src.of(inst.operand(Slot.ADDR), 32);
      MemoryFields m = inst.memory();
      this.offset0 = m == null ? 0 : m.offset();
      String n = inst.operation().name();
      this.two = n.startsWith("DS_READ2") || n.startsWith("DS_WRITE2") || n.startsWith("DS_WRXCHG2");
      long stride = (n.contains("B64") ? 8 : 4) * (n.contains("ST64") ? 64 : 1);
      this.pairOffset0 = two ? offset0 * stride : 0;
      this.pairOffset1 = two && m != null ? m.offset1() * stride : 0;
      this.dwords = n.contains("B128") ? 4 : n.contains("B96") ? 3 : n.contains("B64") ? 2 : 1;
    }

    /** The byte offset of the (first) address: OFFSET, or OFFSET0 of a two-address form. */
    long firstOffset() {
      return two ? pairOffset0 : offset0;
    }

    /**
     * For an access by every lane of the wave: each lane's LDS word index (its address, before the offsets,
     * divided by four) in {@code word}, and true when every address and offset is dword-aligned and every dword
     * the access reaches lies inside the workgroup's LDS. False otherwise; the lane paths then handle the access
     * and report the lane. Plain int arithmetic, which C1 compiles as well as C2 does: the highest address as an
     * unsigned int is the maximum of the addresses with their sign bit flipped.
     */
    boolean wordIndices(Wave w, Lds lds, int[] word) {
      int[] v = w.v;
      int ab = addr.vectorBase(w);
      long o0 = firstOffset();
      long o1 = pairOffset1;
      long last = (long) lds.size() - 4L * dwords;
      int misaligned = (int) (o0 | o1);
      int highestFlipped = Integer.MIN_VALUE;
      for (int l = 0; l < Wave.LANES; l++) {
        int a = v[ab + l];
        word[l] = a >>> 2;
        misaligned |= a;
        highestFlipped = Math.max(highestFlipped, a ^ Integer.MIN_VALUE);
      }
      long highest = (highestFlipped ^ Integer.MIN_VALUE) & 0xffff_ffffL;
      return (misaligned & 3) == 0 && highest + Math.max(o0, o1) <= last;
    }

    int at(Wave w, Ctx cx, int lane, long offset, int bytes) throws DispatchException {
      long a = (w.v[addr.vectorBase(w) + lane] & 0xffff_ffffL) + offset;
      Lds lds = w.group.lds();
      if (!lds.inBounds(a, bytes)) {
        throw Faults.wave(WaveFault.Kind.MEMORY_FAULT, w, cx, instruction, lane, a,
            "LDS access of " + bytes + " bytes at address " + a + " beyond the workgroup's " + lds.size()
                + " bytes of LDS", null);
      }
      return (int) a;
    }

    /**
     * The address of lane {@code l} (register base {@code ab}) plus OFFSET, for an access ending by {@code last},
     * checked against the bound as {@link #at} does, which reports a lane out of bounds.
     */
    int checkedAt(Wave w, Ctx cx, int ab, int l, long last, int bytes) throws DispatchException {
      long a = (w.v[ab + l] & 0xffff_ffffL) + offset0;
      return a > last ? at(w, cx, l, offset0, bytes) : (int) a; // at throws
    }

    /**
     * The two addresses of lane {@code l} in a DS_READ2/DS_WRITE2 (register base {@code ab}, elements of
     * {@code bytes} ending by {@code last}), both checked against the bound as {@link #at} does: the first in the
     * low half of the result, the second in the high half.
     */
    long pairAt(Wave w, Ctx cx, int ab, int l, long last, int bytes) throws DispatchException {
      long a = w.v[ab + l] & 0xffff_ffffL;
      long a0 = a + pairOffset0;
      long a1 = a + pairOffset1;
      if (a0 > last) a0 = at(w, cx, l, pairOffset0, bytes); // throws
      if (a1 > last) a1 = at(w, cx, l, pairOffset1, bytes); // throws
      return a0 | a1 << 32;
    }
  }

  static final class Read extends Access {
    private final int bytes;
    private final boolean signed;
    private final boolean d16;
    private final boolean d16High;
    private final Dst dst;

    Read(Instruction inst) {
      super(inst);
      String n = inst.operation().name();
      this.d16 = n.contains("_D16");
      this.d16High = n.endsWith("_D16_HI");
      this.signed = n.contains("_I8") || n.contains("_I16");
      this.bytes = n.contains("8") && !n.contains("128") ? 1 : n.contains("16") && !n.contains("B16") ? 2 : 4;
      this.dst = Dst.of(inst.vdst());
    }

    /**
     * What a fused run needs to read the same dwords ({@link LaneFusion}): null unless this reads whole dwords
     * into VGPRs from a VGPR address.
     */
    LaneFusion.LdsRead fusible() {
      if (bytes != 4 || addr == null || addr.kind != Src.VGPR || dst == null || !dst.vector || dst.agpr) return null;
      return new LaneFusion.LdsRead(addr.index, dst.index, (int) firstOffset(), (int) pairOffset1, dwords, two,
          false);
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      Lds lds = w.group.lds();
      int base = dst.base(w);
      int[] v = w.v;
      if (bytes == 4) {
        if (two) {
          readPairs(w, cx, lds, base, v);
        } else {
          readDwords(w, cx, lds, base, v);
        }
        return;
      }
      for (long m = w.exec(); m != 0; m &= m - 1) { // a byte or a short (every DS_READ2 is of dwords)
        int l = Long.numberOfTrailingZeros(m);
        int a = at(w, cx, l, offset0, bytes);
        int raw = bytes == 1 ? lds.load8(a) : lds.load16(a);
        int value = bytes == 1 ? (signed ? (byte) raw : raw & 0xff) : (signed ? (short) raw : raw & 0xffff);
        int old = v[base + l];
        v[base + l] = !d16 ? value : d16High ? (old & 0xffff) | (value << 16) : (old & 0xffff0000) | (value & 0xffff);
      }
      w.pc += size;
    }

    /**
     * A dword read by all 64 lanes (one address or a pair) when every address is dword-aligned and inside the
     * workgroup's LDS, as tiled kernels read: the word indices first (so that a destination overlapping the address
     * register changes nothing), then plain loads from the LDS words in loops without branches. Returns false,
     * having done nothing, in every other case, which the lane-by-lane paths handle and report.
     */
    private boolean wholeWave(Wave w, Ctx cx, Lds lds, int base, int[] v) {
      int[] words = lds.wordsIfPlain();
      if (words == null || !wordIndices(w, lds, cx.a)) return false;
      gather(words, cx.a, (int) (firstOffset() >>> 2), v, base);
      if (two) gather(words, cx.a, (int) (pairOffset1 >>> 2), v, base + dwords * Wave.LANES);
      w.pc += size;
      return true;
    }

    /**
     * Each lane's {@link #dwords} dwords from LDS word {@code word[l] + first} on, into the registers from
     * {@code base}. Lane by lane, each lane's words in one step: C1 does not unroll loops, so a loop per dword would
     * load a lane's index once per dword.
     */
    private void gather(int[] words, int[] word, int first, int[] v, int base) {
      switch (dwords) {
        case 1:
          for (int l = 0; l < Wave.LANES; l++) v[base + l] = words[word[l] + first];
          break;
        case 2:
          for (int l = 0; l < Wave.LANES; l++) {
            int x = word[l] + first;
            v[base + l] = words[x];
            v[base + Wave.LANES + l] = words[x + 1];
          }
          break;
        case 4:
          for (int l = 0; l < Wave.LANES; l++) {
            int x = word[l] + first;
            v[base + l] = words[x];
            v[base + Wave.LANES + l] = words[x + 1];
            v[base + 2 * Wave.LANES + l] = words[x + 2];
            v[base + 3 * Wave.LANES + l] = words[x + 3];
          }
          break;
        default:
          for (int k = 0; k < dwords; k++) {
            int o = base + k * Wave.LANES;
            int ik = first + k;
            for (int l = 0; l < Wave.LANES; l++) v[o + l] = words[word[l] + ik];
          }
      }
    }

    /**
     * ds_read_b32 … ds_read_b128, what tiled kernels live on: the address register, the bound and the offset are
     * read once rather than per lane. A lane out of bounds is reported by {@link #at}, as on the general path.
     */
    private void readDwords(Wave w, Ctx cx, Lds lds, int base, int[] v) throws DispatchException {
      if (w.exec() == -1L && wholeWave(w, cx, lds, base, v)) return;
      int ab = addr.vectorBase(w);
      long last = (long) lds.size() - 4L * dwords;
      for (long m = w.exec(); m != 0; m &= m - 1) {
        int l = Long.numberOfTrailingZeros(m);
        int a = checkedAt(w, cx, ab, l, last, 4 * dwords);
        for (int k = 0; k < dwords; k++) v[base + k * Wave.LANES + l] = lds.load32(a + 4 * k);
      }
      w.pc += size;
    }

    /**
     * ds_read2(st64)_b32/b64, as {@link #readDwords} does a single address: a lane's two addresses are read once
     * and tested against the bound together, then its dwords loaded (each lane's address is read before that lane's
     * results are written, as the general path does).
     */
    private void readPairs(Wave w, Ctx cx, Lds lds, int base, int[] v) throws DispatchException {
      if (w.exec() == -1L && wholeWave(w, cx, lds, base, v)) return;
      int ab = addr.vectorBase(w);
      long last = (long) lds.size() - 4L * dwords;
      int second = base + dwords * Wave.LANES;
      for (long m = w.exec(); m != 0; m &= m - 1) {
        int l = Long.numberOfTrailingZeros(m);
        long pair = pairAt(w, cx, ab, l, last, 4 * dwords);
        int a0 = (int) pair;
        int a1 = (int) (pair >>> 32);
        for (int k = 0; k < dwords; k++) {
          v[base + k * Wave.LANES + l] = lds.load32(a0 + 4 * k);
          v[second + k * Wave.LANES + l] = lds.load32(a1 + 4 * k);
        }
      }
      w.pc += size;
    }
  }

  static final class Write extends Access {
    private final int bytes;
    private final boolean high;
    private final Src data0;
    private final Src data1;

    Write(Instruction inst) {
      super(inst);
      String n = inst.operation().name();
      this.high = n.endsWith("_D16_HI");
      this.bytes = n.startsWith("DS_WRITE_B8") ? 1 : n.startsWith("DS_WRITE_B16") ? 2 : 4;
      this.data0 = Src.of(inst.operand(Slot.DATA0), 32);
      this.data1 = Src.of(inst.operand(Slot.DATA1), 32);
    }

    /**
     * What a fused run needs to make the same write ({@link LaneFusion}): null unless this writes whole dwords from
     * VGPRs to one VGPR address.
     */
    LaneFusion.LdsWrite fusible() {
      if (bytes != 4 || two || addr == null || addr.kind != Src.VGPR || data0 == null || data0.kind != Src.VGPR) {
        return null;
      }
      return new LaneFusion.LdsWrite(addr.index, data0.index, offset0, dwords, false);
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      Lds lds = w.group.lds();
      if (bytes == 4) {
        if (two) {
          writePairs(w, cx, lds);
        } else {
          writeDwords(w, cx, lds);
        }
        return;
      }
      for (long m = w.exec(); m != 0; m &= m - 1) { // a byte or a short (every DS_WRITE2 is of dwords)
        int l = Long.numberOfTrailingZeros(m);
        int a = at(w, cx, l, offset0, bytes);
        int value = data0.vectorDword(w, 0, l);
        if (high) value >>>= 16;
        if (bytes == 1) lds.store8(a, value);
        else lds.store16(a, value);
      }
      w.pc += size;
    }

    /** ds_write_b32 … ds_write_b128 with the per-lane work reduced to the address, the bound test and the stores. */
    private void writeDwords(Wave w, Ctx cx, Lds lds) throws DispatchException {
      if (w.exec() == -1L && wholeWave(w, cx, lds)) return;
      int[] v = w.v;
      int ab = addr.vectorBase(w);
      int db = data0.vectorBase(w);
      long last = (long) lds.size() - 4L * dwords;
      for (long m = w.exec(); m != 0; m &= m - 1) {
        int l = Long.numberOfTrailingZeros(m);
        int a = checkedAt(w, cx, ab, l, last, 4 * dwords);
        for (int k = 0; k < dwords; k++) lds.store32(a + 4 * k, v[db + k * Wave.LANES + l]);
      }
      w.pc += size;
    }

    /**
     * A dword write by every lane of the wave, each address aligned and inside the LDS ({@link #wordIndices}), to
     * LDS words that nothing watches: the word indices first, then plain stores, lane by lane in increasing order
     * as the lane paths go (where lanes write the same word the highest lane's data stays, and a two-address form
     * writes a lane's first element before its second). Returns false, having done nothing, in every other case.
     */
    private boolean wholeWave(Wave w, Ctx cx, Lds lds) {
      int[] words = lds.wordsIfPlain();
      int[] word = cx.a;
      if (words == null || !wordIndices(w, lds, word)) return false;
      int[] v = w.v;
      int d0 = data0.vectorBase(w);
      int first = (int) (firstOffset() >>> 2);
      if (!two && dwords == 1) {
        for (int l = 0; l < Wave.LANES; l++) words[word[l] + first] = v[d0 + l];
      } else {
        int d1 = two ? data1.vectorBase(w) : 0;
        int second = (int) (pairOffset1 >>> 2);
        for (int l = 0; l < Wave.LANES; l++) {
          int x = word[l] + first;
          for (int k = 0; k < dwords; k++) words[x + k] = v[d0 + k * Wave.LANES + l];
          if (two) {
            int y = word[l] + second;
            for (int k = 0; k < dwords; k++) words[y + k] = v[d1 + k * Wave.LANES + l];
          }
        }
      }
      w.pc += size;
      return true;
    }

    /** ds_write2(st64)_b32/b64 with a lane's two addresses tested together (see {@link Read#readPairs}). */
    private void writePairs(Wave w, Ctx cx, Lds lds) throws DispatchException {
      if (w.exec() == -1L && wholeWave(w, cx, lds)) return;
      int[] v = w.v;
      int ab = addr.vectorBase(w);
      int d0 = data0.vectorBase(w);
      int d1 = data1.vectorBase(w);
      long last = (long) lds.size() - 4L * dwords;
      for (long m = w.exec(); m != 0; m &= m - 1) {
        int l = Long.numberOfTrailingZeros(m);
        long pair = pairAt(w, cx, ab, l, last, 4 * dwords);
        int a0 = (int) pair;
        int a1 = (int) (pair >>> 32);
        for (int k = 0; k < dwords; k++) {
          lds.store32(a0 + 4 * k, v[d0 + k * Wave.LANES + l]);
          lds.store32(a1 + 4 * k, v[d1 + k * Wave.LANES + l]);
        }
      }
      w.pc += size;
    }
  }

  /** How a DS atomic computes the new value. */
  enum AtomicKind {
    ADD, SUB, RSUB, INC, DEC, SMIN, SMAX, UMIN, UMAX, AND, OR, XOR, MSKOR, SWAP, SWAP2, CMPST, CMPST_F, FMIN, FMAX,
    FADD, PK_ADD_F16, PK_ADD_BF16, WRAP;

    static AtomicKind of(String n) {
      String s = n.substring(3).replace("_RTN", "");
      if (s.startsWith("WRXCHG2")) return SWAP2;
      if (s.startsWith("WRXCHG")) return SWAP;
      if (s.startsWith("ADD_F")) return FADD;
      if (s.startsWith("ADD_")) return ADD;
      if (s.startsWith("SUB_")) return SUB;
      if (s.startsWith("RSUB_")) return RSUB;
      if (s.startsWith("INC_")) return INC;
      if (s.startsWith("DEC_")) return DEC;
      if (s.startsWith("MIN_I")) return SMIN;
      if (s.startsWith("MAX_I")) return SMAX;
      if (s.startsWith("MIN_U")) return UMIN;
      if (s.startsWith("MAX_U")) return UMAX;
      if (s.startsWith("MIN_F")) return FMIN;
      if (s.startsWith("MAX_F")) return FMAX;
      if (s.startsWith("AND_")) return AND;
      if (s.startsWith("OR_")) return OR;
      if (s.startsWith("XOR_")) return XOR;
      if (s.startsWith("MSKOR_")) return MSKOR;
      if (s.startsWith("CMPST_F")) return CMPST_F;
      if (s.startsWith("CMPST_")) return CMPST;
      if (s.startsWith("PK_ADD_F16")) return PK_ADD_F16;
      if (s.startsWith("PK_ADD_BF16")) return PK_ADD_BF16;
      if (s.startsWith("WRAP_")) return WRAP;
      return null;
    }
  }

  static final class Atomic extends Access {
    private final AtomicKind kind;
    private final boolean wide;
    private final Src data0;
    private final Src data1;
    private final Dst dst;

    Atomic(Instruction inst, AtomicKind kind) {
      super(inst);
      String n = inst.operation().name();
      this.kind = kind;
      this.wide = n.contains("64") && !n.contains("ST64") || n.endsWith("_F64") || n.contains("B64");
      this.data0 = Src.of(inst.operand(Slot.DATA0), 32);
      this.data1 = Src.of(inst.operand(Slot.DATA1), 32);
      this.dst = Dst.of(inst.vdst());
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      Lds lds = w.group.lds();
      int base = dst == null ? -1 : dst.base(w);
      for (long m = w.exec(); m != 0; m &= m - 1) {
        int l = Long.numberOfTrailingZeros(m);
        if (kind == AtomicKind.SWAP2) {
          int per = wide ? 2 : 1;
          int a0 = at(w, cx, l, pairOffset0, 4 * per);
          int a1 = at(w, cx, l, pairOffset1, 4 * per);
          for (int k = 0; k < per; k++) {
            int o0 = lds.load32(a0 + 4 * k);
            int o1 = lds.load32(a1 + 4 * k);
            lds.store32(a0 + 4 * k, data0.vectorDword(w, k, l));
            lds.store32(a1 + 4 * k, data1.vectorDword(w, k, l));
            if (base >= 0) {
              w.v[base + k * Wave.LANES + l] = o0;
              w.v[base + (per + k) * Wave.LANES + l] = o1;
            }
          }
          continue;
        }
        if (wide) {
          int a = at(w, cx, l, offset0, 8);
          long old = lds.load64(a);
          long x = dword64(w, data0, l);
          long y = data1 == null ? 0 : dword64(w, data1, l);
          lds.store64(a, apply64(old, x, y));
          if (base >= 0) {
            w.v[base + l] = (int) old;
            w.v[base + Wave.LANES + l] = (int) (old >>> 32);
          }
        } else {
          int a = at(w, cx, l, offset0, 4);
          int old = lds.load32(a);
          int x = data0.vectorDword(w, 0, l);
          int y = data1 == null ? 0 : data1.vectorDword(w, 0, l);
          lds.store32(a, apply32(old, x, y));
          if (base >= 0) w.v[base + l] = old;
        }
      }
      w.pc += size;
    }

    private static long dword64(Wave w, Src s, int lane) {
      return (s.vectorDword(w, 0, lane) & 0xffff_ffffL) | ((long) s.vectorDword(w, 1, lane) << 32);
    }

    private int apply32(int old, int x, int y) {
      switch (kind) {
        case RSUB: return x - old;
        case MSKOR: return (old & ~x) | y;
        case CMPST: return old == x ? y : old;
        case CMPST_F: return Float.intBitsToFloat(old) == Float.intBitsToFloat(x) ? y : old;
        case WRAP: return Integer.compareUnsigned(old, x) >= 0 ? old - x : old + y;
        default: return AtomicMath.apply32(atomicOp(), old, x, 0);
      }
    }

    private long apply64(long old, long x, long y) {
      switch (kind) {
        case RSUB: return x - old;
        case MSKOR: return (old & ~x) | y;
        case CMPST: return old == x ? y : old;
        case CMPST_F: return Double.longBitsToDouble(old) == Double.longBitsToDouble(x) ? y : old;
        default: return AtomicMath.apply64(atomicOp(), old, x, 0);
      }
    }

    private AtomicOp atomicOp() {
      switch (kind) {
        case ADD: return AtomicOp.ADD;
        case SUB: return AtomicOp.SUB;
        case INC: return AtomicOp.INC;
        case DEC: return AtomicOp.DEC;
        case SMIN: return AtomicOp.SMIN;
        case SMAX: return AtomicOp.SMAX;
        case UMIN: return AtomicOp.UMIN;
        case UMAX: return AtomicOp.UMAX;
        case AND: return AtomicOp.AND;
        case OR: return AtomicOp.OR;
        case XOR: return AtomicOp.XOR;
        case SWAP: return AtomicOp.SWAP;
        case FMIN: return AtomicOp.FMIN;
        case FMAX: return AtomicOp.FMAX;
        case FADD: return AtomicOp.FADD;
        case PK_ADD_F16: return AtomicOp.PK_FADD_F16;
        case PK_ADD_BF16: return AtomicOp.PK_FADD_BF16;
        default: throw new AssertionError(kind);
      }
    }
  }

  /** ds_swizzle_b32, ds_permute_b32, ds_bpermute_b32: lane exchanges through the LDS crossbar. */
  static final class Permute extends Access {
    private final Operation op;
    private final Src data;
    private final Dst dst;

    Permute(Instruction inst) {
      super(inst);
      this.op = inst.operation();
      this.data = Src.of(inst.operand(op == Operation.DS_SWIZZLE_B32 ? Slot.ADDR : Slot.DATA0), 32);
      this.dst = Dst.of(inst.vdst());
    }

    @Override
    public void execute(Wave w, Ctx cx) {
      long exec = w.exec();
      int dstReg = dst.base(w) / Wave.LANES;
      switch (op) {
        case DS_SWIZZLE_B32:
          LaneOps.swizzle(w.v, dstReg, data.vectorBase(w) / Wave.LANES, offset0, exec, cx.e);
          break;
        case DS_PERMUTE_B32:
          LaneOps.permute(w.v, dstReg, addr.vectorBase(w) / Wave.LANES, data.vectorBase(w) / Wave.LANES, offset0,
              exec, cx.e);
          break;
        default:
          LaneOps.bpermute(w.v, dstReg, addr.vectorBase(w) / Wave.LANES, data.vectorBase(w) / Wave.LANES, offset0,
              exec, cx.e);
      }
      w.pc += size;
    }
  }
}
