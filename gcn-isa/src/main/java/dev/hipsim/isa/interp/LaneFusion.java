package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Encoding;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.exec.Wave;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Finds runs of consecutive lane-wise VALU instructions (integer and f32) and plans their fused execution: one loop over the
 * active lanes that runs every instruction of the run for a lane before going to the next lane, with the values
 * the run produces kept in JVM locals ({@link LaneCodeGen} turns the plan into bytecode, {@link FusedRun} executes
 * it). Because each instruction reads and writes only its own lane, lane by lane is the same as instruction by
 * instruction. {@code s_nop} and {@code s_waitcnt}, which do nothing in hipsim, do not end a run, and neither do
 * dword LDS reads whose address register the run has not written (nothing in a run writes LDS, and {@link
 * FusedRun} checks their addresses before the run: a lane out of bounds or misaligned sends the run to its
 * instructions one by one, which report or handle it). What is not lane-wise ends the run:
 *
 * <ul>
 *   <li>only the operations {@link FusibleOp} lists, in their plain form (no DPP, SDWA, input modifiers or clamp)
 *       and with VGPR (not AGPR) vector operands;
 *   <li>scalar sources are read once, before the run: a run ends before an instruction that reads, as a scalar,
 *       an SGPR an earlier instruction of the run wrote as a lane mask (a carry or compare result). A lane mask
 *       read back as a mask (the carry-in of {@code v_addc_co_u32}, the select of {@code v_cndmask_b32}) is fine:
 *       each lane takes its own bit of the earlier result;
 *   <li>nothing may write EXEC (so no {@code v_cmpx}), and GPR indexing, which {@link FusedRun} checks at run
 *       time, sends the run to its instructions one by one; so does a MODE other than the default float mode when
 *       the run has f32 instructions.
 * </ul>
 */
final class LaneFusion {
  /** A run stops growing here: longer runs make longer methods for the JIT with little more to gain. */
  static final int MAX_INSTRUCTIONS = 40;
  static final int MAX_SCALAR_SLOTS = 32;
  static final int MAX_MASKS = 16;
  static final int MAX_LDS_READS = 16;
  static final int MAX_LDS_WRITES = 8;
  static final int MAX_GLOBAL_LOADS = 8;
  static final int MAX_GLOBAL_STORES = 4;

  /** Where a step's operand comes from. */
  enum From {
    /** A VGPR ({@code index}), 32 bits. */
    VGPR,
    /** A VGPR pair from {@code index}, 64 bits. */
    VGPR64,
    /** A scalar read before the run: 32-bit slot {@code index}. */
    SCALAR,
    /** A 64-bit scalar read before the run: slots {@code index} (low) and {@code index + 1}. */
    SCALAR64,
    /** A lane mask read before the run: mask input {@code index}. */
    MASK_ENTRY,
    /** The lane mask step {@code index} of the run produced. */
    MASK_STEP
  }

  record Source(From from, int index) {}

  /**
   * What the bound and alignment check of an LDS access in a run needs: the address VGPR, the bytes past the
   * address the access reaches, the or of its byte offsets, and whether the check is in the lane loop. An address
   * no earlier instruction of the run writes is checked for every lane before the run ({@link FusedRun}); one the
   * run computes is checked in the loop, where a lane out of bounds or misaligned sends the run back to its
   * instructions one by one ({@link LaneBail}).
   */
  sealed interface LdsAccess permits LdsRead, LdsWrite {
    int address();

    long reach();

    int offsetBits();

    boolean checked();
  }

  /**
   * A dword LDS read in a run (ds_read_b32 … b128, ds_read2(st64)_b32/b64): the address VGPR; the first destination
   * VGPR; the byte offsets of the (first and second) address; dwords per address; whether the address is checked in
   * the lane loop ({@link LdsAccess}).
   */
  record LdsRead(int address, int vdst, int offset0, int offset1, int dwords, boolean two, boolean checked)
      implements LdsAccess {
    /** VGPRs written: dwords per address, for one or two addresses. */
    int registers() {
      return two ? 2 * dwords : dwords;
    }

    @Override
    public long reach() {
      return Math.max(offset0, offset1) + 4L * dwords;
    }

    @Override
    public int offsetBits() {
      return offset0 | offset1;
    }

    LdsRead checkedInLoop() {
      return new LdsRead(address, vdst, offset0, offset1, dwords, two, true);
    }
  }

