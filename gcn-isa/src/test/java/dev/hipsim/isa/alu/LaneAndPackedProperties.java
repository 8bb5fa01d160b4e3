package dev.hipsim.isa.alu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.fp.Dyadic;
import dev.hipsim.isa.fp.FpGen;
import dev.hipsim.isa.fp.FpMode;
import dev.hipsim.isa.fp.RefFloat;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** DPP, SDWA, swizzle/permute/readlane, and the VOP3P packed, dot and mix instructions. */
class LaneAndPackedProperties {
  // ---- DPP

  /** Every defined DPP_CTRL value of gfx90a/gfx942. */
  @Provide
  Arbitrary<Integer> dppControls() {
    return Arbitraries.oneOf(Arbitraries.integers().between(0, 0xff), Arbitraries.integers().between(0x101, 0x10f),
        Arbitraries.integers().between(0x111, 0x11f), Arbitraries.integers().between(0x121, 0x12f),
        Arbitraries.of(0x130, 0x134, 0x138, 0x13c, 0x140, 0x141, 0x142, 0x143),
        Arbitraries.integers().between(0x150, 0x15f));
  }

  /** Source lane per the DPP_CTRL table, written as (row, position) arithmetic; -1 when out of range. */
  static int refSource(int ctrl, int lane) {
    int row = lane / 16;
    int pos = lane % 16;
    if (ctrl < 0x100) {
      int quad = lane / 4;
      int sel = (ctrl >> (2 * (lane % 4))) & 3;
      return quad * 4 + sel;
    }
    if (ctrl > 0x100 && ctrl < 0x110) return pos + (ctrl - 0x100) < 16 ? lane + (ctrl - 0x100) : -1;
    if (ctrl > 0x110 && ctrl < 0x120) return pos - (ctrl - 0x110) >= 0 ? lane - (ctrl - 0x110) : -1;
    if (ctrl > 0x120 && ctrl < 0x130) return row * 16 + Math.floorMod(pos - (ctrl - 0x120), 16);
    if (ctrl >= 0x150 && ctrl < 0x160) return row * 16 + (ctrl - 0x150);
    switch (ctrl) {
      case 0x130:
        return lane == 63 ? -1 : lane + 1;
      case 0x134:
        return (lane + 1) % 64;
      case 0x138:
        return lane == 0 ? -1 : lane - 1;
      case 0x13c:
        return (lane + 63) % 64;
      case 0x140:
        return row * 16 + 15 - pos;
      case 0x141:
        return (lane / 8) * 8 + 7 - lane % 8;
      case 0x142:
        return row == 0 ? -1 : row * 16 - 1;
      default:
        return lane < 32 ? -1 : 31;
    }
  }

  @Property(tries = 2000)
  void dppGatherFollowsTheControlTable(@ForAll("dppControls") int ctrl, @ForAll long exec,
      @ForAll @IntRange(max = 15) int rowMask, @ForAll @IntRange(max = 15) int bankMask, @ForAll boolean bound,
      @ForAll long seed) {
    int[] regs = new int[8 * 64];
    Random rnd = new Random(seed);
    for (int i = 0; i < regs.length; i++) regs[i] = rnd.nextInt();
    int[] out = new int[64];
    long written = Dpp.gather(regs, 3, ctrl, rowMask, bankMask, bound, exec, out);
    long[] out64 = new long[64];
    long written64 = Dpp.gather64(regs, 3, ctrl, rowMask, bankMask, bound, exec, out64);
    assertThat(written64).isEqualTo(written);
    for (int lane = 0; lane < 64; lane++) {
      int src = refSource(ctrl, lane);
      assertThat(Dpp.sourceLane(ctrl, lane)).isEqualTo(src);
      boolean valid = src >= 0 && ((exec >>> src) & 1) == 1;
      assertThat(out[lane]).isEqualTo(valid ? regs[3 * 64 + src] : 0);
      long expected64 = valid ? (regs[3 * 64 + src] & 0xffffffffL) | (long) regs[4 * 64 + src] << 32 : 0;
      assertThat(out64[lane]).isEqualTo(expected64);
      boolean enabled = ((rowMask >> (lane / 16)) & 1) == 1 && ((bankMask >> ((lane % 16) / 4)) & 1) == 1;
      boolean write = ((exec >>> lane) & 1) == 1 && enabled && (valid || bound);
      assertThat(((written >>> lane) & 1) == 1).as("ctrl %x lane %d", ctrl, lane).isEqualTo(write);
    }
    assertThat(Dpp.isLegal(ctrl, true, false)).isTrue();
  }

