package dev.hipsim.isa.interp;

import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.exec.Wave;
import java.lang.constant.ConstantDescs;
import java.lang.invoke.MethodHandles;

/**
 * The fast path of a VALU instruction in its plain form — 32- and 64-bit operands without input modifiers, DPP,
 * SDWA or float output modifiers — as one loop over the lanes with the lane function inlined.
 *
 * <p>This class is a template, never used as it is: {@link ValuKernels} defines a hidden copy of it per operation,
 * with that operation's {@link ValuSpec} as class data. In each copy the spec, and so the lane function, the
 * operand widths and the flags, are static final constants: the JIT compiles each copy's loop for its one
 * operation, with the lane function inlined and every test of a flag folded away, where the generic
 * {@link ValuOp} makes a megamorphic call per lane. The results are those of {@link ValuOp}, which the copy runs
 * instead when GPR indexing is on. An operation with a whole-wave form runs as a {@link WholeWaveOp}, which hands
 * this copy only what that form does not take (a partial EXEC, the clamp bit, a form that declines).
 */
final class ValuKernel extends Op {
  private static final ValuSpec SPEC = classData();
  private static final LaneFn FN = SPEC == null ? null : SPEC.fn();
  private static final int W0 = SPEC == null ? 0 : SPEC.w0() == Src.PAIR16 ? 32 : SPEC.w0();
  private static final int W1 = SPEC == null ? 0 : SPEC.w1() == Src.PAIR16 ? 32 : SPEC.w1();
  private static final int W2 = SPEC == null ? 0 : SPEC.w2();
  private static final int WD = SPEC == null ? 0 : SPEC.wd();
  private static final boolean COMPARE = SPEC != null && SPEC.has(ValuSpec.COMPARE);
  private static final boolean COMPARE_EXEC = SPEC != null && SPEC.has(ValuSpec.COMPARE_EXEC);
  private static final boolean CARRY = SPEC != null
      && (SPEC.has(ValuSpec.CARRY_OUT) || SPEC.has(ValuSpec.FLAG_OUT));
  private static final boolean MASK_IN = SPEC != null && SPEC.has(ValuSpec.MASK_IN);
  private static final boolean ACCUMULATE = SPEC != null && SPEC.has(ValuSpec.ACCUMULATE);
  private static final long M32 = 0xffff_ffffL;

  private static ValuSpec classData() {
    try {
      return MethodHandles.classData(MethodHandles.lookup(), ConstantDescs.DEFAULT_NAME, ValuSpec.class);
    } catch (IllegalAccessException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Src s0;
  private final Src s1;
  private final Src s2;
  private final Dst vdst;
  private final Dst sdst;
  /** {@link ValuTable#INT_CLAMP} when an integer operation has its clamp bit, else 0. */
  private final int modeBits;
  /** The generic form of the same instruction, for what this loop does not handle (GPR indexing). */
  private final Op generic;

  ValuKernel(ValuOp generic, Src s0, Src s1, Src s2, Dst vdst, Dst sdst, int modeBits) {
    super(generic.instruction);
    this.generic = generic;
    this.s0 = s0;
    this.s1 = s1;
    this.s2 = s2;
    this.vdst = vdst;
    this.sdst = sdst;
    this.modeBits = modeBits;
  }

  @Override
  public void execute(Wave w, Ctx cx) throws DispatchException {
    if (w.gprIdxMask != 0) {
      generic.execute(w, cx);
      return;
    }
    int[] v = w.v;
    long exec = w.exec();
    int mode = w.mode | modeBits;
    int[] a = W0 == 0 ? Ctx.ABSENT : s0.rawLanes(w, cx, W0, cx.sa);
    int ao = W0 == 0 ? 0 : s0.laneOffset(w);
    int[] b = W1 == 0 ? Ctx.ABSENT : s1.rawLanes(w, cx, W1, cx.sb);
    int bo = W1 == 0 ? 0 : s1.laneOffset(w);
    int[] c = Ctx.ABSENT;
    int co = 0;
    long mask = 0;
    if (MASK_IN) {
      mask = s2.scalarRaw64(w, cx);
    } else if (ACCUMULATE) {
      c = v;
      co = vdst.base(w);
    } else if (W2 != 0) {
      c = s2.rawLanes(w, cx, W2, cx.sc);
      co = s2.laneOffset(w);
    }
    int d = COMPARE ? 0 : vdst.base(w);
    long bits = 0;
    if (exec == -1L) {
      for (int l = 0; l < Wave.LANES; l++) bits |= lane(v, d, a, ao, b, bo, c, co, mask, mode, l);
    } else {
      for (long m = exec; m != 0; m &= m - 1) {
        bits |= lane(v, d, a, ao, b, bo, c, co, mask, mode, Long.numberOfTrailingZeros(m));
      }
    }
    if (COMPARE) {
      sdst.writeScalar64(w, bits);
      if (COMPARE_EXEC) w.setExec(bits);
    } else if (CARRY && sdst != null) {
      sdst.writeScalar64(w, bits);
    }
    w.pc += size;
  }

  /**
   * Lane {@code l}: computes, writes the result; returns the lane's bit of a compare or carry mask. Kept small
   * (the constant tests fold away only after inlining, which the JIT decides by bytecode size) so that it is
   * inlined into the loops, and the lane function with it.
   */
  private static long lane(int[] v, int d, int[] a, int ao, int[] b, int bo, int[] c, int co, long mask, int mode,
      int l) {
    long z = MASK_IN ? (mask >>> l) & 1 : value(c, co, l, ACCUMULATE ? WD : W2);
    long r = FN.apply(value(a, ao, l, W0), value(b, bo, l, W1), z, mode);
    if (COMPARE) return r != 0 ? 1L << l : 0;
    v[d + l] = (int) r;
    if (WD == 64) v[d + Wave.LANES + l] = CARRY ? 0 : (int) (r >>> 32);
    return CARRY ? ((r >>> 32) & 1) << l : 0;
  }

  /** A lane's source value at a width (0: absent), zero-extended; 64-bit values are register pairs. */
  private static long value(int[] a, int o, int l, int width) {
    return width == 0 ? 0 : width == 64 ? (a[o + l] & M32) | ((long) a[o + Wave.LANES + l] << 32) : a[o + l] & M32;
  }

}
