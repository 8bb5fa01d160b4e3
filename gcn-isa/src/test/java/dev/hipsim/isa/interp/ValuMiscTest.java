package dev.hipsim.isa.interp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.fp.Fp8;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The rarer VALU operations, each against a model of its description: the quad SADs, the gfx940 FP8/BF8
 * conversions with their byte and half selects, the legacy exp/log, and v_clrexcp.
 */
class ValuMiscTest {
  static int msad(int a, int b, int c) {
    int s = c;
    for (int i = 0; i < 4; i++) {
      int ref = b >>> 8 * i & 0xff;
      if (ref != 0) s += Math.abs((a >>> 8 * i & 0xff) - ref);
    }
    return s;
  }

  static int sad(int a, int b, int c) {
    int s = c;
    for (int i = 0; i < 4; i++) s += Math.abs((a >>> 8 * i & 0xff) - (b >>> 8 * i & 0xff));
    return s;
  }

  @Test
  void quadSadsSlideAByteWindowOverTheFirstSource() throws Exception {
    for (Target t : new Target[] {Target.GFX90A, Target.GFX942}) {
      Machine m = new Machine(t);
      Random r = new Random(3);
      m.randomize(r, 16);
      m.snapshot();
      m.run(Enc.of(t, Format.VOP3, Operation.V_QSAD_PK_U16_U8).vdst(8).src0(256).src1(256 + 2).src2(256 + 4));
      m.run(Enc.of(t, Format.VOP3, Operation.V_MQSAD_PK_U16_U8).vdst(10).src0(256).src1(256 + 2).src2(256 + 4));
      m.run(Enc.of(t, Format.VOP3, Operation.V_MQSAD_U32_U8).vdst(12).src0(256).src1(256 + 2).src2(256 + 4));
      for (int l = 0; l < 64; l++) {
        long a = m.before64(0, l);
        int b = m.before(2, l);
        long c = m.before64(4, l);
        long q = 0;
        long mq = 0;
        for (int i = 0; i < 4; i++) {
          int window = (int) (a >>> 8 * i);
          int acc = (int) (c >>> 16 * i) & 0xffff;
          q |= (long) (sad(window, b, acc) & 0xffff) << 16 * i;
          mq |= (long) (msad(window, b, acc) & 0xffff) << 16 * i;
          assertThat(m.v(12 + i, l)).isEqualTo(msad(window, b, m.before(4 + i, l)));
        }
        assertThat(m.v64(8, l)).isEqualTo(q);
        assertThat(m.v64(10, l)).isEqualTo(mq);
      }
    }
  }

  @Test
  void fp8ConversionsSelectBytesAndHalves() throws Exception {
    Target t = Target.GFX942;
    Machine m = new Machine(t);
    Random r = new Random(5);
    m.randomize(r, 16);
    for (int l = 0; l < 64; l++) {
      m.setV(1, l, Vals.f32(r));
      m.setV(2, l, Vals.f32(r));
    }
    m.snapshot();
    // The VOP1/VOP3 forms convert byte 0 (v_cvt_f32_fp8) and word 0 (v_cvt_pk_f32_bf8). (Their SDWA forms, which
    // select other bytes, are not in the decoder's tables yet.)
    m.run(Enc.of(t, Format.VOP1, Operation.V_CVT_F32_FP8).vdst(4).src0(256 + 3));
    m.run(Enc.of(t, Format.VOP3, Operation.V_CVT_PK_F32_BF8).vdst(6).src0(256 + 3));
    // v_cvt_pk_fp8_f32 with op_sel[3] writes the high half; v_cvt_sr_bf8_f32 with op_sel[3:2] = 3 byte 3.
    m.run(Enc.of(t, Format.VOP3, Operation.V_CVT_PK_FP8_F32).vdst(8).src0(256 + 1).src1(256 + 2).opSel(8));
    m.run(Enc.of(t, Format.VOP3, Operation.V_CVT_SR_BF8_F32).vdst(9).src0(256 + 1).src1(256 + 2).opSel(12));
    for (int l = 0; l < 64; l++) {
      int x = m.before(3, l);
      assertThat(m.v(4, l)).isEqualTo(Fp8.fp8ToF32(x & 0xff));
      assertThat(m.v(6, l)).isEqualTo(Fp8.bf8ToF32(x & 0xff));
      assertThat(m.v(7, l)).isEqualTo(Fp8.bf8ToF32(x >>> 8 & 0xff));
      int pair = Fp8.f32ToFp8(m.before(2, l), false) << 8 | Fp8.f32ToFp8(m.before(1, l), false);
      assertThat(m.v(8, l)).isEqualTo(m.before(8, l) & 0xffff | pair << 16);
      // Stochastic rounding adds S1[31:11] to the mantissa before a nearest-even conversion.
      int src = m.before(1, l);
      int noisy = (src & 0x7fffffff) >= 0x7f800000 ? src
          : src & 0xff800000 | (src + (m.before(2, l) >>> 11)) & 0x7fffff;
      assertThat(m.v(9, l)).isEqualTo(m.before(9, l) & 0x00ffffff | Fp8.f32ToBf8(noisy, false) << 24);
    }
  }

  @Test
  void legacyExpAndLog() throws Exception {
    Target t = Target.GFX90A;
    Machine m = new Machine(t);
    m.randomize(new Random(1), 8);
    float[] in = {-127.0f, -126.0f, 1.0f, -2.0f, 0.0f, 1e-40f, 8.0f};
    for (int l = 0; l < in.length; l++) m.setV(1, l, Float.floatToRawIntBits(in[l]));
    m.run(Enc.of(t, Format.VOP1, Operation.V_EXP_LEGACY_F32).vdst(2).src0(256 + 1));
    m.run(Enc.of(t, Format.VOP1, Operation.V_LOG_LEGACY_F32).vdst(3).src0(256 + 1));
    assertThat(Float.intBitsToFloat(m.v(2, 0))).isEqualTo(0.0f); // below -126: 0
    assertThat(Float.intBitsToFloat(m.v(2, 1))).isEqualTo((float) Math.pow(2, -126));
    assertThat(Float.intBitsToFloat(m.v(2, 6))).isEqualTo(256.0f);
    assertThat(m.v(3, 2)).isZero(); // log(1) = +0
    assertThat(m.v(3, 3)).isEqualTo(0xffc00000); // negative: the default NaN
    assertThat(Float.intBitsToFloat(m.v(3, 5))).isEqualTo(Float.NEGATIVE_INFINITY); // denormal flushed: log(0)
    assertThat(Float.intBitsToFloat(m.v(3, 6))).isEqualTo(3.0f);
  }

  @Test
  void clrexcpClearsTheExceptionBits() throws Exception {
    Machine m = new Machine(Target.GFX90A);
    m.w.trapsts = 0x1234_5fff;
    m.run(Enc.of(Target.GFX90A, Format.VOP1, Operation.V_CLREXCP));
    assertThat(m.w.trapsts).isEqualTo(0x1234_5e00);
  }
}