  /**
   * A dword LDS write in a run (ds_write_b32 … b128): the address VGPR, the first data VGPR, the byte offset, the
   * dwords, whether the address is checked in the lane loop ({@link LdsAccess}). The lane loop computes each
   * lane's word index and data; the writes are made after it, one instruction after the other in lane order
   * ({@link FusedRun}), and no LDS read follows a write in a run, so every read of the run reads before any write.
   */
  record LdsWrite(int address, int data, int offset, int dwords, boolean checked) implements LdsAccess {
    @Override
    public long reach() {
      return offset + 4L * dwords;
    }

    @Override
    public int offsetBits() {
      return offset;
    }

    LdsWrite checkedInLoop() {
      return new LdsWrite(address, data, offset, dwords, true);
    }
  }

  /**
   * The address of a global access in a run: a VGPR pair from {@code register}, or the SGPR pair {@code base} plus
   * the zero-extended VGPR {@code register}; plus the instruction's immediate offset.
   */
  record GlobalAddress(int register, dev.hipsim.isa.decode.Operand base, int offset) {
    /** The VGPRs the address reads. */
    int registers() {
      return base == null ? 2 : 1;
    }
  }

  /**
   * A global load of whole dwords into VGPRs (global_load_dword … dwordx4) in a run: its address, the first
   * destination VGPR and the dwords. Loads read memory that no instruction of a run writes, so lane by lane is the
   * same as instruction by instruction for them too; a lane that faults sends the run back to its instructions one
   * by one ({@link FusedRun}), which fault where the hardware does.
   */
  record GlobalLoad(GlobalAddress address, int vdst, int dwords) {}

  /**
   * A global store of whole dwords from VGPRs (global_store_dword … dwordx4) at the end of a run: the instruction
   * (for its faults), its address, the data's first VGPR and dwords. Stores come after every other step of their
   * run: the lane loop computes each lane's address and data, and the stores are made after it, one instruction
   * after the other over all lanes ({@link FusedRun}), so every load of the run has read memory before any store
   * writes it, as instruction by instruction.
   */
  record GlobalStore(Instruction instruction, GlobalAddress address, int data, int dwords) {}

  /**
   * One instruction of a run: the operation, its sources (null when absent; a global access's address, then its
   * scalar base), its vector destination (-1: none; a pair when the result is 64-bit), its lane-mask output (-1:
   * none), and what a memory step accesses.
   */
  record Step(FusibleOp op, Source a, Source b, Source c, int vdst, int maskOut, LdsRead lds, GlobalLoad load,
      GlobalStore store, LdsWrite ldsWrite) {
    Step(FusibleOp op, Source a, Source b, Source c, int vdst, int maskOut) {
      this(op, a, b, c, vdst, maskOut, null, null, null, null);
    }

    /** The VGPRs the step writes, from {@code vdst}. */
    int written() {
      if (vdst < 0) return 0;
      if (lds != null) return lds.registers();
      if (load != null) return load.dwords();
      return op.shape() == FusibleOp.Shape.SHIFT64 ? 2 : 1;
    }

    /** The step's VGPR sources, as many as a pair covers for a 64-bit one. */
    void reads(java.util.BitSet out) {
      for (Source x : new Source[] {a, b, c}) {
        if (x == null) continue;
        if (x.from() == From.VGPR) out.set(x.index());
        if (x.from() == From.VGPR64) out.set(x.index(), x.index() + 2);
      }
      if (store != null) out.set(store.data(), store.data() + store.dwords());
      if (ldsWrite != null) out.set(ldsWrite.data(), ldsWrite.data() + ldsWrite.dwords());
    }
  }

