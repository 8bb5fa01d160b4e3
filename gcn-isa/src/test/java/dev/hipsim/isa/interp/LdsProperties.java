package dev.hipsim.isa.interp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.dispatch.WaveFault;
import dev.hipsim.isa.exec.Lds;
import dev.hipsim.isa.exec.Wave;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * DS instructions against a byte-array model of LDS written from the guide's descriptions: reads and writes of
 * every width (one and two addresses, stride 64, d16 halves), the integer atomics with and without return (lanes
 * applied in order), the two-address exchanges, and the wave-level ones (append/consume, addtid, condxchg).
 */
class LdsProperties {
  static final int LDS = 8192;

  @Provide
  Arbitrary<Operation> dsOps() {
    return Arbitraries.of(List.of(Operation.DS_WRITE_B8, Operation.DS_WRITE_B16, Operation.DS_WRITE_B32,
        Operation.DS_WRITE_B64, Operation.DS_WRITE_B96, Operation.DS_WRITE_B128, Operation.DS_WRITE_B8_D16_HI,
        Operation.DS_WRITE_B16_D16_HI, Operation.DS_WRITE2_B32, Operation.DS_WRITE2ST64_B32, Operation.DS_WRITE2_B64,
        Operation.DS_WRITE2ST64_B64, Operation.DS_READ_U8, Operation.DS_READ_I8, Operation.DS_READ_U16,
        Operation.DS_READ_I16, Operation.DS_READ_B32, Operation.DS_READ_B64, Operation.DS_READ_B96,
        Operation.DS_READ_B128, Operation.DS_READ2_B32, Operation.DS_READ2ST64_B32, Operation.DS_READ2_B64,
        Operation.DS_READ2ST64_B64, Operation.DS_READ_U8_D16, Operation.DS_READ_U8_D16_HI, Operation.DS_READ_I8_D16,
        Operation.DS_READ_I8_D16_HI, Operation.DS_READ_U16_D16, Operation.DS_READ_U16_D16_HI, Operation.DS_ADD_U32,
        Operation.DS_SUB_RTN_U32, Operation.DS_RSUB_U32, Operation.DS_INC_RTN_U32, Operation.DS_DEC_U32,
        Operation.DS_MIN_RTN_I32, Operation.DS_MAX_I32, Operation.DS_MIN_U32, Operation.DS_MAX_RTN_U32,
        Operation.DS_AND_B32, Operation.DS_OR_RTN_B32, Operation.DS_XOR_B32, Operation.DS_MSKOR_RTN_B32,
        Operation.DS_WRXCHG_RTN_B32, Operation.DS_CMPST_RTN_B32, Operation.DS_CMPST_F32, Operation.DS_WRAP_RTN_B32,
        Operation.DS_ADD_RTN_U64, Operation.DS_SUB_U64, Operation.DS_MIN_RTN_I64, Operation.DS_MAX_U64,
        Operation.DS_AND_RTN_B64, Operation.DS_INC_U64, Operation.DS_MSKOR_B64, Operation.DS_WRXCHG_RTN_B64,
        Operation.DS_CMPST_RTN_B64, Operation.DS_WRXCHG2_RTN_B32, Operation.DS_WRXCHG2ST64_RTN_B64,
        Operation.DS_CONDXCHG32_RTN_B64));
  }

  @Provide
  Arbitrary<Target> targets() {
    return Arbitraries.of(Target.GFX90A, Target.GFX942);
  }

  static long u(int x) {
    return x & 0xffff_ffffL;
  }

