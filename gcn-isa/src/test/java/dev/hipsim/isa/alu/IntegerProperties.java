package dev.hipsim.isa.alu;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Integer VALU and SALU operations against reference models written from the guide's pseudocode in a different
 * style: BigInteger for the wide arithmetic, bit-by-bit loops for the bit operations.
 */
class IntegerProperties {
  static BigInteger u32(int a) {
    return BigInteger.valueOf(a & 0xffffffffL);
  }

  static BigInteger u64(long a) {
    return new BigInteger(Long.toUnsignedString(a));
  }

  static final BigInteger TWO64 = BigInteger.ONE.shiftLeft(64);

  @Property(tries = 3000)
  void addSubWithCarries(@ForAll int a, @ForAll int b, @ForAll boolean cin, @ForAll boolean clamp) {
    BigInteger sum = u32(a).add(u32(b)).add(cin ? BigInteger.ONE : BigInteger.ZERO);
    boolean carry = sum.bitLength() > 32;
    long r = IntOps.addc(a, b, cin, clamp);
    assertThat(IntOps.carry(r)).isEqualTo(carry);
    assertThat(IntOps.value(r)).isEqualTo(clamp && carry ? -1 : sum.intValue());
    BigInteger diff = u32(a).subtract(u32(b)).subtract(cin ? BigInteger.ONE : BigInteger.ZERO);
    long s = IntOps.subb(a, b, cin, clamp);
    assertThat(IntOps.carry(s)).isEqualTo(diff.signum() < 0);
    assertThat(IntOps.value(s)).isEqualTo(clamp && diff.signum() < 0 ? 0 : diff.intValue());
    long signed = (long) a + b;
    assertThat(IntOps.addI32(a, b, true)).isEqualTo((int) Math.max(Integer.MIN_VALUE,
        Math.min(Integer.MAX_VALUE, signed)));
    assertThat(IntOps.addU32(a, b, true)).isEqualTo(sum.subtract(cin ? BigInteger.ONE : BigInteger.ZERO)
        .bitLength() > 32 ? -1 : a + b);
    // SALU: S_ADD_U32/S_ADDC_U32 carry, S_ADD_I32/S_SUB_I32 signed overflow
    long sc = ScalarOps.addcU32(a, b, cin);
    assertThat(ScalarOps.scc(sc)).isEqualTo(carry);
    assertThat(ScalarOps.value(sc)).isEqualTo(sum.intValue());
    assertThat(ScalarOps.scc(ScalarOps.addI32(a, b))).isEqualTo(signed != (int) signed);
    long sd = (long) a - b;
    assertThat(ScalarOps.scc(ScalarOps.subI32(a, b))).isEqualTo(sd != (int) sd);
    assertThat(ScalarOps.scc(ScalarOps.subbU32(a, b, cin))).isEqualTo(diff.signum() < 0);
  }

  @Property(tries = 2000)
  void sixteenBitArithmetic(@ForAll short a, @ForAll short b, @ForAll short c, @ForAll boolean clamp) {
    int ua = a & 0xffff;
    int ub = b & 0xffff;
    int uc = c & 0xffff;
    assertThat(IntOps.addU16(a, b, clamp)).isEqualTo(clamp ? Math.min(ua + ub, 0xffff) : (ua + ub) & 0xffff);
    assertThat(IntOps.subU16(a, b, clamp)).isEqualTo(clamp ? Math.max(ua - ub, 0) : (ua - ub) & 0xffff);
    int si = a + b;
    assertThat(IntOps.addI16(a, b, clamp)).isEqualTo((clamp ? Math.max(-32768, Math.min(32767, si)) : si) & 0xffff);
    long mad = (long) ua * ub + uc;
    assertThat(IntOps.madU16(a, b, c, clamp)).isEqualTo((int) (clamp ? Math.min(mad, 0xffff) : mad & 0xffff));
    int madI = a * b + c;
    assertThat(IntOps.madI16(a, b, c, clamp)).isEqualTo((clamp ? Math.max(-32768, Math.min(32767, madI)) : madI)
        & 0xffff);
    assertThat(IntOps.lshlrevB16(c, a)).isEqualTo((ua << (uc & 15)) & 0xffff);
    assertThat(IntOps.ashrrevI16(c, a)).isEqualTo((a >> (uc & 15)) & 0xffff);
    assertThat(IntOps.madU32U16(a, b, 7)).isEqualTo(ua * ub + 7);
    assertThat(IntOps.madI32I16(a, b, 7)).isEqualTo(a * b + 7);
  }