  /**
   * A run found at an address: its instructions (transparent ones included), the steps its VALU and LDS
   * instructions become, the scalar sources read before the run (and their widths), the lane masks read before it
   * and those written after it, and its scalar ALU instructions (indices into its instructions), which run once
   * each after the lane loop ({@link Builder#addScalar}).
   */
  record Plan(List<Instruction> instructions, List<Step> steps, List<Src> scalars, int[] scalarWidths,
      List<Src> maskInputs, List<Dst> maskOutputs, boolean endsWave, int[] scalarInstructions) {
    int scalarSlots() {
      int n = 0;
      for (int w : scalarWidths) n += w == 64 ? 2 : 1;
      return n;
    }

    /** One past the highest VGPR the run writes (0 when it writes none). */
    int vgprLimit() {
      int limit = 0;
      for (Step s : steps) {
        if (s.written() > 0) limit = Math.max(limit, s.vdst() + s.written());
      }
      return limit;
    }

    /** Whether the run has f32 instructions (exact in the default float mode only). */
    boolean floats() {
      for (Step s : steps) {
        if (s.op().shape().isFloat()) return true;
      }
      return false;
    }

    /** Whether the run loads from global memory (the only step that can fault). */
    boolean loadsGlobal() {
      return !collect(Step::load).isEmpty();
    }

    /** Whether the run checks an LDS address in its lane loop. */
    boolean checksLdsInLoop() {
      for (LdsAccess a : ldsAccesses()) {
        if (a.checked()) return true;
      }
      return false;
    }

    /**
     * Whether the generated code may stop part-way and leave the run to its instructions one by one: a global load
     * that faults, or an LDS address checked in the loop.
     */
    boolean mayStopPartWay() {
      return loadsGlobal() || checksLdsInLoop();
    }

    /** The run's LDS reads and writes, in order. */
    List<LdsAccess> ldsAccesses() {
      return collect(s -> s.lds() != null ? s.lds() : s.ldsWrite());
    }

    /** The run's LDS writes, in order. */
    List<LdsWrite> ldsWrites() {
      return collect(Step::ldsWrite);
    }

    /** What {@code part} gives for the steps that have it, in order. */
    private <T> List<T> collect(java.util.function.Function<Step, T> part) {
      List<T> out = new ArrayList<>();
      for (Step s : steps) {
        T x = part.apply(s);
        if (x != null) out.add(x);
      }
      return out;
    }

    /**
     * The VGPRs a lane reads before the run writes them, and which the run then writes: what a run that stops
     * part-way must put back before its instructions run again one by one. (A register the run writes before any
     * read is computed again from the others.)
     */
    int[] overwrittenInputs() {
      java.util.BitSet written = new java.util.BitSet();
      java.util.BitSet inputs = new java.util.BitSet();
      java.util.BitSet read = new java.util.BitSet();
      for (Step s : steps) {
        read.clear();
        s.reads(read);
        read.andNot(written);
        inputs.or(read);
        if (s.written() > 0) written.set(s.vdst(), s.vdst() + s.written());
      }
      inputs.and(written);
      int[] registers = new int[inputs.cardinality()];
      for (int r = inputs.nextSetBit(0), i = 0; r >= 0; r = inputs.nextSetBit(r + 1)) registers[i++] = r;
      return registers;
    }

    /** The run's global stores, in order (its last steps). */
    List<GlobalStore> stores() {
      return collect(Step::store);
    }

    /** The run's LDS reads, in order. */
    List<LdsRead> ldsReads() {
      return collect(Step::lds);
    }
  }

  /** Whether a run may start with {@code inst}, compiled alone as {@code op}. */
  static boolean mayStart(Instruction inst, Op op) {
    return fusible(inst) || (op instanceof LdsOps.Read && ((LdsOps.Read) op).fusible() != null)
        || (op instanceof LdsOps.Write && ((LdsOps.Write) op).fusible() != null)
        || (op instanceof FlatOps.Access && ((FlatOps.Access) op).fusible() != null);
  }

  /** Whether {@code inst} may be part of a run at all (before looking at its neighbours). */
  static boolean fusible(Instruction inst) {
    if (!inst.isValid()) return false;
    Encoding e = inst.encoding();
    if (e != Encoding.VOP1 && e != Encoding.VOP2 && e != Encoding.VOPC && e != Encoding.VOP3) return false;
    FusibleOp f = FusibleOp.of(inst.operation());
    if (f == null || inst.clamp()) return false;
    ValuSpec spec = ValuTable.get(inst.operation());
    return spec != null && spec.fn() != null && ValuKernels.plain(inst, spec);
  }

