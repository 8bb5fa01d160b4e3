package dev.hipsim.isa.interp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.exec.JitMode;
import dev.hipsim.isa.exec.Wave;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The specialised VALU loops ({@link ValuKernel}, one hidden class per operation) against the generic
 * {@link ValuOp} they stand in for: every operation of {@link ValuTable} with a plain form, random encodings,
 * sources, register contents, EXEC masks, MODE values and clamp bits, shaped for C1 and for C2 ({@link JitMode});
 * both must leave the whole wave state the same (every VGPR, SGPR, VCC, EXEC, SCC) or both fail.
 */
class ValuKernelProperties {
  private static final List<Operation> OPS = ValuTable.operations().stream()
      .filter(op -> !ValuHarness.formats(Target.GFX90A, op).isEmpty() || !ValuHarness.formats(Target.GFX942, op)
          .isEmpty())
      .sorted().collect(Collectors.toList());

  @Provide
  Arbitrary<Operation> operations() {
    return Arbitraries.of(OPS);
  }

  @Property(tries = 1500)
  void theSpecialisedLoopDoesWhatTheGenericOpDoes(@ForAll("operations") Operation op, @ForAll long seed)
      throws Exception {
    Random r = new Random(seed);
    Target t = ValuHarness.formats(Target.GFX90A, op).isEmpty() ? Target.GFX942 : Target.GFX90A;
    ValuSpec spec = ValuTable.get(op);
    List<Format> formats = ValuHarness.formats(t, op);
    Format f = formats.get(r.nextInt(formats.size()));
    int arity = f == Format.VOP1 ? 1 : f == Format.VOP2 || f == Format.VOPC ? 2 : spec.sourceCount();
    ValuHarness.Built b = ValuHarness.build(r, t, op, Math.max(arity, spec.sourceCount() > 0 ? 1 : 0), 0,
        f == Format.VOP3);
    Enc e = b.enc();
    if (b.vop3()) {
      if (r.nextInt(4) == 0) e.clamp(true);
      if (op.name().startsWith("V_CMP") || spec.has(ValuSpec.CARRY_OUT)) e.sdst(2 * (20 + r.nextInt(10)));
      if (spec.has(ValuSpec.MASK_IN)) e.src2(2 * (40 + r.nextInt(10)));
    }
    Machine fast = new Machine(t);
    Machine generic = new Machine(t);
    Instruction inst;
    try {
      inst = fast.decode(e);
    } catch (IllegalArgumentException notAnInstruction) {
      Assume.that(false);
      return;
    }
    Assume.that(inst.operation() == op && spec.fn() != null && ValuKernels.plain(inst, spec));
    Op compiled = OpCompiler.compile(inst);
    // Operations with classes of their own never take the table's path.
    Assume.that(compiled instanceof ValuOp || compiled instanceof WholeWaveOp || compiled.getClass().isHidden());
    long exec = Vals.exec(r);
    int mode = r.nextBoolean() ? dev.hipsim.isa.fp.FpMode.DEFAULT : Vals.mode(r);
    long state = r.nextLong();
    for (Machine m : new Machine[] {fast, generic}) {
      Random same = new Random(state);
      m.randomize(same, 64);
      for (int i = 0; i < 64 * Wave.LANES; i++) m.w.v[i] = same.nextBoolean() ? Vals.i32(same) : Vals.f32(same);
      m.w.setExec(exec);
      m.w.mode = mode;
    }
    // Both shapes: under C1 a partial EXEC runs through the whole-wave form, under C2 through the lane loop.
    JitMode jit = r.nextBoolean() ? JitMode.QUICK : JitMode.FULL;
    Op specialised = ValuKernels.of(inst, spec, new ValuOp(inst, spec), jit);
    assertThat(specialised).as("a plain instruction gets a specialised loop").isNotInstanceOf(ValuOp.class);
    String failedFast = run(specialised, fast);
    String failedGeneric = run(new ValuOp(inst, spec), generic);
    String text = fast.text(e);
    assertThat(failedFast).as(text).isEqualTo(failedGeneric);
    fast.assertState(generic.w.v, generic.w.s, text + " (mode 0x" + Integer.toHexString(mode) + ", exec 0x"
        + Long.toHexString(exec) + ", " + jit + ")");
    assertThat(fast.w.scc).as(text).isEqualTo(generic.w.scc);
    assertThat(fast.w.pc).as(text).isEqualTo(generic.w.pc);
  }

  private static String run(Op op, Machine m) {
    try {
      op.execute(m.w, m.cx);
      return null;
    } catch (DispatchException ex) {
      return ex.getMessage();
    }
  }
}