  @Property(tries = 3000)
  void multiplies(@ForAll int a, @ForAll int b, @ForAll long c) {
    assertThat(IntOps.mulHiU32(a, b)).isEqualTo(u32(a).multiply(u32(b)).shiftRight(32).intValue());
    assertThat(IntOps.mulHiI32(a, b)).isEqualTo(BigInteger.valueOf(a).multiply(BigInteger.valueOf(b))
        .shiftRight(32).intValue());
    BigInteger a24 = BigInteger.valueOf((a << 8) >> 8);
    BigInteger b24 = BigInteger.valueOf((b << 8) >> 8);
    assertThat(IntOps.mulI32I24(a, b)).isEqualTo(a24.multiply(b24).intValue());
    assertThat(IntOps.mulHiI32I24(a, b)).isEqualTo(a24.multiply(b24).shiftRight(32).intValue());
    BigInteger ua24 = BigInteger.valueOf(a & 0xffffff);
    BigInteger ub24 = BigInteger.valueOf(b & 0xffffff);
    assertThat(IntOps.mulHiU32U24(a, b)).isEqualTo(ua24.multiply(ub24).shiftRight(32).intValue());
    BigInteger madU = u32(a).multiply(u32(b)).add(u64(c));
    assertThat(IntOps.madU64U32(a, b, c)).isEqualTo(madU.longValue());
    assertThat(IntOps.madU64U32Carry(a, b, c)).isEqualTo(madU.testBit(64));
    BigInteger madI = BigInteger.valueOf(a).multiply(BigInteger.valueOf(b)).add(BigInteger.valueOf(c));
    assertThat(IntOps.madI64I32(a, b, c)).isEqualTo(madI.longValue());
    // bit 64 of the 65-bit two's complement sum
    assertThat(IntOps.madI64I32Carry(a, b, c)).isEqualTo(madI.signum() < 0);
  }

  @Property(tries = 3000)
  void bitFields(@ForAll int a, @ForAll int off, @ForAll int width, @ForAll int c) {
    int o = off & 31;
    int w = width & 31;
    long field = 0;
    for (int i = 0; i < w && o + i < 32; i++) field |= (long) ((a >>> (o + i)) & 1) << i;
    assertThat(IntOps.bfeU32(a, off, width)).isEqualTo((int) field);
    int signed = 0;
    if (w > 0) {
      // signext_from_bit on the field as the guide builds it (arithmetic shift, then mask)
      int masked = (a >> o) & ((1 << w) - 1);
      signed = (masked >>> (w - 1) & 1) != 0 ? masked | (-1 << w) : masked;
    }
    assertThat(IntOps.bfeI32(a, off, width)).isEqualTo(signed);
    assertThat(IntOps.bfiB32(a, c, off)).isEqualTo((a & c) | (~a & off));
    assertThat(IntOps.bfmB32(width, off)).isEqualTo(((1 << w) - 1) << o);
    int rev = 0;
    for (int i = 0; i < 32; i++) rev |= ((a >>> i) & 1) << (31 - i);
    assertThat(IntOps.bfrevB32(a)).isEqualTo(rev);
    int ffbh = -1;
    for (int i = 0; i < 32; i++) {
      if ((a >>> (31 - i) & 1) != 0) {
        ffbh = i;
        break;
      }
    }
    assertThat(IntOps.ffbhU32(a)).isEqualTo(ffbh);
    int ffbhI = -1;
    for (int i = 1; i < 32; i++) {
      if ((a >>> (31 - i) & 1) != (a >>> 31 & 1)) {
        ffbhI = i;
        break;
      }
    }
    assertThat(IntOps.ffbhI32(a)).isEqualTo(ffbhI);
    assertThat(ScalarOps.flbitI32(a)).isEqualTo(ffbhI);
    long wide = (a & 0xffffffffL) << 32 | (c & 0xffffffffL);
    assertThat(IntOps.alignbit(a, c, off)).isEqualTo((int) (wide >>> o));
    assertThat(IntOps.alignbyte(a, c, off)).isEqualTo((int) (wide >>> (8 * (off & 3))));
    // S_BFE: offset S1[4:0], width S1[22:16]
    int sw = (width >>> 16) & 0x7f;
    long sfield = ((a & 0xffffffffL) >>> o) & (sw >= 32 ? 0xffffffffL : (1L << sw) - 1);
    assertThat(ScalarOps.bfeU32(a, (width & 0x7f0000) | o)).isEqualTo((int) sfield);
  }

