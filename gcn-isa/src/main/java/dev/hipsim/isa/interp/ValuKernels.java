package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.exec.JitMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Makes the fast form of VALU instructions that have a plain form: a {@link WholeWaveOp} when the operation has a
 * whole-wave form, else (and behind a WholeWaveOp, for what it does not take) the specialised {@link ValuKernel}:
 * one hidden class per operation, defined from the template's bytes with the operation's {@link ValuSpec} as
 * class data, made once per process on first use.
 */
final class ValuKernels {
  private ValuKernels() {}

  private static final MethodType CONSTRUCTOR = MethodType.methodType(void.class, ValuOp.class, Src.class, Src.class,
      Src.class, Dst.class, Dst.class, int.class);
  private static final ConcurrentHashMap<Operation, MethodHandle> CLASSES = new ConcurrentHashMap<>();
  private static byte[] template;

  /**
   * The fast form of {@code inst} executing {@code spec}, or {@code generic} itself when the instruction uses
   * something only the generic path handles.
   */
  static Op of(Instruction inst, ValuSpec spec, ValuOp generic) {
    return of(inst, spec, generic, JitMode.current());
  }

  /** As {@link #of(Instruction, ValuSpec, ValuOp)}, shaped for the JIT {@code jit} (tests take both). */
  static Op of(Instruction inst, ValuSpec spec, ValuOp generic, JitMode jit) {
    if (Boolean.getBoolean("hipsim.noKernels") || !plain(inst, spec)) return generic;
    Src s0 = Src.of(inst.src0(), spec.w0());
    Src s1 = Src.of(inst.src1(), spec.w1());
    Src s2 = Src.of(inst.src2(), spec.has(ValuSpec.MASK_IN) ? 64 : spec.w2());
    int modeBits = inst.clamp() && spec.outputFormat() == ValuSpec.NONE ? ValuTable.INT_CLAMP : 0;
    Supplier<Op> specialised = () -> specialise(inst, spec, generic, s0, s1, s2, modeBits);
    if (spec.wave() != null || spec.maskWave() != null) {
      return new WholeWaveOp(generic, spec, s0, s1, s2, Dst.of(inst.vdst()), Dst.of(inst.sdst()), modeBits, jit,
          specialised);
    }
    return specialised.get();
  }

  private static Op specialise(Instruction inst, ValuSpec spec, ValuOp generic, Src s0, Src s1, Src s2,
      int modeBits) {
    try {
      MethodHandle make = CLASSES.computeIfAbsent(inst.operation(), op -> define(spec));
      return (Op) make.invoke(generic, s0, s1, s2, Dst.of(inst.vdst()), Dst.of(inst.sdst()), modeBits);
    } catch (Throwable e) {
      throw new IllegalStateException("cannot specialise " + inst.operation() + ": " + e, e);
    }
  }

  /** Whether the instruction is in the form {@link ValuKernel} executes exactly as {@link ValuOp} does. */
  static boolean plain(Instruction inst, ValuSpec spec) {
    if (inst.dpp() != null || inst.sdwa() != null) return false;
    if (!width(spec.w0()) || !width(spec.w1()) || !width(spec.w2()) || !width(spec.wd())) return false;
    if (spec.outputFormat() != ValuSpec.NONE && (inst.clamp() || inst.omod() != 0)) return false;
    if (!source(inst.src0(), spec.w0()) || !source(inst.src1(), spec.w1())) return false;
    if (!spec.has(ValuSpec.MASK_IN) && !spec.has(ValuSpec.ACCUMULATE) && !source(inst.src2(), spec.w2())) return false;
    if (spec.has(ValuSpec.MASK_IN) && (inst.src2() == null || inst.src2().mods() != 0)) return false;
    boolean mask = spec.has(ValuSpec.COMPARE);
    Dst vdst = Dst.of(inst.vdst());
    if (mask) return Dst.of(inst.sdst()) != null && inst.vdst() == null;
    return vdst != null && vdst.vector && (!spec.has(ValuSpec.ACCUMULATE) || inst.vdst().mods() == 0);
  }

  private static boolean width(int w) {
    return w == 0 || w == 32 || w == 64 || w == Src.PAIR16;
  }

  private static boolean source(dev.hipsim.isa.decode.Operand op, int width) {
    return width == 0 || op != null && op.mods() == 0;
  }

  private static MethodHandle define(ValuSpec spec) {
    try {
      MethodHandles.Lookup hidden = MethodHandles.lookup().defineHiddenClassWithClassData(template(), spec, true);
      return hidden.findConstructor(hidden.lookupClass(), CONSTRUCTOR);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  private static synchronized byte[] template() {
    if (template == null) {
      try (InputStream in = ValuKernel.class.getResourceAsStream("ValuKernel.class")) {
        if (in == null) throw new IllegalStateException("ValuKernel.class is not on the class path");
        template = in.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return template;
  }
}