  /**
   * A run of the shapes kernels start with (address arithmetic with a carry chain, a compare, a global load, f32
   * arithmetic), as gfx90a machine words: generated and run once by {@link #warmUp}.
   */
  private static final int[] SAMPLE = {
    0x7D880002, // v_cmp_gt_i32_e32 vcc, s2, v0
    0xD28F0000, 0x00020082, // v_lshlrev_b64 v[0:1], 2, v[0:1]
    0x7E060203, // v_mov_b32_e32 v3, s3
    0x32040002, // v_add_co_u32_e32 v2, vcc, s2, v0
    0x38060303, // v_addc_co_u32_e32 v3, vcc, v3, v1, vcc
    0xDC508000, 0x077F0002, // global_load_dword v7, v[2:3], off
    0x02040F06, // v_add_f32_e32 v2, v6, v7
  };

  private static final java.util.concurrent.atomic.AtomicBoolean WARM = new java.util.concurrent.atomic.AtomicBoolean();

  /**
   * Generates and runs a sample run once per process, so that the first dispatch does not pay for loading and
   * linking the code generator and the JVM's machinery for hidden classes (10-15 ms of a cold first dispatch).
   */
  static void warmUp() {
    if (!WARM.compareAndSet(false, true)) return;
    FusedLanes lanes = LaneCodeGen.generate(samplePlan(), false);
    try {
      // every register and scalar 0: each lane loads from address 0
      lanes.run(new int[Wave.MAX_VGPRS * Wave.LANES], new int[MAX_SCALAR_SLOTS], new long[MAX_MASKS], -1L,
          dev.hipsim.isa.fp.FpMode.DEFAULT, null, 0, new dev.hipsim.isa.mem.FlatMemory(0, 64),
          new long[MAX_GLOBAL_STORES][Wave.LANES], new int[MAX_GLOBAL_STORES * 4 * Wave.LANES],
          new int[MAX_LDS_WRITES * Wave.LANES], new int[MAX_LDS_WRITES * 4 * Wave.LANES]);
    } catch (dev.hipsim.isa.mem.GpuMemoryFault f) {
      throw new IllegalStateException("the warm-up's load faulted: " + f.getMessage(), f);
    }
  }

  /** The plan of {@link #SAMPLE}. */
  static Plan samplePlan() {
    dev.hipsim.isa.decode.Decoder decoder = new dev.hipsim.isa.decode.Decoder(dev.hipsim.isa.decode.Target.GFX90A);
    byte[] code = new byte[SAMPLE.length * 4];
    for (int i = 0; i < SAMPLE.length; i++) {
      for (int b = 0; b < 4; b++) code[4 * i + b] = (byte) (SAMPLE[i] >>> (8 * b));
    }
    Builder builder = new Builder();
    for (int at = 0; at < code.length; ) {
      Instruction inst = decoder.decode(code, at, code.length, at);
      if (!builder.add(inst, OpCompiler.compile(inst))) throw new IllegalStateException("the sample run does not fuse at " + inst);
      at += inst.size();
    }
    return builder.plan();
  }

  /** An instruction the interpreter executes as nothing but a step of the program counter. */
  static boolean transparent(Instruction inst) {
    return inst.isValid() && (inst.operation() == dev.hipsim.isa.decode.Operation.S_WAITCNT
        || inst.operation() == dev.hipsim.isa.decode.Operation.S_NOP);
  }

  /** Builds a plan instruction by instruction; {@link #add} refuses the first instruction that cannot join. */
  static final class Builder {
    private final List<Instruction> instructions = new ArrayList<>();
    private final List<Step> steps = new ArrayList<>();
    private final List<Src> scalars = new ArrayList<>();
    private final List<Integer> scalarWidths = new ArrayList<>();
    private int nextSlot;
    private final List<Src> maskInputs = new ArrayList<>();
    private final List<Dst> maskOutputs = new ArrayList<>();
    private int ldsReads;
    private int ldsWrites;
    private int globalLoads;
    private int globalStores;
    /** Whether the wave ends right after the run: the instruction that ended it is s_endpgm. */
    private boolean endsWave;
    /** The VGPRs earlier instructions of the run write. */
    private final java.util.BitSet written = new java.util.BitSet(Wave.MAX_VGPRS);
    /** The step that last wrote each scalar register as a lane mask, or -1. */
    private final int[] maskWriter = new int[Wave.SGPR_SLOTS];
    /** The SGPRs the run's scalar instructions write: later steps may not read them. */
    private final java.util.BitSet scalarWritten = new java.util.BitSet(Wave.SGPR_SLOTS);
    /** The SGPRs the run's scalar instructions read or write: later steps may not write them as lane masks. */
    private final java.util.BitSet scalarTouched = new java.util.BitSet(Wave.SGPR_SLOTS);
    /** The SGPRs the run's scalar instructions read: a lane mask there is read after the lane loop. */
    private final java.util.BitSet scalarRead = new java.util.BitSet(Wave.SGPR_SLOTS);
    /** The run's scalar instructions, as indices into {@link #instructions}. */
    private final List<Integer> scalarInstructions = new ArrayList<>();
    /** Whether the run has ended with an instruction that writes EXEC (nothing may follow it). */
    private boolean closed;