  @Example
  void dppExamples() {
    assertThat(Dpp.sourceLane(0x1b, 0)).isEqualTo(3); // quad_perm:[3,2,1,0]
    assertThat(Dpp.sourceLane(Dpp.ROW_SHR_FIRST, 17)).isEqualTo(16);
    assertThat(Dpp.sourceLane(Dpp.ROW_SHR_FIRST, 16)).isEqualTo(-1);
    assertThat(Dpp.sourceLane(Dpp.ROW_BCAST15, 40)).isEqualTo(31);
    assertThat(Dpp.sourceLane(Dpp.ROW_BCAST31, 40)).isEqualTo(31);
    assertThat(Dpp.sourceLane(Dpp.ROW_MIRROR, 16)).isEqualTo(31);
    assertThat(Dpp.sourceLane(Dpp.WAVE_ROR1, 0)).isEqualTo(63);
    assertThat(Dpp.sourceLane(0x151, 37)).isEqualTo(33); // row_newbcast:1
    assertThat(Dpp.isLegal(0x151, false, false)).isFalse(); // gfx90a+ only
    assertThat(Dpp.isLegal(0x111, true, true)).isFalse(); // DP ALU accepts only row_newbcast
    assertThat(Dpp.isLegal(0x13f, true, false)).isFalse();
  }

  // ---- SDWA

  @Property(tries = 2000)
  void sdwaSelectAndMerge(@ForAll int v, @ForAll int old, @ForAll @IntRange(max = 6) int sel,
      @ForAll boolean sext, @ForAll @IntRange(max = 2) int unused) {
    int lo = sel <= 3 ? 8 * sel : sel == 5 ? 16 : 0;
    int width = sel <= 3 ? 8 : sel <= 5 ? 16 : 32;
    long field = ((v & 0xffffffffL) >>> lo) & ((1L << width) - 1);
    int expected = (int) field;
    if (sext && width < 32 && ((field >>> (width - 1)) & 1) == 1) expected |= -1 << width;
    assertThat(Sdwa.select(v, sel, sext)).isEqualTo(expected);
    int merged = Sdwa.merge(v, old, sel, unused);
    for (int bit = 0; bit < 32; bit++) {
      int got = (merged >>> bit) & 1;
      int want;
      if (width == 32) {
        want = (v >>> bit) & 1;
      } else if (bit >= lo && bit < lo + width) {
        want = (v >>> (bit - lo)) & 1;
      } else if (unused == Sdwa.UNUSED_PRESERVE) {
        want = (old >>> bit) & 1;
      } else if (unused == Sdwa.UNUSED_SEXT && bit >= lo + width) {
        want = (v >>> (width - 1)) & 1;
      } else {
        want = 0;
      }
      assertThat(got).as("bit %d sel %d unused %d", bit, sel, unused).isEqualTo(want);
    }
  }

  // ---- lane operations

  static int refSwizzle(int offset, int i) {
    if (offset >= 0xe000) {
      int mask = offset & 31;
      int j = 0;
      for (int b = 0; b < 5; b++) j |= ((i >> b) & 1) << (4 - b);
      j >>= Integer.bitCount(mask);
      j |= i & mask;
      return j | (i & 32);
    }
    if (offset >= 0xc000) {
      int rotate = (offset >> 5) & 31;
      int mask = offset & 31;
      if ((offset & 0x400) != 0) rotate = -rotate;
      return (((i & mask) | ((i + rotate) & ~mask)) & 31) | (i & 32);
    }
    if ((offset & 0x8000) != 0) return (i & ~3) + ((offset >> (2 * (i & 3))) & 3);
    int and = offset & 31;
    int or = (offset >> 5) & 31;
    int xor = (offset >> 10) & 31;
    return ((((i & 31) & and) | or) ^ xor) | (i & 32);
  }

  @Property(tries = 1000)
  void swizzleFollowsThePseudocode(@ForAll @IntRange(max = 0xffff) int offset, @ForAll long exec,
      @ForAll long seed) {
    int[] regs = new int[4 * 64];
    Random rnd = new Random(seed);
    for (int i = 0; i < regs.length; i++) regs[i] = rnd.nextInt();
    int[] before = regs.clone();
    LaneOps.swizzle(regs, 1, 1, offset, exec, new int[64]);
    for (int lane = 0; lane < 64; lane++) {
      int j = refSwizzle(offset, lane);
      int expected = ((exec >>> lane) & 1) == 0 ? before[64 + lane] : ((exec >>> j) & 1) == 1 ? before[64 + j] : 0;
      assertThat(regs[64 + lane]).as("offset %x lane %d", offset, lane).isEqualTo(expected);
    }
  }