  @Property(tries = 600)
  void dsOperationsMatchAnLdsModel(@ForAll("dsOps") Operation op, @ForAll("targets") Target t, @ForAll long seed)
      throws Exception {
    String n = op.name();
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 32);
    byte[] initial = new byte[LDS];
    for (int i = 0; i < LDS; i++) initial[i] = (byte) r.nextInt();
    m.group.lds().write(0, initial);
    long exec = Vals.exec(r);
    m.w.setExec(exec);
    boolean two = n.startsWith("DS_READ2") || n.startsWith("DS_WRITE2") || n.startsWith("DS_WRXCHG2");
    boolean wide = n.endsWith("64") && !n.endsWith("ST64") || n.contains("B64") || n.contains("_U64")
        || n.contains("_I64") || n.contains("CONDXCHG");
    String base = n.replace("_D16_HI", "").replace("_D16", "");
    int elem = base.contains("B128") ? 16 : base.contains("B96") ? 12 : wide ? 8
        : base.endsWith("16") ? 2 : base.endsWith("8") ? 1 : 4;
    if (n.equals("DS_READ_B64") || two && wide) elem = 8;
    int scale = (wide ? 8 : 4) * (n.contains("ST64") ? 64 : 1);
    // Addresses: lanes share a few aligned locations (so atomics of several lanes meet) inside 2 KiB.
    int addr = 0;
    int data0 = 4;
    int data1 = 8;
    int vdst = 12;
    for (int l = 0; l < 64; l++) m.setV(addr, l, (r.nextInt(n.startsWith("DS_READ") || n.startsWith("DS_WRITE")
        ? 256 : 8) * 8));
    int offset0 = two ? r.nextInt(8) : r.nextInt(64) * 4;
    int offset1 = two ? r.nextInt(8) : 0;
    dev.hipsim.isa.decode.OpcodeInfo info = dev.hipsim.isa.decode.OpcodeTables.get().lookup(t, Format.DS,
        Enc.opcode(t, Format.DS, op));
    Enc e = Enc.of(t, Format.DS, op).ds(addr, info.operand(dev.hipsim.isa.decode.Slot.DATA0) == null ? 0 : data0,
        info.operand(dev.hipsim.isa.decode.Slot.DATA1) == null ? 0 : data1, two ? offset0 : offset0 & 0xff,
        two ? offset1 : offset0 >>> 8);
    if (info.operand(dev.hipsim.isa.decode.Slot.VDST) != null) e.vdst(vdst);
    m.snapshot();
    m.run(e);
    ByteBuffer ref = ByteBuffer.wrap(m.savedLds.clone()).order(ByteOrder.LITTLE_ENDIAN);
    int[] v = m.savedV.clone();
    for (int l = 0; l < 64; l++) {
      if ((exec >>> l & 1) == 0) continue;
      int a = m.before(addr, l) + (two ? 0 : offset0);
      int d0 = m.before(data0, l);
      int d1 = m.before(data1, l);
      long d064 = m.before64(data0, l);
      long d164 = m.before64(data1, l);
      if (n.startsWith("DS_WRITE2")) {
        int a0 = m.before(addr, l) + offset0 * scale;
        int a1 = m.before(addr, l) + offset1 * scale;
        for (int k = 0; k < elem / 4; k++) {
          ref.putInt(a0 + 4 * k, m.before(data0 + k, l));
          ref.putInt(a1 + 4 * k, m.before(data1 + k, l));
        }
      } else if (n.startsWith("DS_WRITE")) {
        int value = n.endsWith("D16_HI") ? d0 >>> 16 : d0;
        if (elem == 1) ref.put(a, (byte) value);
        else if (elem == 2) ref.putShort(a, (short) value);
        else for (int k = 0; k < elem / 4; k++) ref.putInt(a + 4 * k, m.before(data0 + k, l));
      } else if (n.startsWith("DS_READ2")) {
        int a0 = m.before(addr, l) + offset0 * scale;
        int a1 = m.before(addr, l) + offset1 * scale;
        int per = elem / 4;
        for (int k = 0; k < per; k++) {
          v[(vdst + k) * 64 + l] = ref.getInt(a0 + 4 * k);
          v[(vdst + per + k) * 64 + l] = ref.getInt(a1 + 4 * k);
        }
      } else if (n.startsWith("DS_READ")) {
        boolean signed = n.contains("_I8") || n.contains("_I16");
        int x = elem == 1 ? (signed ? ref.get(a) : ref.get(a) & 0xff) : elem == 2 ? (signed ? ref.getShort(a)
            : ref.getShort(a) & 0xffff) : 0;
        int old = m.before(vdst, l);
        if (n.endsWith("D16_HI")) {
          v[vdst * 64 + l] = (old & 0xffff) | x << 16;
        } else if (n.endsWith("D16")) {
          v[vdst * 64 + l] = (old & 0xffff0000) | (x & 0xffff);
        } else if (elem <= 2) {
          v[vdst * 64 + l] = x;
        } else {
          for (int k = 0; k < elem / 4; k++) v[(vdst + k) * 64 + l] = ref.getInt(a + 4 * k);
        }
      } else if (n.startsWith("DS_WRXCHG2")) {
        int per = wide ? 2 : 1;
        int a0 = m.before(addr, l) + offset0 * scale;
        int a1 = m.before(addr, l) + offset1 * scale;
        for (int k = 0; k < per; k++) {
          int o0 = ref.getInt(a0 + 4 * k);
          int o1 = ref.getInt(a1 + 4 * k);
          ref.putInt(a0 + 4 * k, m.before(data0 + k, l));
          ref.putInt(a1 + 4 * k, m.before(data1 + k, l));
          v[(vdst + k) * 64 + l] = o0;
          v[(vdst + per + k) * 64 + l] = o1;
        }
      } else if (n.startsWith("DS_CONDXCHG32")) {
        int at = a & ~7;
        int o0 = ref.getInt(at);
        int o1 = ref.getInt(at + 4);
        if (d0 < 0) ref.putInt(at, d0 & 0x7fff_ffff);
        if (m.before(data0 + 1, l) < 0) ref.putInt(at + 4, m.before(data0 + 1, l) & 0x7fff_ffff);
        v[vdst * 64 + l] = o0;
        v[(vdst + 1) * 64 + l] = o1;
      } else if (wide) {
        long old = ref.getLong(a);
        long x = d064;
        long nv = switch (n.replace("_RTN", "")) {
          case "DS_ADD_U64" -> old + x;
          case "DS_SUB_U64" -> old - x;
          case "DS_MIN_I64" -> Math.min(old, x);
          case "DS_MAX_U64" -> Long.compareUnsigned(old, x) > 0 ? old : x;
          case "DS_AND_B64" -> old & x;
          case "DS_INC_U64" -> Long.compareUnsigned(old, x) >= 0 ? 0 : old + 1;
          case "DS_MSKOR_B64" -> (old & ~x) | d164;
          case "DS_WRXCHG_B64" -> x;
          default -> old == x ? d164 : old; // DS_CMPST_B64: compare DATA, store DATA2
        };
        ref.putLong(a, nv);
        if (n.contains("_RTN")) {
          v[vdst * 64 + l] = (int) old;
          v[(vdst + 1) * 64 + l] = (int) (old >>> 32);
        }
      } else {
        int old = ref.getInt(a);
        int nv = switch (n.replace("_RTN", "")) {
          case "DS_ADD_U32" -> old + d0;
          case "DS_SUB_U32" -> old - d0;
          case "DS_RSUB_U32" -> d0 - old;
          case "DS_INC_U32" -> Integer.compareUnsigned(old, d0) >= 0 ? 0 : old + 1;
          case "DS_DEC_U32" -> old == 0 || Integer.compareUnsigned(old, d0) > 0 ? d0 : old - 1;
          case "DS_MIN_I32" -> Math.min(old, d0);
          case "DS_MAX_I32" -> Math.max(old, d0);
          case "DS_MIN_U32" -> Integer.compareUnsigned(old, d0) < 0 ? old : d0;
          case "DS_MAX_U32" -> Integer.compareUnsigned(old, d0) > 0 ? old : d0;
          case "DS_AND_B32" -> old & d0;
          case "DS_OR_B32" -> old | d0;
          case "DS_XOR_B32" -> old ^ d0;
          case "DS_MSKOR_B32" -> (old & ~d0) | d1;
          case "DS_WRXCHG_B32" -> d0;
          case "DS_WRAP_B32" -> Integer.compareUnsigned(old, d0) >= 0 ? old - d0 : old + d1;
          case "DS_CMPST_F32" -> Float.intBitsToFloat(old) == Float.intBitsToFloat(d0) ? d1 : old;
          default -> old == d0 ? d1 : old; // DS_CMPST_B32
        };
        ref.putInt(a, nv);
        if (n.contains("_RTN")) v[vdst * 64 + l] = old;
      }
    }
    m.assertState(v, m.savedS, m.text(e));
    byte[] want = ref.array();
    byte[] lds = m.group.lds().read(0, LDS);
    for (int i = 0; i < LDS; i++) {
      if (want[i] != lds[i]) {
        throw new AssertionError(m.text(e) + ": LDS byte " + i + " is " + lds[i] + ", expected " + want[i]);
      }
    }
  }

  @Example
  void wholeWaveReadsIntoTheirOwnAddressRegister() throws Exception {
    for (Target t : new Target[] {Target.GFX90A, Target.GFX942}) {
      Machine m = new Machine(t);
      m.group.lds().reset(4096);
      for (int i = 0; i < 1024; i++) m.group.lds().store32(4 * i, 1000 + i);
      m.w.setExec(-1L);
      for (int l = 0; l < 64; l++) m.setV(0, l, 8 * l);
      // ds_read_b64 v[0:1], v0 offset:16
      m.run(Enc.of(t, Format.DS, Operation.DS_READ_B64).ds(0, 0, 0, 16, 0).vdst(0));
      for (int l = 0; l < 64; l++) {
        assertThat(new int[] {m.v(0, l), m.v(1, l)}).as("lane %d", l).containsExactly(1004 + 2 * l, 1005 + 2 * l);
      }
      for (int l = 0; l < 64; l++) m.setV(2, l, 4 * l);
      // ds_read2_b32 v[2:3], v2 offset0:1 offset1:3
      m.run(Enc.of(t, Format.DS, Operation.DS_READ2_B32).ds(2, 0, 0, 1, 3).vdst(2));
      for (int l = 0; l < 64; l++) {
        assertThat(new int[] {m.v(2, l), m.v(3, l)}).as("lane %d", l).containsExactly(1001 + l, 1003 + l);
      }
    }
  }

  @Example
  void pairAccessesFaultOnTheLaneWhoseSecondAddressIsOutOfBounds() throws Exception {
    for (Target t : new Target[] {Target.GFX90A, Target.GFX942}) {
      Machine m = new Machine(t);
      m.group.lds().reset(256);
      for (int i = 0; i < 64; i++) m.group.lds().store32(4 * i, 100 + i);
      m.w.setExec(0b111);
      m.setV(0, 0, 0);
      m.setV(0, 1, 8);
      m.setV(0, 2, 200); // offset1 = 16 dwords: 200 + 64 = 264, past the 256 bytes
      // ds_read2_b32 v[4:5], v0 offset0:1 offset1:16
      assertThatThrownBy(() -> m.run(Enc.of(t, Format.DS, Operation.DS_READ2_B32).ds(0, 0, 0, 1, 16).vdst(4)))
          .isInstanceOf(WaveFault.class).hasMessageContaining("LDS").hasMessageContaining("lane 2");
      assertThat(new int[] {m.v(4, 0), m.v(5, 0), m.v(4, 1), m.v(5, 1)}).containsExactly(101, 116, 103, 118);
      // ds_write2_b32 v0, v6, v7 offset0:1 offset1:16: lanes 0 and 1 store before lane 2 faults
      for (int l = 0; l < 3; l++) {
        m.setV(6, l, 7000 + l);
        m.setV(7, l, 8000 + l);
      }
      assertThatThrownBy(() -> m.run(Enc.of(t, Format.DS, Operation.DS_WRITE2_B32).ds(0, 6, 7, 1, 16)))
          .isInstanceOf(WaveFault.class).hasMessageContaining("lane 2");
      Lds lds = m.group.lds();
      assertThat(new int[] {lds.load32(4), lds.load32(64), lds.load32(12), lds.load32(72), lds.load32(204)})
          .containsExactly(7000, 8000, 7001, 8001, 151);
    }
  }

  @Example
  void appendConsumeAddTidAndBounds() throws Exception {
    for (Target t : new Target[] {Target.GFX90A, Target.GFX942}) {
      Machine m = new Machine(t);
      Lds lds = m.group.lds();
      long exec = 0x00f0_0000_0000_ff0fL;
      m.w.setExec(exec);
      m.w.s[Wave.M0] = 0x100;
      lds.store32(0x110, 1000);
      m.run(Enc.of(t, Format.DS, Operation.DS_APPEND).vdst(3).dsOffset(0x10));
      assertThat(lds.load32(0x110)).isEqualTo(1000 + Long.bitCount(exec));
      for (long b = exec; b != 0; b &= b - 1) assertThat(m.v(3, Long.numberOfTrailingZeros(b))).isEqualTo(1000);
      m.run(Enc.of(t, Format.DS, Operation.DS_CONSUME).vdst(4).dsOffset(0x10));
      assertThat(lds.load32(0x110)).isEqualTo(1000);
      for (int l = 0; l < 64; l++) m.setV(5, l, 7 * l);
      m.run(Enc.of(t, Format.DS, Operation.DS_WRITE_ADDTID_B32).ds(0, 5, 0, 8, 0));
      for (int l = 0; l < 64; l++) {
        if ((exec >>> l & 1) != 0) assertThat(lds.load32(0x108 + 4 * l)).isEqualTo(7 * l);
      }
      m.run(Enc.of(t, Format.DS, Operation.DS_READ_ADDTID_B32).vdst(6).dsOffset(8));
      for (int l = 0; l < 64; l++) if ((exec >>> l & 1) != 0) assertThat(m.v(6, l)).isEqualTo(7 * l);
      // An address beyond the workgroup's allocation is a typed fault naming the lane.
      m.group.lds().reset(256);
      m.setV(0, 0, 1024);
      m.w.setExec(1);
      assertThatThrownBy(() -> m.run(Enc.of(t, Format.DS, Operation.DS_READ_B32).ds(0, 0, 0, 0, 0).vdst(1)))
          .isInstanceOf(WaveFault.class).hasMessageContaining("LDS");
      // The last lane's 8 bytes straddle the end: the fault names that lane and leaves the LDS as the lanes
      // before it wrote it.
      m.w.setExec(0b11);
      m.setV(0, 0, 240);
      m.setV(0, 1, 252);
      m.setV(2, 0, 0x1111);
      m.setV(3, 0, 0x2222);
      assertThatThrownBy(() -> m.run(Enc.of(t, Format.DS, Operation.DS_WRITE_B64).ds(0, 2, 0, 0, 0)))
          .isInstanceOf(WaveFault.class).hasMessageContaining("LDS").hasMessageContaining("lane 1");
      assertThat(m.group.lds().load32(240)).isEqualTo(0x1111);
      assertThat(m.group.lds().load32(244)).isEqualTo(0x2222);
    }
  }
}