    Builder() {
      Arrays.fill(maskWriter, -1);
    }

    /** The VALU instructions in the run (not counting the transparent ones). */
    int steps() {
      return steps.size();
    }

    /** The scalar ALU instructions in the run. */
    int scalars() {
      return scalarInstructions.size();
    }

    /**
     * Adds {@code inst} (compiled alone as {@code op}) to the run, or returns false (changing nothing) when it
     * cannot join.
     */
    boolean add(Instruction inst, Op op) {
      if (closed || instructions.size() >= MAX_INSTRUCTIONS) return false;
      if (!instructions.isEmpty() && transparent(inst)) {
        // s_nop and s_waitcnt do nothing here (memory operations complete at once): the run goes on past them.
        instructions.add(inst);
        return true;
      }
      GlobalStore store = op instanceof FlatOps.Access ? ((FlatOps.Access) op).fusibleStore() : null;
      if (store != null) return !instructions.isEmpty() && addGlobalStore(inst, store);
      if (globalStores > 0) {
        // Only stores follow a store: they are made after the lane loop, when every other step has run.
        endsWave = inst.isValid() && inst.operation() == dev.hipsim.isa.decode.Operation.S_ENDPGM;
        return false;
      }
      if (op instanceof ScalarAluOps.Sop) return !instructions.isEmpty() && addScalar(inst, (ScalarAluOps.Sop) op);
      LdsRead read = op instanceof LdsOps.Read ? ((LdsOps.Read) op).fusible() : null;
      if (read != null) return addLdsRead(inst, read);
      LdsWrite write = op instanceof LdsOps.Write ? ((LdsOps.Write) op).fusible() : null;
      if (write != null) return addLdsWrite(inst, write);
      GlobalLoad load = op instanceof FlatOps.Access ? ((FlatOps.Access) op).fusible() : null;
      if (load != null) return addGlobalLoad(inst, load);
      if (!fusible(inst)) return false;
      FusibleOp f = FusibleOp.of(inst.operation());
      ValuSpec spec = ValuTable.get(inst.operation());
      int scalarMark = scalars.size();
      int slotMark = nextSlot;
      int maskInMark = maskInputs.size();
      Source a = source(inst.src0(), spec.w0());
      Source b = spec.w1() == 0 ? null : source(inst.src1(), spec.w1());
      Source c = null;
      boolean ok = a != null && (spec.w1() == 0 || b != null);
      if (ok && f.shape().readsMask()) {
        c = maskSource(inst.src2());
        ok = c != null;
      } else if (ok && spec.has(ValuSpec.ACCUMULATE)) {
        // v_fmac: the destination is the addend (plain() has checked it is a VGPR without modifiers)
        Dst d = Dst.of(inst.vdst());
        ok = d != null && d.vector && !d.agpr;
        if (ok) c = new Source(From.VGPR, d.index);
      } else if (ok && spec.w2() != 0) {
        c = source(inst.src2(), spec.w2());
        ok = c != null;
      }
      int vdst = -1;
      Dst maskDst = null;
      if (ok && !f.shape().masksOnly()) {
        Dst d = Dst.of(inst.vdst());
        ok = d != null && d.vector && !d.agpr && d.index + (spec.wd() == 64 ? 2 : 1) <= Wave.MAX_VGPRS / 2;
        if (ok) vdst = d.index;
      }
      if (ok && (f.shape().masksOnly() || f.shape().carries())) {
        maskDst = Dst.of(inst.sdst());
        ok = maskDst != null && !maskDst.vector && writableMask(maskDst)
            && maskInputs.size() + maskOutputs.size() < MAX_MASKS;
      }
      if (!ok) {
        while (scalars.size() > scalarMark) {
          scalars.remove(scalars.size() - 1);
          scalarWidths.remove(scalarWidths.size() - 1);
        }
        nextSlot = slotMark;
        while (maskInputs.size() > maskInMark) maskInputs.remove(maskInputs.size() - 1);
        return false;
      }
      int maskOut = -1;
      if (maskDst != null) {
        maskOut = maskOutputs.size();
        maskOutputs.add(maskDst);
        if (maskDst.index >= 0) {
          maskWriter[maskDst.index] = steps.size();
          maskWriter[maskDst.index + 1] = steps.size();
        }
      }
      steps.add(new Step(f, a, b, c, vdst, maskOut));
      if (vdst >= 0) written.set(vdst, vdst + (spec.wd() == 64 ? 2 : 1));
      instructions.add(inst);
      return true;
    }

