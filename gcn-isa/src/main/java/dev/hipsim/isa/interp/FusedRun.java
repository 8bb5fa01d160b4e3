package dev.hipsim.isa.interp;

import dev.hipsim.isa.alu.F32Ops;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.exec.InstructionMix;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;
import java.util.ArrayList;
import java.util.List;

/**
 * A run of lane-wise VALU instructions executed at once by generated code ({@link LaneFusion}, {@link
 * LaneCodeGen}): the interpreter finds it in the slot of the run's first instruction and counts it as all of its
 * instructions. Scalar ALU instructions among them run once each after the lane loop, in order. Each instruction
 * also keeps its own op, which the debugger steps through ({@link CodeCache#at}) and which runs the instructions one
 * by one under GPR indexing.
 */
final class FusedRun extends Op {
  private final Op[] parts;
  /** The generated code for a full EXEC: no test per lane. */
  private final FusedLanes allLanes;
  /**
   * The generated code that tests each lane's EXEC bit, made the first time the run meets a partial EXEC (many
   * runs never do, and the JIT then compiles half the code).
   */
  private volatile FusedLanes someLanes;
  private final LaneFusion.Plan plan;
  private final Src[] scalars;
  private final boolean[] wide;
  private final Src[] maskInputs;
  private final Dst[] maskOutputs;
  private final boolean floats;
  /** The LDS reads' address registers, and for each the bytes past the address its reads reach and their offsets. */
  private final int[] ldsAddressRegisters;
  private final long[] ldsReach;
  private final int[] ldsOffsetBits;
  /**
   * When the run can stop part-way (a global load faults, an LDS address checked in the loop fails): the VGPRs to
   * put back before its instructions run one by one ({@link LaneFusion.Plan#overwrittenInputs}); null otherwise.
   */
  private final int[] overwrittenInputs;
  /** The run's stores, made after its lane loop. */
  private final LaneFusion.GlobalStore[] stores;
  /** The run's LDS writes, made after its lane loop. */
  private final LaneFusion.LdsWrite[] ldsWrites;
  /** Whether the run reads or writes LDS. */
  private final boolean usesLds;
  /** The run's scalar ALU instructions, which run after its lane loop ({@link LaneFusion.Builder#addScalar}). */
  private final Op[] scalarParts;

  private FusedRun(Op[] parts, int size, int[] mix, FusedLanes allLanes, LaneFusion.Plan plan) {
    super(parts[0].instruction, size, mix);
    this.parts = parts;
    this.allLanes = allLanes;
    this.plan = plan;
    this.scalars = plan.scalars().toArray(new Src[0]);
    this.wide = new boolean[scalars.length];
    for (int i = 0; i < wide.length; i++) wide[i] = plan.scalarWidths()[i] == 64;
    this.maskInputs = plan.maskInputs().toArray(new Src[0]);
    this.maskOutputs = plan.maskOutputs().toArray(new Dst[0]);
    this.floats = plan.floats();
    this.overwrittenInputs = plan.mayStopPartWay() ? plan.overwrittenInputs() : null;
    this.stores = plan.stores().toArray(new LaneFusion.GlobalStore[0]);
    this.ldsWrites = plan.ldsWrites().toArray(new LaneFusion.LdsWrite[0]);
    List<LaneFusion.LdsAccess> lds = plan.ldsAccesses();
    this.usesLds = !lds.isEmpty();
    int[] deferred = plan.scalarInstructions();
    this.scalarParts = new Op[deferred.length];
    for (int k = 0; k < deferred.length; k++) scalarParts[k] = parts[deferred[k]];
    // One bound and alignment check per address register, before the run, for the LDS accesses whose address no
    // earlier instruction of the run writes: the accesses from one register differ only in offsets.
    java.util.Map<Integer, long[]> byRegister = new java.util.TreeMap<>();
    for (LaneFusion.LdsAccess a : lds) {
      if (a.checked()) continue;
      long[] e = byRegister.computeIfAbsent(a.address(), k -> new long[2]);
      e[0] = Math.max(e[0], a.reach());
      e[1] |= a.offsetBits();
    }
    this.ldsAddressRegisters = new int[byRegister.size()];
    this.ldsReach = new long[byRegister.size()];
    this.ldsOffsetBits = new int[byRegister.size()];
    int i = 0;
    for (java.util.Map.Entry<Integer, long[]> e : byRegister.entrySet()) {
      ldsAddressRegisters[i] = e.getKey();
      ldsReach[i] = e.getValue()[0];
      ldsOffsetBits[i] = (int) e.getValue()[1];
      i++;
    }
  }

  /**
   * A run found but not generated yet: its instructions' ops, its plan, its size in bytes. {@link #generate} makes
   * the op.
   */
  record Candidate(List<Op> parts, LaneFusion.Plan plan, int size) {
    FusedRun generate() {
      int[] mix = new int[parts.size()];
      for (int i = 0; i < mix.length; i++) mix[i] = InstructionMix.categoryOf(plan.instructions().get(i).operation());
      return new FusedRun(parts.toArray(new Op[0]), size, mix, LaneCodeGen.generate(plan, false), plan);
    }
  }