  @Example
  void guideExamplesForBitCounts() {
    assertThat(IntOps.ffbhU32(0)).isEqualTo(-1);
    assertThat(IntOps.ffbhU32(0x800000ff)).isEqualTo(0);
    assertThat(IntOps.ffbhU32(0x100000ff)).isEqualTo(3);
    assertThat(IntOps.ffbhU32(0x0000ffff)).isEqualTo(16);
    assertThat(IntOps.ffbhU32(0x00000001)).isEqualTo(31);
    assertThat(IntOps.ffblB32(0)).isEqualTo(-1);
    assertThat(IntOps.ffblB32(0xff000001)).isEqualTo(0);
    assertThat(IntOps.ffblB32(0xff000008)).isEqualTo(3);
    assertThat(IntOps.ffblB32(0xffff0000)).isEqualTo(16);
    assertThat(IntOps.ffblB32(0x80000000)).isEqualTo(31);
    assertThat(IntOps.ffbhI32(0x00000000)).isEqualTo(-1);
    assertThat(IntOps.ffbhI32(0x40000000)).isEqualTo(1);
    assertThat(IntOps.ffbhI32(0x80000000)).isEqualTo(1);
    assertThat(IntOps.ffbhI32(0x0fffffff)).isEqualTo(4);
    assertThat(IntOps.ffbhI32(0xffff0000)).isEqualTo(16);
    assertThat(IntOps.ffbhI32(0xfffffffe)).isEqualTo(31);
    assertThat(IntOps.ffbhI32(0xffffffff)).isEqualTo(-1);
    assertThat(ScalarOps.ff0B32(-1)).isEqualTo(-1);
    assertThat(ScalarOps.ff0B32(0xfffffff7)).isEqualTo(3);
    assertThat(ScalarOps.ff1B64(0)).isEqualTo(-1);
    assertThat(ScalarOps.flbitB32(0)).isEqualTo(-1);
    assertThat(ScalarOps.flbitB64(1)).isEqualTo(63);
  }

  @Property(tries = 3000)
  void permSelectsBytes(@ForAll int hi, @ForAll int lo, @ForAll int sel) {
    byte[] in = new byte[8];
    for (int i = 0; i < 4; i++) {
      in[i] = (byte) (lo >>> (8 * i));
      in[i + 4] = (byte) (hi >>> (8 * i));
    }
    int expected = 0;
    for (int i = 0; i < 4; i++) {
      int s = (sel >>> (8 * i)) & 0xff;
      int b;
      if (s >= 13) {
        b = 0xff;
      } else if (s == 12) {
        b = 0;
      } else if (s == 11) {
        b = in[7] < 0 ? 0xff : 0;
      } else if (s == 10) {
        b = in[5] < 0 ? 0xff : 0;
      } else if (s == 9) {
        b = in[3] < 0 ? 0xff : 0;
      } else if (s == 8) {
        b = in[1] < 0 ? 0xff : 0;
      } else {
        b = in[s] & 0xff;
      }
      expected |= b << (8 * i);
    }
    assertThat(IntOps.permB32(hi, lo, sel)).isEqualTo(expected);
    // small selectors too
    int small = sel & 0x0f0f0f0f;
    assertThat(IntOps.permB32(hi, lo, small)).isEqualTo(IntOps.permB32(hi, lo, small));
  }