    /**
     * Adds a scalar ALU instruction. It runs once, after the lane loop and the write-back of the run's lane masks,
     * in order with the run's other scalar instructions. So later steps may not read what it writes (steps read
     * their scalars before the loop), nor write a lane mask to what it reads or writes. Earlier steps read their
     * scalars before the loop, and the masks they wrote are in their registers by the time it runs: it may read
     * them, and write what they read or wrote.
     *
     * <p>Only the families that move, compute, compare and test bits, and only on SGPRs below M0 (VCC included),
     * constants and literals: nothing that touches M0, the program counter or the hardware registers, and nothing
     * that can fail, since the steps after it in the run have run by then. EXEC only by s_*_saveexec_b64 and
     * s_*_wrexec_b64, and then as the run's last instruction: it runs after everything else of the run, LDS
     * writes and stores included, which take the lanes of the EXEC the run started with.
     */
    private boolean addScalar(Instruction inst, ScalarAluOps.Sop op) {
      boolean writesExec = op instanceof ScalarAluOps.ExecMasks;
      if (!(op instanceof ScalarAluOps.Moves || op instanceof ScalarAluOps.Arithmetic
          || op instanceof ScalarAluOps.Logic || op instanceof ScalarAluOps.BitFields
          || op instanceof ScalarAluOps.Compares || (writesExec && !steps.isEmpty()))) {
        return false;
      }
      // The families read their sources as 32 or 64 bits by operation: a name with 64 in it may read or write
      // pairs, and every operand is taken as a pair then (for the checks only).
      int dwords = inst.operation().name().contains("64") ? 2 : 1;
      java.util.BitSet reads = new java.util.BitSet(Wave.SGPR_SLOTS);
      java.util.BitSet writes = new java.util.BitSet(Wave.SGPR_SLOTS);
      if (!scalarOperand(op.s0, dwords, reads) || !scalarOperand(op.s1, dwords, reads)) return false;
      if (op.dst != null) {
        if (op.dst.vector || op.dst.index >= Wave.M0) return false;
        if (op.dst.index >= 0) writes.set(op.dst.index, op.dst.index + dwords);
        // SOPK forms read their destination too (s_addk_i32, s_cmpk_*)
        if (!scalarOperand(op.kdst, dwords, reads)) return false;
      }
      scalarWritten.or(writes);
      scalarRead.or(reads);
      scalarTouched.or(reads);
      scalarTouched.or(writes);
      scalarInstructions.add(instructions.size());
      instructions.add(inst);
      closed = writesExec;
      return true;
    }

    /** Adds the SGPRs a scalar instruction's source reads to {@code into}; false for what a run cannot defer. */
    private static boolean scalarOperand(Src s, int dwords, java.util.BitSet into) {
      if (s == null || s.kind == Src.CONST) return true;
      if (s.kind != Src.SGPR || s.index < 0 || s.index + dwords > Wave.M0) return false;
      into.set(s.index, s.index + dwords);
      return true;
    }

    private boolean addLdsRead(Instruction inst, LdsRead read) {
      // A read after a write would read what the write, made after the lane loop, has not written yet.
      if (ldsReads >= MAX_LDS_READS || ldsWrites > 0
          || read.vdst() + read.registers() > Wave.MAX_VGPRS / 2 || read.address() >= Wave.MAX_VGPRS / 2) {
        return false;
      }
      if (written.get(read.address())) read = read.checkedInLoop();
      ldsReads++;
      steps.add(new Step(FusibleOp.LDS_READ, new Source(From.VGPR, read.address()), null, null, read.vdst(), -1,
          read, null, null, null));
      instructions.add(inst);
      written.set(read.vdst(), read.vdst() + read.registers());
      return true;
    }