  @Example
  void swizzleNamedPatterns() {
    // SWAPX16: xor 0x10, and 0x1f; BCASTX8 of thread 3: or 3, and 0x18; quad perm [1,0,3,2]
    assertThat(LaneOps.swizzleSource(0x10 << 10 | 0x1f, 5)).isEqualTo(21);
    assertThat(LaneOps.swizzleSource(3 << 5 | 0x18, 13)).isEqualTo(11);
    assertThat(LaneOps.swizzleSource(0x8000 | 0xb1, 6)).isEqualTo(7);
    assertThat(LaneOps.swizzleSource(0x8000 | 0xb1, 33)).isEqualTo(32);
  }

  /** The guide's 4-lane examples for DS_PERMUTE_B32 and DS_BPERMUTE_B32, in a 64-lane wave. */
  @Example
  void permuteExamplesFromTheGuide() {
    int a = 0xa;
    int b = 0xb;
    int c = 0xc;
    int d = 0xd;
    for (long exec : new long[] {0xf, 0xa}) {
      int[] regs = new int[3 * 64];
      int[] data = {a, b, c, d};
      int[] addr = {0, 0, 12, 4};
      for (int i = 0; i < 4; i++) {
        regs[i] = data[i];
        regs[64 + i] = addr[i];
        regs[128 + i] = -1;
      }
      int[] perm = regs.clone();
      LaneOps.permute(perm, 2, 1, 0, 0, exec, new int[64]);
      int[] bperm = regs.clone();
      LaneOps.bpermute(bperm, 2, 1, 0, 0, exec, new int[64]);
      int[] p = java.util.Arrays.copyOfRange(perm, 128, 132);
      int[] q = java.util.Arrays.copyOfRange(bperm, 128, 132);
      if (exec == 0xf) {
        assertThat(p).containsExactly(b, d, 0, c);
        assertThat(q).containsExactly(a, a, d, b);
      } else {
        assertThat(p).containsExactly(-1, d, -1, 0);
        assertThat(q).containsExactly(-1, 0, -1, b);
      }
    }
  }

  @Example
  void readAndWriteLanes() {
    int[] regs = new int[2 * 64];
    for (int i = 0; i < 64; i++) regs[64 + i] = 100 + i;
    assertThat(LaneOps.readlane(regs, 1, 70)).isEqualTo(106); // lane select is S1[5:0]
    assertThat(LaneOps.readfirstlane(regs, 1, 0)).isEqualTo(100);
    assertThat(LaneOps.readfirstlane(regs, 1, 0xf0L << 32)).isEqualTo(136);
    LaneOps.writelane(regs, 1, 63, 7);
    assertThat(regs[127]).isEqualTo(7);
  }

  // ---- packed math

  @Provide
  Arbitrary<int[]> packed() {
    Arbitrary<Integer> half = FpGen.bits(0).map(Long::intValue);
    Arbitrary<Integer> word = Combinators.combine(half, half).as((l, h) -> h << 16 | l);
    return Combinators.combine(word, word, word, Arbitraries.integers().between(0, 7),
        Arbitraries.integers().between(0, 7), Arbitraries.integers().between(0, 7),
        Arbitraries.integers().between(0, 7), FpGen.modes())
        .as((a, b, c, os, osh, nl, nh, m) -> new int[] {a, b, c, os, osh, nl, nh, m});
  }

  static int pick(int src, int i, int sel) {
    return ((sel >> i) & 1) == 1 ? src >>> 16 : src & 0xffff;
  }

  @Property(tries = 2000)
  void packedF16OpsApplyOpSelAndNegPerHalf(@ForAll("packed") int[] t, @ForAll @IntRange(min = 14, max = 16) int op) {
    int m = t[7];
    int r = PackedOps.pk16(op, t[0], t[1], t[2], t[3], t[4], t[5], t[6], false, m);
    for (int h = 0; h < 2; h++) {
      int sel = h == 0 ? t[3] : t[4];
      int neg = h == 0 ? t[5] : t[6];
      long a = pick(t[0], 0, sel) ^ ((neg & 1) << 15);
      long b = pick(t[1], 1, sel) ^ (((neg >> 1) & 1) << 15);
      long c = pick(t[2], 2, sel) ^ (((neg >> 2) & 1) << 15);
      long expected = op == 14 ? RefFloat.fma(0, a, b, c, m) : op == 15 ? RefFloat.add(0, a, b, m)
          : RefFloat.mul(0, a, b, m);
      assertThat((r >>> (16 * h)) & 0xffff).as("op %d half %d", op, h).isEqualTo((int) expected);
    }
  }

