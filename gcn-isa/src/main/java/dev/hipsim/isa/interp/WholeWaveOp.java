package dev.hipsim.isa.interp;

import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.exec.Wave;
import java.util.function.Supplier;

/**
 * A plain VALU instruction whose operation has a whole-wave form ({@link WaveFn} or {@link MaskWaveFn}), executed
 * through that form when EXEC is full and GPR indexing is off. Everything else — a partial EXEC, GPR indexing,
 * the clamp bit of a mask operation, a form that declines (an f32 NaN, a non-default MODE) — goes to the
 * operation's specialised {@link ValuKernel}, made the first time it is needed.
 *
 * <p>Why one class for all of them: each {@link ValuKernel} copy is a class of its own that the JIT compiles on
 * its own (twice, C1 then C2, under tiered compilation) before it runs fast. A kernel without divergence never
 * needs those copies, and on a cold JVM their compilation competed with the first dispatch for the two cores; this
 * class is compiled once for every operation. The call to the form is one megamorphic call per instruction, not
 * per lane.
 */
final class WholeWaveOp extends Op {
  private final WaveFn wave;
  private final MaskWaveFn maskWave;
  private final Src s0;
  private final Src s1;
  private final Src s2;
  private final Dst vdst;
  private final Dst sdst;
  private final int w0;
  private final int w1;
  private final int w2;
  private final int modeBits;
  private final boolean compare;
  private final boolean compareExec;
  private final boolean carry;
  private final boolean maskIn;
  private final boolean accumulate;
  private final Supplier<Op> makeFallback;
  private volatile Op fallback;

  WholeWaveOp(ValuOp generic, ValuSpec spec, Src s0, Src s1, Src s2, Dst vdst, Dst sdst, int modeBits,
      Supplier<Op> makeFallback) {
    super(generic.instruction);
    this.wave = spec.wave();
    this.maskWave = spec.maskWave();
    this.s0 = s0;
    this.s1 = s1;
    this.s2 = s2;
    this.vdst = vdst;
    this.sdst = sdst;
    this.w0 = width(spec.w0());
    this.w1 = width(spec.w1());
    this.w2 = spec.w2();
    this.modeBits = modeBits;
    this.compare = spec.has(ValuSpec.COMPARE);
    this.compareExec = spec.has(ValuSpec.COMPARE_EXEC);
    this.carry = spec.has(ValuSpec.CARRY_OUT) || spec.has(ValuSpec.FLAG_OUT);
    this.maskIn = spec.has(ValuSpec.MASK_IN);
    this.accumulate = spec.has(ValuSpec.ACCUMULATE);
    this.makeFallback = makeFallback;
  }

  private static int width(int w) {
    return w == Src.PAIR16 ? 32 : w;
  }

  @Override
  public void execute(Wave w, Ctx cx) throws DispatchException {
    int mode = w.mode | modeBits;
    if (w.exec() != -1L || w.gprIdxMask != 0 || (maskWave != null && (mode & ValuTable.INT_CLAMP) != 0)) {
      fallback().execute(w, cx);
      return;
    }
    int[] v = w.v;
    int[] a = v;
    int ao = 0;
    if (w0 != 0) {
      if (s0.isVector()) {
        ao = s0.vectorBase(w);
      } else {
        a = s0.broadcastRaw(w, cx, w0, cx.sa);
      }
    }
    int[] b = v;
    int bo = 0;
    if (w1 != 0) {
      if (s1.isVector()) {
        bo = s1.vectorBase(w);
      } else {
        b = s1.broadcastRaw(w, cx, w1, cx.sb);
      }
    }
    int[] c = v;
    int co = 0;
    long mask = 0;
    if (maskIn) {
      mask = s2.scalarRaw64(w, cx);
    } else if (accumulate) {
      co = vdst.base(w);
    } else if (w2 != 0) {
      if (s2.isVector()) {
        co = s2.vectorBase(w);
      } else {
        c = s2.broadcastRaw(w, cx, w2, cx.sc);
      }
    }
    int d = compare ? 0 : vdst.base(w);
    if (maskWave != null) {
      long bits = maskWave.apply(v, d, a, ao, b, bo, mask);
      if (compare) {
        sdst.writeScalar64(w, bits);
        if (compareExec) w.setExec(bits);
      } else if (carry && sdst != null) {
        sdst.writeScalar64(w, bits);
      }
    } else if (!wave.apply(v, d, a, ao, b, bo, c, co, mode)) {
      fallback().execute(w, cx);
      return;
    }
    w.pc += size;
  }

  /** The specialised form, made once: instructions are shared by every worker thread. */
  private Op fallback() {
    Op f = fallback;
    if (f == null) {
      synchronized (this) {
        f = fallback;
        if (f == null) {
          f = makeFallback.get();
          fallback = f;
        }
      }
    }
    return f;
  }
}
