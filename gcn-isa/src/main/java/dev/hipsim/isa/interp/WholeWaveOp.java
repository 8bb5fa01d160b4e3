package dev.hipsim.isa.interp;

import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.exec.JitMode;
import dev.hipsim.isa.exec.Wave;
import java.util.function.Supplier;

/**
 * A plain VALU instruction whose operation has a whole-wave form ({@link WaveFn} or {@link MaskWaveFn}), executed
 * through that form while EXEC is full and GPR indexing is off. Under C1 ({@link JitMode#QUICK}) a partial EXEC
 * takes the form too: it computes every lane into scratch and only the active lanes are merged into the destination
 * (the forms are lane-wise and have no side effects, and a lane mask they produce keeps only active lanes' bits, as
 * the hardware writes 0 for the others). Everything else — a partial EXEC under C2, GPR indexing, the clamp bit of
 * a mask operation, a form that declines (an f32 NaN, a non-default MODE) — goes to the operation's specialised
 * {@link ValuKernel}, made the first time it is needed.
 *
 * <p>Why one class for all of them: each {@link ValuKernel} copy is a class of its own that the JIT compiles on
 * its own (twice, C1 then C2, under tiered compilation) before it runs fast, and until C2 has inlined its lane
 * function it makes an interface call per lane. This class is compiled once for every operation, with one
 * megamorphic call per instruction, not per lane. Under C1 that makes divergent code (inside an {@code if}) 1.2 to
 * 2.3 times faster (InterpreterBench valuDivergent, half the lanes on); under C2, whose {@link ValuKernel} copies
 * inline the lane function and skip inactive lanes, it made it 1.4 to 2 times slower, hence the choice by
 * {@link JitMode}.
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
  /** Destination dwords per lane: 2 for 64-bit results. */
  private final int destDwords;
  private final int modeBits;
  private final boolean compare;
  private final boolean compareExec;
  private final boolean carry;
  private final boolean maskIn;
  private final boolean accumulate;
  /** Whether a partial EXEC runs through the whole-wave form (else through the fallback). */
  private final boolean partialExec;
  private final Supplier<Op> makeFallback;
  private volatile Op fallback;

  WholeWaveOp(ValuOp generic, ValuSpec spec, Src s0, Src s1, Src s2, Dst vdst, Dst sdst, int modeBits,
      JitMode jit, Supplier<Op> makeFallback) {
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
    this.destDwords = spec.wd() == 64 ? 2 : 1;
    this.modeBits = modeBits;
    this.compare = spec.has(ValuSpec.COMPARE);
    this.compareExec = spec.has(ValuSpec.COMPARE_EXEC);
    this.carry = spec.has(ValuSpec.CARRY_OUT) || spec.has(ValuSpec.FLAG_OUT);
    this.maskIn = spec.has(ValuSpec.MASK_IN);
    this.accumulate = spec.has(ValuSpec.ACCUMULATE);
    this.partialExec = jit == JitMode.QUICK;
    this.makeFallback = makeFallback;
  }

  private static int width(int w) {
    return w == Src.PAIR16 ? 32 : w;
  }

  @Override
  public void execute(Wave w, Ctx cx) throws DispatchException {
    int mode = w.mode | modeBits;
    long exec = w.exec();
    boolean full = exec == -1L;
    if ((!full && !partialExec) || w.gprIdxMask != 0 || (maskWave != null && (mode & ValuTable.INT_CLAMP) != 0)) {
      fallback().execute(w, cx);
      return;
    }
    int[] v = w.v;
    int[] a = w0 == 0 ? v : s0.rawLanes(w, cx, w0, cx.sa);
    int ao = w0 == 0 ? 0 : s0.laneOffset(w);
    int[] b = w1 == 0 ? v : s1.rawLanes(w, cx, w1, cx.sb);
    int bo = w1 == 0 ? 0 : s1.laneOffset(w);
    int[] c = v;
    int co = 0;
    long mask = 0;
    if (maskIn) {
      mask = s2.scalarRaw64(w, cx);
    } else if (accumulate) {
      co = vdst.base(w);
    } else if (w2 != 0) {
      c = s2.rawLanes(w, cx, w2, cx.sc);
      co = s2.laneOffset(w);
    }
    // A full wave writes its destination in place; a partial one computes into scratch, merged below.
    int[] out = full || compare ? v : cx.lanes;
    int d = compare || !full ? 0 : vdst.base(w);
    if (maskWave != null) {
      long bits = maskWave.apply(out, d, a, ao, b, bo, mask) & exec;
      if (compare) {
        sdst.writeScalar64(w, bits);
        if (compareExec) w.setExec(bits);
      } else {
        if (!full) merge(out, v, vdst.base(w), exec);
        if (carry && sdst != null) sdst.writeScalar64(w, bits);
      }
    } else if (wave.apply(out, d, a, ao, b, bo, c, co, mode)) {
      if (!full) merge(out, v, vdst.base(w), exec);
    } else {
      fallback().execute(w, cx);
      return;
    }
    w.pc += size;
  }

  /** Copies the active lanes' results (each {@link #destDwords} dwords, a register apart) into the destination. */
  private void merge(int[] results, int[] v, int d, long exec) {
    for (long m = exec; m != 0; m &= m - 1) {
      int l = Long.numberOfTrailingZeros(m);
      v[d + l] = results[l];
      if (destDwords == 2) v[d + Wave.LANES + l] = results[Wave.LANES + l];
    }
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