  /**
   * The run that starts with {@code first} (compiled as {@code firstOp}) at its address, reading the instructions
   * that follow from {@code code}; null when fewer than two VALU instructions can be fused there.
   */
  static Candidate plan(Instruction first, Op firstOp, CodeCache code, GpuMemory memory) {
    LaneFusion.Builder builder = new LaneFusion.Builder();
    if (!builder.add(first, firstOp)) return null;
    List<Op> parts = new ArrayList<>();
    parts.add(firstOp);
    long pc = first.address() + first.size();
    while (true) {
      Instruction next;
      try {
        next = code.decode(pc, memory);
      } catch (GpuMemoryFault f) {
        break; // the end of the code: the run ends with what was readable
      }
      Op op = OpCompiler.compile(next);
      if (!builder.add(next, op)) break;
      parts.add(op);
      pc += next.size();
    }
    // One VALU instruction (with s_waitcnt or s_nop after it) is not worth a class of its own; with scalar
    // instructions (a compare, then s_and_saveexec_b64 on its mask) it is.
    if (builder.steps() == 0 || (builder.steps() == 1 && builder.scalars() == 0)) return null;
    return new Candidate(List.copyOf(parts), builder.plan(), (int) (pc - first.address()));
  }

  /**
   * The workgroup's LDS dwords when every active lane's every LDS read in the run is dword-aligned and inside the
   * workgroup's LDS (the address registers hold now what the reads will use: no instruction of the run writes
   * them); null otherwise, or when the debugger watches LDS.
   */
  private int[] ldsWords(Wave w) {
    dev.hipsim.isa.exec.Lds lds = w.group.lds();
    // (Only the accesses whose address the run does not compute are checked here; the others in the loop.)
    int[] words = lds.wordsIfPlain();
    if (words == null) return null;
    int[] v = w.v;
    long exec = w.exec();
    for (int i = 0; i < ldsAddressRegisters.length; i++) {
      int ab = ldsAddressRegisters[i] * Wave.LANES;
      long last = lds.size() - ldsReach[i];
      int misaligned = ldsOffsetBits[i];
      // The highest address as an unsigned int (the sign bit flipped, the maximum taken) and the low bits of all.
      int highestFlipped = Integer.MIN_VALUE;
      if (exec == -1L) {
        for (int l = 0; l < Wave.LANES; l++) {
          int a = v[ab + l];
          misaligned |= a;
          highestFlipped = Math.max(highestFlipped, a ^ Integer.MIN_VALUE);
        }
      } else {
        // Only the active lanes, found by their bits: a reduction's later levels have few.
        for (long m = exec; m != 0; m &= m - 1) {
          int a = v[ab + Long.numberOfTrailingZeros(m)];
          misaligned |= a;
          highestFlipped = Math.max(highestFlipped, a ^ Integer.MIN_VALUE);
        }
      }
      if (exec != 0 && (((highestFlipped ^ Integer.MIN_VALUE) & 0xffff_ffffL) > last || (misaligned & 3) != 0)) {
        return null;
      }
    }
    return words;
  }

  /**
   * Runs the generated code of a run that can stop part-way. When a lane's load faults or its LDS address fails
   * the check in the loop, lanes before it have finished the run: the registers they overwrote that the run reads
   * go back to what they held, and the instructions run one by one, which fault or handle the lane as the hardware
   * would (or complete, should the memory have changed in between). Returns whether the generated code ran to its
   * end.
   */
  private boolean runSaving(Wave w, Ctx cx, int[] s, long[] m, int[] words, int ldsBytes)
      throws DispatchException {
    int[] v = w.v;
    int[] saved = cx.fusedSaved();
    for (int i = 0; i < overwrittenInputs.length; i++) {
      System.arraycopy(v, overwrittenInputs[i] * Wave.LANES, saved, i * Wave.LANES, Wave.LANES);
    }
    try {
      lanes(w.exec()).run(v, s, m, w.exec(), w.mode, words, ldsBytes, cx.memory, cx.fusedStoreAddresses,
          cx.fusedStoreData, cx.fusedLdsWriteWords, cx.fusedLdsWriteData);
      return true;
    } catch (GpuMemoryFault | LaneBail stopped) {
      for (int i = 0; i < overwrittenInputs.length; i++) {
        System.arraycopy(saved, i * Wave.LANES, v, overwrittenInputs[i] * Wave.LANES, Wave.LANES);
      }
      for (Op p : parts) p.execute(w, cx);
      return false;
    }
  }

  /**
   * The run's LDS writes, one instruction after the other, each lane's dwords in increasing lane order as {@link
   * LdsOps} writes them, from the word indices (every one checked) and dwords the lane loop computed.
   */
  private void writeLds(Wave w, Ctx cx, int[] words) {
    long exec = w.exec();
    int[] index = cx.fusedLdsWriteWords;
    int[] data = cx.fusedLdsWriteData;
    for (int k = 0; k < ldsWrites.length; k++) {
      int dwords = ldsWrites[k].dwords();
      int at = k * Wave.LANES;
      int from = 4 * k * Wave.LANES;
      if (exec == -1L && dwords == 1) {
        // The common case in a loop of its own, which C2 compiles as it does LdsOps' full-wave scatter.
        for (int l = 0; l < Wave.LANES; l++) words[index[at + l]] = data[from + l];
        continue;
      }
      for (long m = exec; m != 0; m &= m - 1) {
        int l = Long.numberOfTrailingZeros(m);
        int x = index[at + l];
        for (int j = 0; j < dwords; j++) words[x + j] = data[from + j * Wave.LANES + l];
      }
    }
  }