  @Property(tries = 1000)
  void packedIntegerOps(@ForAll int a, @ForAll int b, @ForAll int c, @ForAll @IntRange(max = 13) int op,
      @ForAll boolean clamp) {
    int r = PackedOps.pk16(op, a, b, c, 0, 7, 0, 0, clamp, FpMode.DEFAULT);
    for (int h = 0; h < 2; h++) {
      int x = h == 0 ? a & 0xffff : a >>> 16;
      int y = h == 0 ? b & 0xffff : b >>> 16;
      int z = h == 0 ? c & 0xffff : c >>> 16;
      int expected;
      switch (op) {
        case 0:
          expected = IntOps.madI16(x, y, z, clamp);
          break;
        case 1:
          expected = IntOps.mulLoU16(x, y, clamp);
          break;
        case 2:
          expected = IntOps.addI16(x, y, clamp);
          break;
        case 3:
          expected = IntOps.subI16(x, y, clamp);
          break;
        case 4:
          expected = (y << (x & 15)) & 0xffff;
          break;
        case 5:
          expected = y >>> (x & 15);
          break;
        case 6:
          expected = ((short) y >> (x & 15)) & 0xffff;
          break;
        case 7:
          expected = Math.max((short) x, (short) y) & 0xffff;
          break;
        case 8:
          expected = Math.min((short) x, (short) y) & 0xffff;
          break;
        case 9:
          expected = IntOps.madU16(x, y, z, clamp);
          break;
        case 10:
          expected = clamp ? Math.min(x + y, 0xffff) : (x + y) & 0xffff;
          break;
        case 11:
          expected = clamp ? Math.max(x - y, 0) : (x - y) & 0xffff;
          break;
        case 12:
          expected = Math.max(x, y);
          break;
        default:
          expected = Math.min(x, y);
      }
      assertThat((r >>> (16 * h)) & 0xffff).as("op %d half %d", op, h).isEqualTo(expected);
    }
  }

  @Property(tries = 2000)
  void packedF32SelectsDwords(@ForAll long s0, @ForAll long s1, @ForAll long s2, @ForAll @IntRange(max = 7) int sel,
      @ForAll @IntRange(max = 7) int selHi, @ForAll @IntRange(max = 7) int negLo, @ForAll @IntRange(max = 7) int negHi,
      @ForAll @IntRange(min = 48, max = 50) int op) {
    int m = FpMode.DEFAULT;
    long r = PackedOps.pkF32(op, s0, s1, s2, sel, selHi, negLo, negHi, false, m);
    long[] src = {s0, s1, s2};
    for (int h = 0; h < 2; h++) {
      int s = h == 0 ? sel : selHi;
      int neg = h == 0 ? negLo : negHi;
      long[] v = new long[3];
      for (int i = 0; i < 3; i++) {
        v[i] = (((s >> i) & 1) == 1 ? src[i] >>> 32 : src[i] & 0xffffffffL) ^ (((neg >> i) & 1L) << 31);
      }
      long expected = op == 48 ? RefFloat.fma(2, v[0], v[1], v[2], m) : op == 49 ? RefFloat.mul(2, v[0], v[1], m)
          : RefFloat.add(2, v[0], v[1], m);
      assertThat((r >>> (32 * h)) & 0xffffffffL).isEqualTo(expected);
    }
    long mov = PackedOps.pkMovB32(s0, s1, sel);
    assertThat(mov & 0xffffffffL).isEqualTo((sel & 1) != 0 ? s0 >>> 32 : s0 & 0xffffffffL);
    assertThat(mov >>> 32).isEqualTo((sel & 2) != 0 ? s1 >>> 32 : s1 & 0xffffffffL);
  }

