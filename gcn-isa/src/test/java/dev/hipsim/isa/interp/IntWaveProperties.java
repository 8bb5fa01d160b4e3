package dev.hipsim.isa.interp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.exec.Wave;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The whole-wave integer forms ({@link IntWaveOps}, as {@link WaveFn} and {@link MaskWaveFn}) give what the lane
 * functions give, in every encoding of their operations (VOP2/VOPC and VOP3; scalar, constant and literal
 * sources; destinations that overlap a source; the clamp bit, which they must decline), on full waves of random
 * values.
 */
class IntWaveProperties {
  static final List<Operation> OPS = List.of(Operation.V_MOV_B32, Operation.V_ADD_U32, Operation.V_SUB_U32,
      Operation.V_SUBREV_U32, Operation.V_AND_B32, Operation.V_OR_B32, Operation.V_XOR_B32, Operation.V_LSHLREV_B32,
      Operation.V_LSHRREV_B32, Operation.V_ASHRREV_I32, Operation.V_LSHLREV_B64, Operation.V_MUL_LO_U32,
      Operation.V_LSHL_ADD_U32, Operation.V_ADD3_U32, Operation.V_LSHL_OR_B32, Operation.V_AND_OR_B32,
      Operation.V_OR3_B32, Operation.V_BFE_U32);
  /** The operations with a lane mask ({@link MaskWaveFn}): carry chain, v_cndmask, every 32-bit integer compare. */
  static final List<Operation> MASK_OPS = maskOps();

  private static List<Operation> maskOps() {
    List<Operation> out = new java.util.ArrayList<>(List.of(Operation.V_ADD_CO_U32, Operation.V_ADDC_CO_U32,
        Operation.V_SUB_CO_U32, Operation.V_SUBREV_CO_U32, Operation.V_SUBB_CO_U32, Operation.V_SUBBREV_CO_U32,
        Operation.V_CNDMASK_B32));
    for (Operation op : Operation.values()) {
      String n = op.name();
      if ((n.startsWith("V_CMP_") || n.startsWith("V_CMPX_")) && (n.endsWith("_I32") || n.endsWith("_U32"))
          && !n.contains("CLASS")) {
        out.add(op);
      }
    }
    return List.copyOf(out);
  }

  @Provide
  Arbitrary<Operation> operations() {
    return Arbitraries.of(OPS);
  }

  @Provide
  Arbitrary<Operation> maskOperations() {
    return Arbitraries.of(MASK_OPS);
  }

  @Property(tries = 1500)
  void maskFormsMatchTheLaneFunctions(@ForAll("maskOperations") Operation op, @ForAll long seed) throws Exception {
    wholeWaveFormsMatchTheLaneFunctions(op, seed);
  }

  @Property(tries = 1500)
  void wholeWaveFormsMatchTheLaneFunctions(@ForAll("operations") Operation op, @ForAll long seed) throws Exception {
    Random r = new Random(seed);
    Target t = r.nextBoolean() ? Target.GFX90A : Target.GFX942;
    ValuSpec spec = ValuTable.get(op);
    ValuHarness.Built b = ValuHarness.random(r, t, op, spec);
    boolean clamp = b.vop3() && r.nextInt(4) == 0;
    if (clamp) b.enc().clamp(true);
    Machine fast = new Machine(t);
    Machine generic = new Machine(t);
    Instruction inst = ValuHarness.plainInstruction(fast, b, op, spec);
    Assume.that(inst != null);
    long state = r.nextLong();
    // Half the time small values, so that compares see ties and equal operands, and carries chain.
    boolean small = r.nextBoolean();
    for (Machine m : new Machine[] {fast, generic}) {
      Random same = new Random(state);
      m.randomize(same, 64);
      if (small) {
        for (int i = 0; i < 64 * Wave.LANES; i++) m.w.v[i] = same.nextInt(4) - (same.nextInt(8) == 0 ? 2 : 0);
        for (int i = 0; i < 102; i++) m.w.s[i] = same.nextInt(4);
      }
      m.w.setExec(-1L);
    }
    Op specialised = ValuKernels.of(inst, spec, new ValuOp(inst, spec));
    String fastError = run(specialised, fast);
    String genericError = run(new ValuOp(inst, spec), generic);
    // A form no program can have (a VGPR as the mask source) is refused the same way by both.
    assertThat(fastError).isEqualTo(genericError);
    String what = fast.text(b.enc()) + (clamp ? " (clamp)" : "");
    fast.assertState(generic.w.v, generic.w.s, what);
    assertThat(fast.w.exec()).as(what + ": EXEC").isEqualTo(generic.w.exec());
  }

  @Property(tries = 50)
  void everyListedOperationHasAWholeWaveForm(@ForAll("operations") Operation op) {
    assertThat(ValuTable.get(op).wave()).isNotNull();
  }

  @Property(tries = 50)
  void everyListedMaskOperationHasAWholeWaveForm(@ForAll("maskOperations") Operation op) {
    assertThat(ValuTable.get(op).maskWave()).isNotNull();
  }

  private static String run(Op op, Machine m) {
    try {
      op.execute(m.w, m.cx);
      return null;
    } catch (dev.hipsim.isa.dispatch.DispatchException e) {
      return e.getMessage();
    }
  }
}