  /**
   * The run's stores, one instruction after the other over all lanes, as {@link FlatOps} makes them: from the
   * addresses and dwords the lane loop computed. A fault names the store's instruction and the first lane it
   * stopped at.
   */
  private void store(Wave w, Ctx cx) throws DispatchException {
    long exec = w.exec();
    for (int k = 0; k < stores.length; k++) {
      LaneFusion.GlobalStore st = stores[k];
      long[] address = cx.fusedStoreAddresses[k];
      try {
        cx.memory.storeLanes32(address, exec, st.dwords(), cx.fusedStoreData, 4 * k * Wave.LANES);
      } catch (GpuMemoryFault f) {
        throw Faults.memory(w, cx, st.instruction(),
            FlatOps.Access.faultingLane(exec, address, 4L * st.dwords(), f.address()), f);
      }
    }
  }

  /** The generated code for {@code exec}: the full-EXEC loop, or the one that tests each lane (made now if new). */
  private FusedLanes lanes(long exec) {
    if (exec == -1L) return allLanes;
    FusedLanes some = someLanes;
    if (some == null) {
      synchronized (this) {
        some = someLanes;
        if (some == null) someLanes = some = LaneCodeGen.generate(plan, true);
      }
    }
    return some;
  }

  /** The generated code for a full EXEC ({@link Rehearsal} runs it on zeros). */
  FusedLanes allLanes() {
    return allLanes;
  }

  /** The run's plan. */
  LaneFusion.Plan plan() {
    return plan;
  }

  /** Whether the run stores to global memory (for tests). */
  boolean storesGlobal() {
    return stores.length > 0;
  }

  /** Whether the run loads from global memory (for tests). */
  boolean loadsGlobal() {
    return plan.loadsGlobal();
  }

  /** Whether the run has LDS reads (for tests). */
  boolean readsLds() {
    return !plan.ldsReads().isEmpty();
  }

  /** Whether the run checks an LDS address in its lane loop (for tests). */
  boolean checksLdsInLoop() {
    return plan.checksLdsInLoop();
  }

  /** Whether the run writes LDS (for tests). */
  boolean writesLds() {
    return ldsWrites.length > 0;
  }

  /** Whether the run has scalar ALU instructions (for tests). */
  boolean runsScalars() {
    return scalarParts.length > 0;
  }

  /** The run's first instruction compiled alone. */
  @Override
  Op alone() {
    return parts[0];
  }

  @Override
  public void execute(Wave w, Ctx cx) throws DispatchException {
    int[] words = usesLds ? ldsWords(w) : null;
    if (w.gprIdxMask != 0 || (floats && !F32Ops.fast(w.mode)) || (usesLds && words == null)) {
      // GPR indexing moves register operands by M0: the generated code has fixed registers. Its f32 code is
      // exact in the default float mode only, and its LDS accesses for aligned addresses inside the bound.
      for (Op p : parts) p.execute(w, cx);
      return;
    }
    long start = w.pc;
    int[] s = cx.fusedScalars;
    int slot = 0;
    for (int i = 0; i < scalars.length; i++) {
      if (wide[i]) {
        long x = scalars[i].scalarRaw64(w, cx);
        s[slot] = (int) x;
        s[slot + 1] = (int) (x >>> 32);
        slot += 2;
      } else {
        s[slot++] = scalars[i].scalarRaw32(w, cx);
      }
    }
    long[] m = cx.fusedMasks;
    for (int i = 0; i < maskInputs.length; i++) m[i] = maskInputs[i].scalarRaw64(w, cx);
    int ldsBytes = usesLds ? w.group.lds().size() : 0;
    if (overwrittenInputs == null) {
      try {
        lanes(w.exec()).run(w.v, s, m, w.exec(), w.mode, words, ldsBytes, cx.memory, cx.fusedStoreAddresses,
            cx.fusedStoreData, cx.fusedLdsWriteWords, cx.fusedLdsWriteData);
      } catch (GpuMemoryFault f) {
        throw new IllegalStateException("a fused run without loads faulted: " + f.getMessage(), f);
      }
    } else if (!runSaving(w, cx, s, m, words, ldsBytes)) {
      return;
    }
    int base = maskInputs.length;
    for (int i = 0; i < maskOutputs.length; i++) maskOutputs[i].writeScalar64(w, m[base + i]);
    if (ldsWrites.length > 0) writeLds(w, cx, words);
    if (stores.length > 0) store(w, cx);
    for (Op scalar : scalarParts) scalar.execute(w, cx); // each steps the program counter as it would alone
    w.pc = start + size;
  }
}