  /** V_FMA_MIX: each operand f32 or a selected f16, NEG_HI as ABS, one fused rounding to the result type. */
  @Property(tries = 2000)
  void fmaMixRoundsOnce(@ForAll("packed") int[] t, @ForAll int f32a, @ForAll boolean clamp) {
    int m = t[7];
    int[] src = {f32a, t[1], t[2]};
    int opSel = t[3];
    int opSelHi = t[4];
    int neg = t[5];
    int abs = t[6];
    long[] v = new long[3];
    for (int i = 0; i < 3; i++) {
      long x;
      if (((opSelHi >> i) & 1) == 0) {
        x = src[i] & 0xffffffffL;
      } else {
        int h = ((opSel >> i) & 1) == 1 ? src[i] >>> 16 : src[i] & 0xffff;
        x = RefFloat.convert(0, h, 2, m);
      }
      if (((abs >> i) & 1) == 1) x &= 0x7fffffffL;
      if (((neg >> i) & 1) == 1) x ^= 0x80000000L;
      v[i] = x;
    }
    long f32 = RefFloat.fma(2, v[0], v[1], v[2], m);
    int gotF32 = PackedOps.fmaMixF32(src[0], src[1], src[2], opSel, opSelHi, neg, abs, false, m);
    assertThat(gotF32 & 0xffffffffL).isEqualTo(f32);
    long f16 = refFmaToHalf(v, m);
    int lo = PackedOps.fmaMixLo(src[0], src[1], src[2], opSel, opSelHi, neg, abs, false, 0x12345678, m);
    assertThat(lo & 0xffff).as("mix to f16, mode %x", m).isEqualTo((int) f16);
    assertThat(lo >>> 16).isEqualTo(0x1234);
    int hi = PackedOps.fmaMixHi(src[0], src[1], src[2], opSel, opSelHi, neg, abs, false, 0x12345678, m);
    assertThat(hi >>> 16).isEqualTo((int) f16);
    assertThat(hi & 0xffff).isEqualTo(0x5678);
  }

  /** fma of f32 operands with one rounding to f16, from the exact value (f32 inputs flushed per f32 MODE). */
  static long refFmaToHalf(long[] v, int m) {
    long a = RefFloat.in(2, v[0], m);
    long b = RefFloat.in(2, v[1], m);
    long c = RefFloat.in(2, v[2], m);
    boolean zeroA = (a & 0x7fffffffL) == 0;
    boolean zeroB = (b & 0x7fffffffL) == 0;
    if ((RefFloat.isInf(2, a) && zeroB) || (RefFloat.isInf(2, b) && zeroA)) return 0xfe00;
    for (long x : new long[] {a, b, c}) {
      if (RefFloat.isNaN(2, x)) return RefFloat.convert(2, x, 0, m);
    }
    boolean negP = RefFloat.isNeg(2, a) != RefFloat.isNeg(2, b);
    if (RefFloat.isInf(2, a) || RefFloat.isInf(2, b)) {
      if (RefFloat.isInf(2, c) && RefFloat.isNeg(2, c) != negP) return 0xfe00;
      return negP ? 0xfc00 : 0x7c00;
    }
    if (RefFloat.isInf(2, c)) return RefFloat.isNeg(2, c) ? 0xfc00 : 0x7c00;
    Dyadic exact = RefFloat.value(2, a).multiply(RefFloat.value(2, b)).add(RefFloat.value(2, c));
    boolean zeroNeg = (zeroA || zeroB) && (c & 0x7fffffffL) == 0 && negP == RefFloat.isNeg(2, c) ? negP
        : RefFloat.rm(m, 0) == RefFloat.RDN;
    return RefFloat.result(0, exact, zeroNeg, m);
  }

  /** V_DOT2_F32_F16: (S2 + p0) + p1 in f32, nearest even, every denormal flushed. */
  @Property(tries = 2000)
  void dot2F32F16(@ForAll("packed") int[] t, @ForAll int c) {
    int flushAll = FpMode.DEFAULT & ~0x33; // f32: nearest even, flush in and out
    long[] h = new long[4];
    for (int i = 0; i < 4; i++) {
      int x = i < 2 ? (i == 0 ? t[0] & 0xffff : t[0] >>> 16) : (i == 2 ? t[1] & 0xffff : t[1] >>> 16);
      x = (x & 0x7c00) == 0 ? x & 0x8000 : x;
      h[i] = RefFloat.convert(0, x, 2, FpMode.DEFAULT);
    }
    long p0 = RefFloat.mul(2, h[0], h[2], flushAll);
    long p1 = RefFloat.mul(2, h[1], h[3], flushAll);
    long expected = RefFloat.add(2, RefFloat.add(2, c & 0xffffffffL, p0, flushAll), p1, flushAll);
    assertThat(DotOps.dot2F32F16(t[0], t[1], c, 0, 0, false, FpMode.DEFAULT) & 0xffffffffL).isEqualTo(expected);
  }
}