    private boolean addLdsWrite(Instruction inst, LdsWrite write) {
      if (ldsWrites >= MAX_LDS_WRITES || write.data() + write.dwords() > Wave.MAX_VGPRS / 2
          || write.address() >= Wave.MAX_VGPRS / 2) {
        return false;
      }
      if (written.get(write.address())) write = write.checkedInLoop();
      ldsWrites++;
      steps.add(new Step(FusibleOp.LDS_WRITE, new Source(From.VGPR, write.address()), null, null, -1, -1, null,
          null, null, write));
      instructions.add(inst);
      return true;
    }

    private boolean addGlobalStore(Instruction inst, GlobalStore store) {
      if (globalStores >= MAX_GLOBAL_STORES || store.data() + store.dwords() > Wave.MAX_VGPRS / 2) return false;
      Source[] address = addressSources(store.address());
      if (address == null) return false;
      globalStores++;
      steps.add(new Step(FusibleOp.GLOBAL_STORE, address[0], address[1], null, -1, -1, null, null, store, null));
      instructions.add(inst);
      return true;
    }

    private boolean addGlobalLoad(Instruction inst, GlobalLoad load) {
      if (globalLoads >= MAX_GLOBAL_LOADS || load.vdst() + load.dwords() > Wave.MAX_VGPRS / 2) return false;
      Source[] address = addressSources(load.address());
      if (address == null) return false;
      globalLoads++;
      steps.add(new Step(FusibleOp.GLOBAL_LOAD, address[0], address[1], null, load.vdst(), -1, null, load, null,
          null));
      instructions.add(inst);
      written.set(load.vdst(), load.vdst() + load.dwords());
      return true;
    }

    /**
     * The sources of a global access's address: its VGPR (a pair without a base) and its 64-bit scalar base (null
     * without); null when the run cannot read them (the base then takes no scalar slot).
     */
    private Source[] addressSources(GlobalAddress a) {
      if (a.register() + a.registers() > Wave.MAX_VGPRS / 2) return null;
      Source base = null;
      if (a.base() != null) {
        base = source(a.base(), 64);
        if (base == null) return null;
      }
      return new Source[] {new Source(a.base() == null ? From.VGPR64 : From.VGPR, a.register()), base};
    }

    /** A register value or scalar at {@code width} bits; null when the run cannot read it. */
    private Source source(dev.hipsim.isa.decode.Operand operand, int width) {
      if (operand == null || (width != 32 && width != 64)) return null;
      Src s = Src.of(operand, width);
      if (s.kind == Src.VGPR) {
        if (s.index + (width == 64 ? 2 : 1) > Wave.MAX_VGPRS / 2) return null;
        Source copied = width == 32 ? scalarCopiedTo(s.index) : null;
        return copied != null ? copied : new Source(width == 64 ? From.VGPR64 : From.VGPR, s.index);
      }
      if (s.kind == Src.SGPR) {
        if (s.index < 0 || s.index + (width == 64 ? 1 : 0) >= Wave.SGPR_SLOTS) return null;
        if (writtenAsMask(s.index) || (width == 64 && writtenAsMask(s.index + 1))) return null;
        if (scalarWritten.get(s.index) || (width == 64 && scalarWritten.get(s.index + 1))) return null;
      } else if (s.kind != Src.CONST) {
        return null;
      }
      int slots = width == 64 ? 2 : 1;
      if (nextSlot + slots > MAX_SCALAR_SLOTS) return null;
      int slot = nextSlot;
      nextSlot += slots;
      scalars.add(s);
      scalarWidths.add(width);
      return new Source(width == 64 ? From.SCALAR64 : From.SCALAR, slot);
    }

