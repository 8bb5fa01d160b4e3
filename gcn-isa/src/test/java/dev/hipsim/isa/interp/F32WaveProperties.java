package dev.hipsim.isa.interp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.alu.F32Ops;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.fp.FpMode;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The whole-wave f32 forms ({@link F32WaveOps}) give what the lane functions give, on full waves of finite values
 * (denormals, zeros of both signs, results that overflow) where they take over, and with a NaN or an infinity in
 * one lane or a MODE other than the default, where they must decline.
 */
class F32WaveProperties {
  @Provide
  Arbitrary<Operation> operations() {
    return Arbitraries.of(Operation.V_ADD_F32, Operation.V_SUB_F32, Operation.V_MUL_F32, Operation.V_FMA_F32,
        Operation.V_FMAC_F32);
  }

  /** A finite f32 of every kind: normal, denormal, zero, near the largest (so sums and products overflow). */
  static int finite(Random r) {
    return switch (r.nextInt(5)) {
      case 0 -> r.nextInt(0x0080_0000) | (r.nextBoolean() ? 0x8000_0000 : 0); // denormal or zero
      case 1 -> r.nextBoolean() ? 0 : 0x8000_0000;
      case 2 -> 0x7f00_0000 + r.nextInt(0x0080_0000) | (r.nextBoolean() ? 0x8000_0000 : 0); // huge
      default -> Float.floatToRawIntBits((float) ((r.nextDouble() - 0.5) * Math.pow(2, r.nextInt(60) - 30)));
    };
  }

  @Property(tries = 800)
  void wholeWaveFormsMatchTheLaneFunctions(@ForAll("operations") Operation op, @ForAll long seed) throws Exception {
    Random r = new Random(seed);
    Target t = r.nextBoolean() ? Target.GFX90A : Target.GFX942;
    ValuSpec spec = ValuTable.get(op);
    ValuHarness.Built b = ValuHarness.random(r, t, op, spec);
    Machine fast = new Machine(t);
    Machine generic = new Machine(t);
    Instruction inst = ValuHarness.plainInstruction(fast, b, op, spec);
    Assume.that(inst != null);
    // Mostly the case the wave form takes; sometimes one it must leave to the lane function.
    int kind = r.nextInt(6);
    int mode = kind == 0 ? Vals.mode(r) : FpMode.DEFAULT;
    int specialLane = kind == 1 ? r.nextInt(Wave.LANES) : -1;
    long state = r.nextLong();
    for (Machine m : new Machine[] {fast, generic}) {
      Random same = new Random(state);
      m.randomize(same, 64);
      for (int i = 0; i < 64 * Wave.LANES; i++) m.w.v[i] = finite(same);
      if (specialLane >= 0) {
        int special = same.nextBoolean() ? 0x7fc0_0000 | same.nextInt(0x40_0000) : 0xff80_0000;
        for (int reg = 0; reg < 64; reg++) m.w.v[reg * Wave.LANES + specialLane] = special;
      }
      m.w.setExec(-1L);
      m.w.mode = mode;
    }
    Op specialised = ValuKernels.of(inst, spec, new ValuOp(inst, spec));
    specialised.execute(fast.w, fast.cx);
    new ValuOp(inst, spec).execute(generic.w, generic.cx);
    fast.assertState(generic.w.v, generic.w.s, fast.text(b.enc()) + " (mode 0x" + Integer.toHexString(mode) + ")");
  }

  @Property(tries = 200)
  void finiteIsFalseExactlyWhenALaneIsNanOrInfinite(@ForAll long seed) {
    Random r = new Random(seed);
    // Three sources at different offsets; a NaN or an infinity, if any, in one lane of one of them.
    int[][] src = new int[3][Wave.LANES + 3];
    for (int[] x : src) {
      for (int i = 0; i < x.length; i++) x[i] = finite(r);
    }
    boolean special = r.nextBoolean();
    int which = r.nextInt(3);
    if (special) {
      src[which][which + r.nextInt(Wave.LANES)] = 0x7f80_0000 | r.nextInt(0x80_0000) | (r.nextBoolean() ? 1 << 31 : 0);
    }
    assertThat(F32WaveOps.finite(src[0], 0, src[1], 1, src[2], 2)).isEqualTo(!special);
    assertThat(F32WaveOps.finite(src[0], 0, src[1], 1)).isEqualTo(!special || which == 2);
  }

  /** A lane value for the direct calls: mostly finite, else a NaN (quiet or signalling) or an infinity. */
  static int anyValue(Random r) {
    return switch (r.nextInt(8)) {
      case 0 -> 0x7f80_0000 | 1 + r.nextInt(0x7f_ffff) | (r.nextBoolean() ? 1 << 31 : 0); // NaN
      case 1 -> r.nextBoolean() ? 0x7f80_0000 : 0xff80_0000;
      default -> finite(r);
    };
  }

  /**
   * Called directly, with the destination also a source (as v_fmac_f32 always is), a source shared, or none shared,
   * and NaNs and infinities in some lanes: a form either declines having written nothing, or gives every lane what
   * {@link F32Ops} gives and changes no register but the destination. It must accept finite sources.
   */
  @Property(tries = 600)
  void everyLaneIsTheLaneFunctionsEvenWhereTheDestinationIsASource(@ForAll long seed) {
    Random r = new Random(seed);
    int op = r.nextInt(4);
    int[] v = new int[4 * Wave.LANES];
    boolean special = r.nextBoolean();
    for (int i = 0; i < v.length; i++) v[i] = special && r.nextInt(16) == 0 ? anyValue(r) : finite(r);
    // Registers 0..3: each source and the destination any of them, so aliasing comes in every combination.
    int ao = r.nextInt(4) * Wave.LANES;
    int bo = r.nextInt(4) * Wave.LANES;
    int co = r.nextInt(4) * Wave.LANES;
    int d = r.nextInt(4) * Wave.LANES;
    int mode = FpMode.DEFAULT;
    int[] v0 = v.clone();
    int[] expected = v.clone();
    for (int l = 0; l < Wave.LANES; l++) {
      int x = v[ao + l];
      int y = v[bo + l];
      int z = v[co + l];
      expected[d + l] = switch (op) {
        case 0 -> F32Ops.add(x, y, mode);
        case 1 -> F32Ops.sub(x, y, mode);
        case 2 -> F32Ops.mul(x, y, mode);
        default -> F32Ops.fma(x, y, z, mode);
      };
    }
    boolean accepted = switch (op) {
      case 0 -> F32WaveOps.add(v, d, v, ao, v, bo, v, co, mode);
      case 1 -> F32WaveOps.sub(v, d, v, ao, v, bo, v, co, mode);
      case 2 -> F32WaveOps.mul(v, d, v, ao, v, bo, v, co, mode);
      default -> F32WaveOps.fma(v, d, v, ao, v, bo, v, co, mode);
    };
    boolean allFinite = true;
    for (int i = 0; i < v.length; i++) allFinite &= (v0[i] & 0x7f80_0000) != 0x7f80_0000;
    if (allFinite) assertThat(accepted).as("accepted with finite sources").isTrue();
    int[] want = accepted ? expected : v0;
    for (int i = 0; i < v.length; i++) {
      assertThat(Integer.toHexString(v[i])).as("op %d, word %d (d %d, a %d, b %d, c %d)", op, i, d, ao, bo, co)
          .isEqualTo(Integer.toHexString(want[i]));
    }
  }
}