  @Property(tries = 2000)
  void sadAndLerp(@ForAll int a, @ForAll int b, @ForAll int c, @ForAll long wide, @ForAll long acc) {
    int sad = c;
    int msad = c;
    int lerp = 0;
    for (int i = 0; i < 4; i++) {
      int x = (a >>> (8 * i)) & 0xff;
      int y = (b >>> (8 * i)) & 0xff;
      sad += Math.abs(x - y);
      if (y != 0) msad += Math.abs(x - y);
      lerp |= ((x + y + ((c >>> (8 * i)) & 1)) >> 1) << (8 * i);
    }
    assertThat(IntOps.sadU8(a, b, c)).isEqualTo(sad);
    assertThat(IntOps.msadU8(a, b, c)).isEqualTo(msad);
    assertThat(IntOps.lerpU8(a, b, c)).isEqualTo(lerp);
    assertThat(IntOps.sadHiU8(a, b, c)).isEqualTo((IntOps.sadU8(a, b, 0) << 16) + c);
    assertThat(IntOps.sadU16(a, b, c)).isEqualTo(c + Math.abs((a & 0xffff) - (b & 0xffff))
        + Math.abs((a >>> 16) - (b >>> 16)));
    long q = IntOps.qsadPkU16U8(wide, b, acc);
    for (int i = 0; i < 4; i++) {
      int window = (int) (wide >>> (8 * i));
      int expected = IntOps.sadU8(window, b, (int) (acc >>> (16 * i)) & 0xffff) & 0xffff;
      assertThat((int) (q >>> (16 * i)) & 0xffff).isEqualTo(expected);
    }
    int[] acc4 = {1, 2, 3, 4};
    int[] out = new int[4];
    IntOps.mqsadU32U8(wide, b, acc4, out);
    assertThat(out[2]).isEqualTo(IntOps.msadU8((int) (wide >>> 16), b, 3));
  }

  @Property(tries = 2000)
  void minMaxMed3(@ForAll int a, @ForAll int b, @ForAll int c) {
    int[] s = {a, b, c};
    java.util.Arrays.sort(s);
    assertThat(IntOps.med3I32(a, b, c)).isEqualTo(s[1]);
    long[] u = {a & 0xffffffffL, b & 0xffffffffL, c & 0xffffffffL};
    java.util.Arrays.sort(u);
    assertThat(IntOps.med3U32(a, b, c) & 0xffffffffL).isEqualTo(u[1]);
    assertThat(IntOps.min3U32(a, b, c) & 0xffffffffL).isEqualTo(u[0]);
    assertThat(IntOps.max3I32(a, b, c)).isEqualTo(s[2]);
    short[] h = {(short) a, (short) b, (short) c};
    java.util.Arrays.sort(h);
    assertThat(IntOps.med3I16(a, b, c)).isEqualTo(h[1] & 0xffff);
    long smin = ScalarOps.minI32(a, b);
    assertThat(ScalarOps.value(smin)).isEqualTo(Math.min(a, b));
    assertThat(ScalarOps.scc(smin)).isEqualTo(a < b);
    assertThat(ScalarOps.scc(ScalarOps.maxU32(a, b))).isEqualTo(Integer.compareUnsigned(a, b) >= 0);
  }