    /**
     * The scalar VGPR {@code r} holds in every lane at this point of the run, when the last step to write it copied
     * one there (v_mov_b32 from an SGPR or a constant); null otherwise. Reading the scalar instead lets the generated
     * code compute what depends only on scalars once, before its lane loop: compilers put an address's high half in a
     * VGPR so ({@code v_mov_b32 v3, s3}, then {@code v_addc_co_u32 v3, vcc, v3, v1, vcc}). The copy still writes the
     * VGPR; EXEC does not change inside a run, so a lane that reads the VGPR is one the copy wrote.
     */
    private Source scalarCopiedTo(int r) {
      for (int i = steps.size() - 1; i >= 0; i--) {
        Step st = steps.get(i);
        int n = st.written();
        if (n > 0 && r >= st.vdst() && r < st.vdst() + n) {
          return st.op().shape() == FusibleOp.Shape.COPY && st.a().from() == From.SCALAR ? st.a() : null;
        }
      }
      return null;
    }

    /** A lane-mask source (64 bits): the bit an earlier step produced, or the mask as it was before the run. */
    private Source maskSource(dev.hipsim.isa.decode.Operand operand) {
      if (operand == null || operand.mods() != 0) return null;
      Src s = Src.of(operand, 64);
      if (s.kind == Src.SGPR) {
        if (s.index < 0 || s.index + 1 >= Wave.SGPR_SLOTS) return null;
        // (before a mask an earlier step made: a scalar instruction may have written the register since)
        if (scalarWritten.get(s.index) || scalarWritten.get(s.index + 1)) return null;
        int w = maskWriter[s.index];
        if (w >= 0 && maskWriter[s.index + 1] == w && maskOutputs.get(steps.get(w).maskOut()).index == s.index) {
          return new Source(From.MASK_STEP, w);
        }
        if (writtenAsMask(s.index) || writtenAsMask(s.index + 1)) return null;
      } else if (s.kind != Src.CONST) {
        return null;
      }
      if (maskInputs.size() + maskOutputs.size() >= MAX_MASKS) return null;
      maskInputs.add(s);
      return new Source(From.MASK_ENTRY, maskInputs.size() - 1);
    }

    private boolean writtenAsMask(int sgpr) {
      return sgpr >= 0 && sgpr < Wave.SGPR_SLOTS && maskWriter[sgpr] >= 0;
    }

    /**
     * A mask destination the run may write: an SGPR pair (or VCC, or the null register), never EXEC, and not a
     * register a scalar instruction of the run reads or writes (it runs after the masks are written back).
     */
    private boolean writableMask(Dst d) {
      if (d.index < 0) return true;
      return d.index + 1 < Wave.SGPR_SLOTS && d.index + 1 != Wave.EXEC_LO && d.index != Wave.EXEC_LO
          && d.index != Wave.EXEC_HI && scalarTouched.get(d.index, d.index + 2).isEmpty();
    }

    Plan plan() {
      int[] widths = new int[scalarWidths.size()];
      for (int i = 0; i < widths.length; i++) widths[i] = scalarWidths.get(i);
      // Only the lane masks the wave can still read are written: a step's mask output is dropped when later steps
      // of the run write both its registers, when it goes to the null register, and when the wave ends after the
      // run, unless a scalar instruction of the run reads it (those run after the lane loop, from the registers).
      // The step still computes its lane's bit for the steps of the run that read it. (The outputs kept are written
      // in step order, so a later one that covers half of an earlier one's pair wins that half.)
      List<Dst> live = new ArrayList<>();
      List<Step> kept = new ArrayList<>(steps.size());
      for (int i = 0; i < steps.size(); i++) {
        Step s = steps.get(i);
        if (s.maskOut() < 0) {
          kept.add(s);
          continue;
        }
        Dst d = maskOutputs.get(s.maskOut());
        boolean readAfter = !endsWave || (d.index >= 0 && !scalarRead.get(d.index, d.index + 2).isEmpty());
        boolean read = readAfter && d.index >= 0 && (maskWriter[d.index] == i || maskWriter[d.index + 1] == i);
        int out = -1;
        if (read) {
          out = live.size();
          live.add(d);
        }
        kept.add(new Step(s.op(), s.a(), s.b(), s.c(), s.vdst(), out, s.lds(), s.load(), s.store(), s.ldsWrite()));
      }
      int[] deferred = new int[scalarInstructions.size()];
      for (int i = 0; i < deferred.length; i++) deferred[i] = scalarInstructions.get(i);
      return new Plan(List.copyOf(instructions), List.copyOf(kept), List.copyOf(scalars), widths,
          List.copyOf(maskInputs), List.copyOf(live), endsWave, deferred);
    }
  }
}