  @Property(tries = 2000)
  void scalarBitOps(@ForAll long a, @ForAll int bit) {
    long wqm = 0;
    long quad = 0;
    for (int g = 0; g < 16; g++) {
      if (((a >>> (4 * g)) & 0xf) != 0) {
        wqm |= 0xfL << (4 * g);
        quad |= 1L << g;
      }
    }
    assertThat(ScalarOps.wqmB64(a)).isEqualTo(wqm);
    assertThat(ScalarOps.quadmaskB64(a)).isEqualTo(quad);
    assertThat(ScalarOps.quadmaskB32((int) a)).isEqualTo((int) (quad & 0xff));
    assertThat(ScalarOps.wqmB32((int) a)).isEqualTo((int) wqm);
    assertThat(ScalarOps.bitset1B64(a, bit)).isEqualTo(a | 1L << (bit & 63));
    assertThat(ScalarOps.bitset0B32((int) a, bit)).isEqualTo((int) a & ~(1 << (bit & 31)));
    assertThat(ScalarOps.bitcmp1B64(a, bit)).isEqualTo(((a >>> (bit & 63)) & 1) == 1);
    int d = (int) a - bit;
    assertThat(ScalarOps.absdiffI32((int) a, bit)).isEqualTo(d < 0 ? -d : d);
    long lshl = ScalarOps.lshlAddU32((int) a, 3, bit);
    BigInteger exact = u32((int) a).shiftLeft(3).add(u32(bit));
    assertThat(ScalarOps.value(lshl)).isEqualTo(exact.intValue());
    assertThat(ScalarOps.scc(lshl)).isEqualTo(exact.bitLength() > 32);
    assertThat(ScalarOps.bcnt1B64(a)).isEqualTo(Long.bitCount(a));
    assertThat(ScalarOps.bfeI64(a, (20 << 16) | 7)).isEqualTo((a << (64 - 27)) >> (64 - 20));
  }

  @Property(tries = 1000)
  void mbcntCountsLowerLanes(@ForAll long mask, @ForAll @IntRange(max = 63) int lane) {
    int lo = IntOps.mbcntLo((int) mask, 0, lane);
    int hi = IntOps.mbcntHi((int) (mask >>> 32), lo, lane);
    long below = lane == 0 ? 0 : mask & ((1L << lane) - 1);
    assertThat(hi).isEqualTo(Long.bitCount(below));
  }

  @Property(tries = 2000)
  void integerDots(@ForAll int a, @ForAll int b, @ForAll int c, @ForAll boolean clamp) {
    BigInteger s = BigInteger.valueOf(c);
    for (int i = 0; i < 4; i++) s = s.add(BigInteger.valueOf((byte) (a >>> (8 * i)) * (byte) (b >>> (8 * i))));
    assertThat(DotOps.dot4I32I8(a, b, c, clamp)).isEqualTo(clamp ? s.max(BigInteger.valueOf(Integer.MIN_VALUE))
        .min(BigInteger.valueOf(Integer.MAX_VALUE)).intValue() : s.intValue());
    BigInteger u = u32(c);
    for (int i = 0; i < 8; i++) u = u.add(BigInteger.valueOf(((a >>> (4 * i)) & 15) * ((b >>> (4 * i)) & 15)));
    assertThat(DotOps.dot8U32U4(a, b, c, clamp)).isEqualTo(clamp ? u.min(u32(-1)).intValue() : u.intValue());
    BigInteger s8 = BigInteger.valueOf(c);
    for (int i = 0; i < 8; i++) {
      s8 = s8.add(BigInteger.valueOf(((a << (28 - 4 * i)) >> 28) * ((b << (28 - 4 * i)) >> 28)));
    }
    assertThat(DotOps.dot8I32I4(a, b, c, false)).isEqualTo(s8.intValue());
    BigInteger s2 = BigInteger.valueOf(c).add(BigInteger.valueOf((short) a * (short) b))
        .add(BigInteger.valueOf((short) (a >>> 16) * (short) (b >>> 16)));
    assertThat(DotOps.dot2I32I16(a, b, c, false)).isEqualTo(s2.intValue());
  }

  @Example
  void compares() {
    assertThat(IntOps.cmpU32(IntOps.ICMP_LT, 1, -1)).isTrue();
    assertThat(IntOps.cmpI32(IntOps.ICMP_LT, 1, -1)).isFalse();
    assertThat(IntOps.cmpU16(IntOps.ICMP_GT, 0xffff, 1)).isTrue();
    assertThat(IntOps.cmpI16(IntOps.ICMP_GT, 0xffff, 1)).isFalse();
    assertThat(IntOps.cmpU64(IntOps.ICMP_GE, -1L, 5)).isTrue();
    for (int p = 0; p < 8; p++) {
      boolean[] expected = {false, false, true, true, false, false, true, true};
      assertThat(IntOps.cmpI64(p, 3, 3)).isEqualTo(expected[p]);
    }
  }
}
