package dev.hipsim.isa.interp;

import static org.objectweb.asm.Opcodes.*;

import dev.hipsim.isa.exec.Wave;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.List;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * Turns a {@link LaneFusion.Plan} into JVM bytecode: a hidden class implementing {@link FusedLanes} whose one loop
 * runs over the active lanes and, per lane, computes every instruction of the run in order. A register value the
 * run reads or produces is kept in a local for the rest of the lane, and the register file gets the last value of
 * each register the run wrote at the lane's end; each lane-mask bit is a local too, so that a carry reaches the
 * next {@code v_addc_co_u32} without a 64-bit mask in between.
 *
 * <p>Why bytecode: the interpreter runs an instruction as one loop over 64 lanes, loading its sources from and
 * storing its result to the register file, and C1, which runs a program's kernels, neither unrolls nor keeps values
 * in registers across those loops. One loop for the whole run, with the lane's values in locals, ran the address
 * arithmetic of the vector-add kernel (eight instructions) 2.9 times faster under C1 in a micro-benchmark.
 */
final class LaneCodeGen {
  private LaneCodeGen() {}

  /**
   * The generated classes' name (each hidden class gets a suffix). libamdhip64 names it in a CompileCommand that
   * lets the JIT compile their method after a few waves rather than a hundred (hipsim_jvm.c).
   */
  static final String NAME = "dev/hipsim/isa/interp/FusedLanes$Run";
  private static final String INT_OPS = "dev/hipsim/isa/alu/IntOps";
  private static final int V = 1;
  private static final int SCALARS = 2;
  private static final int MASKS = 3;
  private static final int EXEC = 4;
  private static final int MODE = 6;
  private static final int LDS = 7;
  private static final int LDS_BYTES = 8;
  private static final int MEMORY = 9;
  private static final int STORE_ADDRESSES = 10;
  private static final int STORE_DATA = 11;
  private static final int LDS_WRITE_WORDS = 12;
  private static final int LDS_WRITE_DATA = 13;
  private static final int FIRST_FREE = 14;
  private static final String LANE_BAIL = "dev/hipsim/isa/interp/LaneBail";
  private static final String GPU_MEMORY = "dev/hipsim/isa/mem/GpuMemory";
  /** The page of global memory generated code reads from words: 4 KiB, 512 longs ({@link
   * dev.hipsim.isa.mem.GpuMemory#readableWords}). */
  private static final int PAGE_SHIFT = 12;
  private static final int PAGE_BYTES = 1 << PAGE_SHIFT;
  private static final String F32_OPS = "dev/hipsim/isa/alu/F32Ops";

  /**
   * The classes defined so far, by their class file. Generated code has no state and no addresses in it, so a run
   * whose bytecode is the same as an earlier one's (the same kernel run again after its code cache was dropped,
   * loaded on another device, or rehearsed before its first dispatch, {@link Rehearsal}) gets the earlier class,
   * already compiled by the JIT, instead of a new one to define, verify and compile. Bounded, since every entry
   * keeps its class alive: at the bound the map starts again empty.
   */
  private static final java.util.concurrent.ConcurrentHashMap<ClassFile, FusedLanes> DEFINED =
      new java.util.concurrent.ConcurrentHashMap<>();
  static final int MAX_KEPT = 1024;
  /** Classes defined for runs without the per-lane EXEC test, since the process started (for tests). */
  static final java.util.concurrent.atomic.AtomicLong DEFINED_FOR_FULL_EXEC = new java.util.concurrent.atomic.AtomicLong();

  /** A class file as a map key: equal when the bytes are. */
  private record ClassFile(byte[] bytes, int hash) {
    ClassFile(byte[] bytes) {
      this(bytes, Arrays.hashCode(bytes));
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof ClassFile c && c.hash == hash && Arrays.equals(c.bytes, bytes);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  /** Forgets the classes defined so far (for tests that count definitions). */
  static void forgetDefined() {
    DEFINED.clear();
  }

  /** The run's code: the class defined for the same bytecode before, or a new one. */
  static FusedLanes generate(LaneFusion.Plan plan, boolean partialExec) {
    ClassFile file = new ClassFile(bytes(plan, partialExec));
    FusedLanes known = DEFINED.get(file);
    if (known != null) return known;
    FusedLanes lanes;
    try {
      MethodHandles.Lookup hidden = MethodHandles.lookup().defineHiddenClass(file.bytes(), true);
      lanes = (FusedLanes) hidden.findConstructor(hidden.lookupClass(), MethodType.methodType(void.class)).invoke();
    } catch (Throwable e) {
      throw new IllegalStateException("cannot define the fused code of " + plan.instructions().get(0) + ": " + e, e);
    }
    if (!partialExec) DEFINED_FOR_FULL_EXEC.incrementAndGet();
    if (DEFINED.size() >= MAX_KEPT) DEFINED.clear(); // the classes no run holds any more can then be unloaded
    FusedLanes raced = DEFINED.putIfAbsent(file, lanes);
    return raced != null ? raced : lanes;
  }


  /**
   * The class file of the run's code. Version 50 (Java 6), the last without stack map frames: the JVM infers the
   * types when it verifies the class, and ASM has no frames to compute, which made generating a run 35% faster
   * (0.36 / 0.28 / 0.20 against 0.62 / 0.45 / 0.28 ms per class after the first, under C1; the first 13.9 against
   * 20.7 ms).
   */
  static byte[] bytes(LaneFusion.Plan plan, boolean partialExec) {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    cw.visit(V1_6, ACC_FINAL | ACC_SUPER, NAME, null, "java/lang/Object",
        new String[] {"dev/hipsim/isa/interp/FusedLanes"});
    MethodVisitor init = cw.visitMethod(ACC_PUBLIC, "<init>", "()V", null, null);
    init.visitCode();
    init.visitVarInsn(ALOAD, 0);
    init.visitMethodInsn(INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
    init.visitInsn(RETURN);
    init.visitMaxs(0, 0);
    init.visitEnd();
    MethodVisitor mv = cw.visitMethod(ACC_PUBLIC, "run", "([I[I[JJI[IIL" + GPU_MEMORY + ";[[J[I[I[I)V", null,
        new String[] {"dev/hipsim/isa/mem/GpuMemoryFault"});
    mv.visitCode();
    new Body(mv, plan, partialExec).emit();
    mv.visitMaxs(0, 0);
    mv.visitEnd();
    cw.visitEnd();
    return cw.toByteArray();
  }

  /** The method body of one run. */
  private static final class Body {
    private final MethodVisitor mv;
    private final LaneFusion.Plan plan;
    /** Whether the loop tests each lane's EXEC bit (else every lane runs: the caller checked EXEC is full). */
    private final boolean partialExec;
    private int nextLocal = FIRST_FREE;
    private final int[] scalarLocal;
    private final int[] maskInLocal;
    private final int[] maskOutLocal;
    /** The local holding the lane's current value of each VGPR the body has read or written so far, or -1. */
    private final int[] regLocal = new int[Wave.MAX_VGPRS];
    /**
     * The lane's value of the VGPR pair from each register as a long local, while the pair holds what one 64-bit
     * result put there (-1: not known as a pair). A 64-bit source then costs one load instead of joining halves.
     */
    private final int[] pairLocal = new int[Wave.MAX_VGPRS];
    /** Long locals joining two 32-bit scalars ({@link #scalarPairKey}), computed before the lane loop. */
    private final java.util.Map<Integer, Integer> scalarPairs = new java.util.HashMap<>();
    /**
     * For a VGPR a 64-bit result wrote, the long local of that result while the register's int is not taken out of
     * it yet (-1: none), and whether the register is its high half. The half is taken out when something reads
     * the register, or when it is written back: C1 keeps every value a local holds alive (trapping instructions
     * record the locals), so a half nothing reads must not be computed at all.
     */
    private final int[] halfOf = new int[Wave.MAX_VGPRS];
    /**
     * The lane's value of a VGPR an f32 step wrote, as a float local (-1: none), for the f32 steps that read it: an
     * accumulator that sixteen v_fmac update goes from one to the next without passing through its bits. The
     * float is exact whenever it is finite; a value that is not is computed again from int bits ({@link
     * #unchecked}).
     */
    private final int[] floatLocal = new int[Wave.MAX_VGPRS];
    /**
     * For a VGPR whose value is an f32 result not tested yet (its float in {@link #floatLocal}, no int local): the
     * steps that computed it. Sums, differences, products and fused multiply-adds keep an infinity or a NaN among
     * their operands in their result, so a chain of them into one accumulator needs one test, where its bits are
     * first needed (a reader of the int, the write-back), instead of one per step: a finite end means every step
     * was finite, where the JVM's floats are exact; any other end is computed again, step by step from the
     * operands' bits, by F32Ops.
     */
    private final Chain[] unchecked = new Chain[Wave.MAX_VGPRS];
    private final boolean[] highHalf = new boolean[Wave.MAX_VGPRS];
    /** How many times a step's lane bit is read: by later steps, and as a lane mask written back. */
    private final int[] bitReads;
    /** The VGPRs the run writes. */
    private final boolean[] dirty = new boolean[Wave.MAX_VGPRS];
    /** The local holding the lane's mask bit each step produced, or -1. */
    private final int[] stepBit;
    /**
     * For each global load step, the locals of the page its last lane read from: its number (-1: none) and its
     * words ({@link dev.hipsim.isa.mem.GpuMemory#readableWords}). Consecutive lanes mostly read the same page.
     */
    private final int[] pageNumber;
    private final int[] pageWords;
    /** For each global store step, the local holding its array of lane addresses, and its index among stores. */
    private final int[] storeAddressLocal;
    private final int[] storeIndex;
    /** For each LDS write step, its index among the run's LDS writes. */
    private final int[] ldsWriteIndex;
    /** Where a lane whose LDS address is out of bounds or misaligned goes: the run stops ({@link LaneBail}). */
    private final Label bail = new Label();
    private boolean bails;
    private int lane;

    Body(MethodVisitor mv, LaneFusion.Plan plan, boolean partialExec) {
      this.mv = mv;
      this.plan = plan;
      this.partialExec = partialExec;
      this.scalarLocal = new int[plan.scalarSlots()];
      this.maskInLocal = new int[plan.maskInputs().size()];
      this.maskOutLocal = new int[plan.maskOutputs().size()];
      this.stepBit = new int[plan.steps().size()];
      this.pageNumber = new int[plan.steps().size()];
      this.pageWords = new int[plan.steps().size()];
      this.storeAddressLocal = new int[plan.steps().size()];
      this.storeIndex = new int[plan.steps().size()];
      this.ldsWriteIndex = new int[plan.steps().size()];
      int writes = 0;
      for (int i = 0; i < plan.steps().size(); i++) {
        if (plan.steps().get(i).ldsWrite() != null) ldsWriteIndex[i] = writes++;
      }
      Arrays.fill(regLocal, -1);
      Arrays.fill(stepBit, -1);
      this.bitReads = new int[plan.steps().size()];
      for (int i = 0; i < bitReads.length; i++) {
        LaneFusion.Step s = plan.steps().get(i);
        if (s.maskOut() >= 0) bitReads[i]++;
        for (LaneFusion.Source x : new LaneFusion.Source[] {s.a(), s.b(), s.c()}) {
          if (x != null && x.from() == LaneFusion.From.MASK_STEP) bitReads[x.index()]++;
        }
      }
    }

    private int intLocal() {
      return nextLocal++;
    }

    private int longLocal() {
      int l = nextLocal;
      nextLocal += 2;
      return l;
    }

    void emit() {
      prologue();
      loop(partialExec);
      int inputs = maskInLocal.length;
      for (int k = 0; k < maskOutLocal.length; k++) {
        mv.visitVarInsn(ALOAD, MASKS);
        push(inputs + k);
        mv.visitVarInsn(LLOAD, maskOutLocal[k]);
        mv.visitInsn(LASTORE);
      }
      mv.visitInsn(RETURN);
      bailBlock();
    }

    /** One loop over the lanes; {@code testExec}: skip the lanes not in EXEC. */
    private void loop(boolean testExec) {
      Arrays.fill(regLocal, -1);
      Arrays.fill(pairLocal, -1);
      Arrays.fill(halfOf, -1);
      Arrays.fill(floatLocal, -1);
      Arrays.fill(unchecked, null);
      Arrays.fill(dirty, false);
      Arrays.fill(stepBit, -1);
      lane = intLocal();
      push(0);
      mv.visitVarInsn(ISTORE, lane);
      Label top = new Label();
      Label next = new Label();
      Label end = new Label();
      mv.visitLabel(top);
      mv.visitVarInsn(ILOAD, lane);
      push(Wave.LANES);
      mv.visitJumpInsn(IF_ICMPGE, end);
      if (testExec) {
        // A bit test per lane rather than a loop over the set bits: C1 does not make numberOfTrailingZeros one
        // instruction, and a call per lane cost more than the test.
        mv.visitVarInsn(LLOAD, EXEC);
        mv.visitVarInsn(ILOAD, lane);
        mv.visitInsn(LUSHR);
        mv.visitInsn(L2I);
        mv.visitInsn(ICONST_1);
        mv.visitInsn(IAND);
        mv.visitJumpInsn(IFEQ, next);
      }
      List<LaneFusion.Step> steps = plan.steps();
      for (int i = 0; i < steps.size(); i++) {
        if (i + 1 < steps.size() && addsWide(i, steps.get(i), steps.get(i + 1))) {
          i++;
        } else {
          step(i, steps.get(i));
        }
      }
      writeBack();
      mv.visitLabel(next);
      mv.visitIincInsn(lane, 1);
      mv.visitJumpInsn(GOTO, top);
      mv.visitLabel(end);
    }

    /** The key of two 32-bit scalar sources as a long's low and high halves; -1 when either is not one. */
    private static int scalarPairKey(LaneFusion.Source low, LaneFusion.Source high) {
      if (low == null || high == null || low.from() != LaneFusion.From.SCALAR
          || high.from() != LaneFusion.From.SCALAR) {
        return -1;
      }
      return low.index() << 16 | high.index();
    }

    /** Joins two 32-bit scalars into a long local, once, when they are a 64-bit add's halves ({@link #pushWide}). */
    private void joinScalars(LaneFusion.Source low, LaneFusion.Source high) {
      int key = scalarPairKey(low, high);
      if (key < 0 || scalarPairs.containsKey(key)) return;
      int l = longLocal();
      mv.visitVarInsn(ILOAD, scalarLocal[low.index()]);
      zeroExtend();
      mv.visitVarInsn(ILOAD, scalarLocal[high.index()]);
      orHighHalf();
      mv.visitVarInsn(LSTORE, l);
      scalarPairs.put(key, l);
    }

    /** Scalars and input masks into locals, output masks cleared. */
    private void prologue() {
      int slot = 0;
      for (int i = 0; i < plan.scalarWidths().length; i++) {
        if (plan.scalarWidths()[i] == 64) {
          int l = longLocal();
          mv.visitVarInsn(ALOAD, SCALARS);
          push(slot);
          mv.visitInsn(IALOAD);
          zeroExtend();
          mv.visitVarInsn(ALOAD, SCALARS);
          push(slot + 1);
          mv.visitInsn(IALOAD);
          orHighHalf();
          mv.visitVarInsn(LSTORE, l);
          scalarLocal[slot] = l;
          slot += 2;
        } else {
          int l = intLocal();
          mv.visitVarInsn(ALOAD, SCALARS);
          push(slot);
          mv.visitInsn(IALOAD);
          mv.visitVarInsn(ISTORE, l);
          scalarLocal[slot] = l;
          slot += 1;
        }
      }
      // The longs 64-bit adds take from two 32-bit scalars (a base address's halves), joined once for all lanes.
      List<LaneFusion.Step> steps = plan.steps();
      for (int i = 0; i + 1 < steps.size(); i++) {
        LaneFusion.Step low = steps.get(i);
        LaneFusion.Step high = steps.get(i + 1);
        if (low.op().shape() != FusibleOp.Shape.CARRY || high.op().shape() != FusibleOp.Shape.CARRY_IN) continue;
        joinScalars(low.a(), high.a());
        joinScalars(low.b(), high.b());
      }
      for (int k = 0; k < maskInLocal.length; k++) {
        maskInLocal[k] = longLocal();
        mv.visitVarInsn(ALOAD, MASKS);
        push(k);
        mv.visitInsn(LALOAD);
        mv.visitVarInsn(LSTORE, maskInLocal[k]);
      }
      for (int k = 0; k < maskOutLocal.length; k++) {
        maskOutLocal[k] = longLocal();
        mv.visitInsn(LCONST_0);
        mv.visitVarInsn(LSTORE, maskOutLocal[k]);
      }
      int stores = 0;
      for (int i = 0; i < plan.steps().size(); i++) {
        if (plan.steps().get(i).store() == null) continue;
        storeIndex[i] = stores;
        storeAddressLocal[i] = intLocal();
        mv.visitVarInsn(ALOAD, STORE_ADDRESSES);
        push(stores++);
        mv.visitInsn(AALOAD);
        mv.visitVarInsn(ASTORE, storeAddressLocal[i]);
      }
      for (int i = 0; i < plan.steps().size(); i++) {
        if (plan.steps().get(i).load() == null) continue;
        pageNumber[i] = longLocal();
        mv.visitLdcInsn(-1L);
        mv.visitVarInsn(LSTORE, pageNumber[i]);
        pageWords[i] = intLocal();
        mv.visitInsn(ACONST_NULL);
        mv.visitVarInsn(ASTORE, pageWords[i]);
      }
    }

    /** The block the LDS checks jump to, after the method's return: it throws {@link LaneBail#INSTANCE}. */
    private void bailBlock() {
      if (!bails) return;
      mv.visitLabel(bail);
      mv.visitFieldInsn(GETSTATIC, LANE_BAIL, "INSTANCE", "L" + LANE_BAIL + ";");
      mv.visitInsn(ATHROW);
    }

    private void step(int index, LaneFusion.Step s) {
      FusibleOp f = s.op();
      LaneFusion.Source first = f.swap() ? s.b() : s.a();
      LaneFusion.Source second = f.swap() ? s.a() : s.b();
      switch (f.shape()) {
        case COPY:
          pushInt(s.a());
          storeResult(s.vdst());
          break;
        case NOT:
          pushInt(s.a());
          mv.visitInsn(ICONST_M1);
          mv.visitInsn(IXOR);
          storeResult(s.vdst());
          break;
        case BITWISE:
          pushInt(s.a());
          pushInt(s.b());
          mv.visitInsn(f.jvmOpcode());
          storeResult(s.vdst());
          break;
        case INT2:
          pushInt(first);
          pushInt(second);
          mv.visitMethodInsn(INVOKESTATIC, INT_OPS, f.method(), "(II)I", false);
          storeResult(s.vdst());
          break;
        case INT2_CLAMP:
          pushInt(first);
          pushInt(second);
          mv.visitInsn(ICONST_0);
          mv.visitMethodInsn(INVOKESTATIC, INT_OPS, f.method(), "(IIZ)I", false);
          storeResult(s.vdst());
          break;
        case INT3:
          pushInt(s.a());
          pushInt(s.b());
          pushInt(s.c());
          mv.visitMethodInsn(INVOKESTATIC, INT_OPS, f.method(), "(III)I", false);
          storeResult(s.vdst());
          break;
        case CARRY:
        case CARRY_IN:
          pushInt(first);
          zeroExtend();
          pushInt(second);
          zeroExtend();
          mv.visitInsn(f.jvmOpcode());
          if (f.shape() == FusibleOp.Shape.CARRY_IN) {
            pushBit(s.c());
            mv.visitInsn(I2L);
            mv.visitInsn(f.jvmOpcode());
          }
          storePacked(index, s);
          break;
        case SHIFT64:
          pushInt(s.a());
          pushLong(s.b());
          mv.visitMethodInsn(INVOKESTATIC, INT_OPS, f.method(), "(IJ)J", false);
          storeLong(s.vdst());
          break;
        case SELECT:
          // a ^ ((a ^ b) & -bit): both sources are read on every path, so their locals stay assigned.
          pushInt(s.a());
          mv.visitInsn(DUP);
          pushInt(s.b());
          mv.visitInsn(IXOR);
          pushBit(s.c());
          mv.visitInsn(INEG);
          mv.visitInsn(IAND);
          mv.visitInsn(IXOR);
          storeResult(s.vdst());
          break;
        case F32_2:
          float2(f, first, second, s.vdst());
          break;
        case F32_FMA:
          fma(f, s);
          break;
        case LDS_READ:
          ldsRead(s.lds());
          break;
        case LDS_WRITE:
          ldsWrite(index, s.ldsWrite());
          break;
        case GLOBAL_LOAD:
          globalLoad(index, s);
          break;
        case GLOBAL_STORE:
          globalStore(index, s);
          break;
        case COMPARE:
          if (bitReads[index] == 0) break; // a compare whose lane mask nothing reads
          compare(f, s);
          int bit = intLocal();
          mv.visitVarInsn(ISTORE, bit);
          stepBit[index] = bit;
          accumulate(s.maskOut(), bit);
          break;
        default:
          throw new IllegalStateException("no code for " + f.shape());
      }
    }

    /** VGPR {@code vdst} gets the f32 a (op) b ({@link #floatOp}). */
    private void float2(FusibleOp f, LaneFusion.Source first, LaneFusion.Source second, int vdst) {
      floatOp(new LaneFusion.Source[] {first, second}, () -> mv.visitInsn(f.jvmOpcode()), f.method(), vdst);
    }

    /** The step's VGPR gets the f32 a * b + c with one rounding ({@link #floatOp}). */
    private void fma(FusibleOp f, LaneFusion.Step s) {
      floatOp(new LaneFusion.Source[] {s.a(), s.b(), s.c()},
          () -> mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", "fma", "(FFF)F", false), f.method(), s.vdst());
    }

    /** Steps in one chain at most: each is computed again when the chain's end is not finite. */
    static final int MAX_CHAIN = 16;

    /**
     * VGPR {@code vdst} gets an f32 sum, difference, product or fused multiply-add: what {@code fast} makes of the
     * operands as JVM floats, untested ({@link #unchecked}). One operand may be such an untested value itself, which
     * the result's chain then continues; any other operand is tested first. A finite result of these operations has
     * finite operands, where the default float mode makes the JVM's result exact.
     */
    private void floatOp(LaneFusion.Source[] operands, Runnable fast, String method, int vdst) {
      int chained = -1;
      Chain before = null;
      for (int i = 0; i < operands.length && chained < 0; i++) {
        LaneFusion.Source x = operands[i];
        if (x.from() == LaneFusion.From.VGPR && unchecked[x.index()] != null
            && unchecked[x.index()].steps().size() < MAX_CHAIN) {
          chained = i;
          before = unchecked[x.index()];
        }
      }
      int[] bits = new int[operands.length];
      for (int i = 0; i < operands.length; i++) {
        bits[i] = -1;
        if (i == chained) continue;
        bits[i] = intLocal();
        pushInt(operands[i]); // tests an untested operand other than the chained one
        mv.visitVarInsn(ISTORE, bits[i]);
      }
      for (int i = 0; i < operands.length; i++) {
        LaneFusion.Source x = operands[i];
        if (x.from() == LaneFusion.From.VGPR && floatLocal[x.index()] >= 0) {
          mv.visitVarInsn(FLOAD, floatLocal[x.index()]);
        } else {
          floatOf(bits[i]);
        }
      }
      fast.run();
      int result = intLocal(); // a float
      mv.visitVarInsn(FSTORE, result);
      List<ChainStep> steps = new java.util.ArrayList<>(before == null ? List.of() : before.steps());
      steps.add(new ChainStep(bits, chained, method));
      writeVgpr(vdst, -1);
      floatLocal[vdst] = result;
      unchecked[vdst] = new Chain(List.copyOf(steps));
    }

    /** The f32 steps behind an untested value, in order; each but the first reads the one before it. */
    private record Chain(List<ChainStep> steps) {}

    /**
     * One step of a {@link Chain}: the int locals of its operands' bits ({@code -1} at {@code chained}, the operand
     * that is the step before's result; {@code chained} is -1 for the first step) and its F32Ops method.
     */
    private record ChainStep(int[] bits, int chained, String method) {}

    /**
     * Gives untested VGPR {@code r} its int: the bits of its float when that is finite, else the chain computed
     * again from the operands' bits by F32Ops; the float local then holds the same value.
     */
    private void test(int r) {
      Chain chain = unchecked[r];
      int bits = intLocal();
      mv.visitVarInsn(FLOAD, floatLocal[r]);
      mv.visitMethodInsn(INVOKESTATIC, "java/lang/Float", "floatToRawIntBits", "(F)I", false);
      mv.visitVarInsn(ISTORE, bits);
      Label done = new Label();
      exponentCarry(bits);
      mv.visitJumpInsn(IFGE, done);
      for (ChainStep step : chain.steps()) {
        for (int i = 0; i < step.bits().length; i++) {
          mv.visitVarInsn(ILOAD, i == step.chained() ? bits : step.bits()[i]);
        }
        mv.visitVarInsn(ILOAD, MODE);
        mv.visitMethodInsn(INVOKESTATIC, F32_OPS, step.method(), "(" + "I".repeat(step.bits().length) + "I)I",
            false);
        mv.visitVarInsn(ISTORE, bits);
      }
      mv.visitVarInsn(ILOAD, bits);
      mv.visitMethodInsn(INVOKESTATIC, "java/lang/Float", "intBitsToFloat", "(I)F", false);
      mv.visitVarInsn(FSTORE, floatLocal[r]);
      mv.visitLabel(done);
      regLocal[r] = bits;
      unchecked[r] = null;
    }

    /** Pushes an int that is negative exactly when the f32 in {@code local} is an infinity or a NaN. */
    private void exponentCarry(int local) {
      mv.visitVarInsn(ILOAD, local);
      mv.visitLdcInsn(0x7f80_0000);
      mv.visitInsn(IAND);
      mv.visitLdcInsn(0x0080_0000);
      mv.visitInsn(IADD);
    }

    private void floatOf(int local) {
      mv.visitVarInsn(ILOAD, local);
      mv.visitMethodInsn(INVOKESTATIC, "java/lang/Float", "intBitsToFloat", "(I)F", false);
    }

    /**
     * The lane's dwords from LDS into the destination VGPRs: word (address + offset) / 4 on, for one or two
     * offsets ({@link FusedRun} has checked every address).
     */
    private void ldsRead(LaneFusion.LdsRead r) {
      int word = intLocal();
      if (r.checked()) checkLds(r);
      readVgpr(r.address());
      mv.visitInsn(ICONST_2);
      mv.visitInsn(IUSHR);
      mv.visitVarInsn(ISTORE, word);
      for (int half = 0; half < (r.two() ? 2 : 1); half++) {
        int first = (half == 0 ? r.offset0() : r.offset1()) >>> 2;
        for (int k = 0; k < r.dwords(); k++) {
          int value = intLocal();
          mv.visitVarInsn(ALOAD, LDS);
          mv.visitVarInsn(ILOAD, word);
          push(first + k);
          mv.visitInsn(IADD);
          mv.visitInsn(IALOAD);
          mv.visitVarInsn(ISTORE, value);
          writeVgpr(r.vdst() + half * r.dwords() + k, value);
        }
      }
    }

    /**
     * The lane's dwords from global memory into the destination VGPRs. From the words of the page when the memory
     * gives them ({@link dev.hipsim.isa.mem.GpuMemory#readableWords}, asked again only when the lane's page is not
     * the previous lane's) and the dwords are aligned and inside it; else by {@code load32} calls, which translate,
     * fault or reach what is not plain RAM. The address registers are read before the branch, so that their locals
     * are assigned on both paths.
     */
    private void globalLoad(int index, LaneFusion.Step s) {
      LaneFusion.GlobalLoad g = s.load();
      int address = longLocal();
      pushAddress(s, g.address());
      mv.visitVarInsn(LSTORE, address);
      int page = pageNumber[index];
      int words = pageWords[index];
      // The page's words, when the lane's page is not the one the previous lane read
      Label samePage = new Label();
      mv.visitVarInsn(LLOAD, address);
      mv.visitIntInsn(BIPUSH, PAGE_SHIFT);
      mv.visitInsn(LUSHR);
      mv.visitVarInsn(LLOAD, page);
      mv.visitInsn(LCMP);
      mv.visitJumpInsn(IFEQ, samePage);
      mv.visitVarInsn(ALOAD, MEMORY);
      mv.visitVarInsn(LLOAD, address);
      mv.visitMethodInsn(INVOKEINTERFACE, GPU_MEMORY, "readableWords", "(J)[J", true);
      mv.visitInsn(DUP);
      mv.visitVarInsn(ASTORE, words);
      Label noWords = new Label();
      mv.visitJumpInsn(IFNULL, noWords);
      mv.visitVarInsn(LLOAD, address);
      mv.visitIntInsn(BIPUSH, PAGE_SHIFT);
      mv.visitInsn(LUSHR);
      mv.visitVarInsn(LSTORE, page);
      mv.visitJumpInsn(GOTO, samePage);
      mv.visitLabel(noWords);
      mv.visitLdcInsn(-1L); // no page: the next lane asks again (its load32 may have filled the translation)
      mv.visitVarInsn(LSTORE, page);
      mv.visitLabel(samePage);
      int[] value = new int[g.dwords()];
      for (int k = 0; k < value.length; k++) value[k] = intLocal();
      int inPage = intLocal();
      Label slow = new Label();
      Label loaded = new Label();
      mv.visitVarInsn(ALOAD, words);
      mv.visitJumpInsn(IFNULL, slow);
      mv.visitVarInsn(LLOAD, address);
      mv.visitInsn(L2I);
      push(PAGE_BYTES - 1);
      mv.visitInsn(IAND);
      mv.visitInsn(DUP);
      mv.visitVarInsn(ISTORE, inPage);
      mv.visitInsn(ICONST_3);
      mv.visitInsn(IAND);
      mv.visitJumpInsn(IFNE, slow);
      if (g.dwords() > 1) {
        mv.visitVarInsn(ILOAD, inPage);
        push(PAGE_BYTES - 4 * g.dwords());
        mv.visitJumpInsn(IF_ICMPGT, slow);
      }
      for (int k = 0; k < value.length; k++) {
        // word (o + 4k) / 8 of the page, its high half when bit 2 of o + 4k is set
        int at = intLocal();
        mv.visitVarInsn(ILOAD, inPage);
        if (k > 0) {
          push(4 * k);
          mv.visitInsn(IADD);
        }
        mv.visitVarInsn(ISTORE, at);
        mv.visitVarInsn(ALOAD, words);
        mv.visitVarInsn(ILOAD, at);
        mv.visitInsn(ICONST_3);
        mv.visitInsn(IUSHR);
        mv.visitInsn(LALOAD);
        mv.visitVarInsn(ILOAD, at);
        mv.visitInsn(ICONST_4);
        mv.visitInsn(IAND);
        mv.visitInsn(ICONST_3);
        mv.visitInsn(ISHL);
        mv.visitInsn(LUSHR);
        mv.visitInsn(L2I);
        mv.visitVarInsn(ISTORE, value[k]);
      }
      mv.visitJumpInsn(GOTO, loaded);
      mv.visitLabel(slow);
      for (int k = 0; k < value.length; k++) {
        mv.visitVarInsn(ALOAD, MEMORY);
        mv.visitVarInsn(LLOAD, address);
        if (k > 0) {
          mv.visitLdcInsn(4L * k);
          mv.visitInsn(LADD);
        }
        mv.visitMethodInsn(INVOKEINTERFACE, GPU_MEMORY, "load32", "(J)I", true);
        mv.visitVarInsn(ISTORE, value[k]);
      }
      mv.visitLabel(loaded);
      for (int k = 0; k < value.length; k++) writeVgpr(g.vdst() + k, value[k]);
    }

    /**
     * Pushes a global access's address: the VGPR pair (source a), or the 64-bit scalar base (source b) plus the
     * zero-extended VGPR offset (source a); plus the instruction's offset.
     */
    private void pushAddress(LaneFusion.Step s, LaneFusion.GlobalAddress a) {
      int offset = a.offset();
      if (a.base() == null) {
        pushLong(s.a());
      } else {
        pushLong(s.b());
        pushInt(s.a());
        zeroExtend();
        mv.visitInsn(LADD);
      }
      if (offset != 0) {
        mv.visitLdcInsn((long) offset);
        mv.visitInsn(LADD);
      }
    }

    /**
     * The lane's address and dwords for a store made after the lane loop ({@link FusedRun}): the address into the
     * store's array of lane addresses, the dwords into the run's store data.
     */
    private void globalStore(int index, LaneFusion.Step s) {
      LaneFusion.GlobalStore g = s.store();
      mv.visitVarInsn(ALOAD, storeAddressLocal[index]);
      mv.visitVarInsn(ILOAD, lane);
      pushAddress(s, g.address());
      mv.visitInsn(LASTORE);
      for (int k = 0; k < g.dwords(); k++) {
        mv.visitVarInsn(ALOAD, STORE_DATA);
        push((4 * storeIndex[index] + k) * Wave.LANES);
        mv.visitVarInsn(ILOAD, lane);
        mv.visitInsn(IADD);
        readVgpr(g.data() + k);
        mv.visitInsn(IASTORE);
      }
    }

    /**
     * To {@link #bail} unless the lane's LDS address and the access's offsets are dword-aligned and the access
     * stays inside the workgroup's LDS. Emitted with nothing on the operand stack (the bail block has none).
     */
    private void checkLds(LaneFusion.LdsAccess access) {
      bails = true;
      int address = access.address();
      readVgpr(address);
      push(access.offsetBits());
      mv.visitInsn(IOR);
      mv.visitInsn(ICONST_3);
      mv.visitInsn(IAND);
      mv.visitJumpInsn(IFNE, bail);
      readVgpr(address);
      zeroExtend();
      mv.visitLdcInsn(access.reach());
      mv.visitInsn(LADD);
      mv.visitVarInsn(ILOAD, LDS_BYTES);
      mv.visitInsn(I2L);
      mv.visitInsn(LCMP);
      mv.visitJumpInsn(IFGT, bail);
    }

    /**
     * The lane's LDS word index and dwords for a write made after the lane loop ({@link FusedRun}), into the run's
     * LDS write arrays.
     */
    private void ldsWrite(int index, LaneFusion.LdsWrite wr) {
      int k = ldsWriteIndex[index];
      if (wr.checked()) checkLds(wr);
      mv.visitVarInsn(ALOAD, LDS_WRITE_WORDS);
      push(k * Wave.LANES);
      mv.visitVarInsn(ILOAD, lane);
      mv.visitInsn(IADD);
      readVgpr(wr.address());
      mv.visitInsn(ICONST_2);
      mv.visitInsn(IUSHR);
      push(wr.offset() >>> 2);
      mv.visitInsn(IADD);
      mv.visitInsn(IASTORE);
      for (int j = 0; j < wr.dwords(); j++) {
        mv.visitVarInsn(ALOAD, LDS_WRITE_DATA);
        push((4 * k + j) * Wave.LANES);
        mv.visitVarInsn(ILOAD, lane);
        mv.visitInsn(IADD);
        readVgpr(wr.data() + j);
        mv.visitInsn(IASTORE);
      }
    }

    /** Pushes 0 or 1: the compare of the step's sources (both read before any branch). */
    private void compare(FusibleOp f, LaneFusion.Step s) {
      pushInt(s.a());
      if (f.unsigned()) flipSign();
      pushInt(s.b());
      if (f.unsigned()) flipSign();
      int opcode;
      switch (f.predicate()) {
        case dev.hipsim.isa.alu.IntOps.ICMP_LT: opcode = IF_ICMPLT; break;
        case dev.hipsim.isa.alu.IntOps.ICMP_EQ: opcode = IF_ICMPEQ; break;
        case dev.hipsim.isa.alu.IntOps.ICMP_LE: opcode = IF_ICMPLE; break;
        case dev.hipsim.isa.alu.IntOps.ICMP_GT: opcode = IF_ICMPGT; break;
        case dev.hipsim.isa.alu.IntOps.ICMP_NE: opcode = IF_ICMPNE; break;
        case dev.hipsim.isa.alu.IntOps.ICMP_GE: opcode = IF_ICMPGE; break;
        default:
          mv.visitInsn(POP2);
          mv.visitInsn(f.predicate() == dev.hipsim.isa.alu.IntOps.ICMP_T ? ICONST_1 : ICONST_0);
          return;
      }
      Label yes = new Label();
      Label done = new Label();
      mv.visitJumpInsn(opcode, yes);
      mv.visitInsn(ICONST_0);
      mv.visitJumpInsn(GOTO, done);
      mv.visitLabel(yes);
      mv.visitInsn(ICONST_1);
      mv.visitLabel(done);
    }

    /** Unsigned order as signed order: the sign bit flipped. */
    private void flipSign() {
      mv.visitLdcInsn(Integer.MIN_VALUE);
      mv.visitInsn(IXOR);
    }

    /** Pushes a 32-bit source. */
    private void pushInt(LaneFusion.Source src) {
      switch (src.from()) {
        case VGPR:
          readVgpr(src.index());
          break;
        case SCALAR:
          mv.visitVarInsn(ILOAD, scalarLocal[src.index()]);
          break;
        default:
          throw new IllegalStateException("a 32-bit operand from " + src.from());
      }
    }

    /** Pushes a 64-bit source. */
    private void pushLong(LaneFusion.Source src) {
      switch (src.from()) {
        case VGPR64: {
          int r = src.index();
          if (pairLocal[r] < 0) {
            readVgpr(r);
            zeroExtend();
            readVgpr(r + 1);
            orHighHalf();
            pairLocal[r] = longLocal();
            mv.visitVarInsn(LSTORE, pairLocal[r]);
          }
          mv.visitVarInsn(LLOAD, pairLocal[r]);
          break;
        }
        case SCALAR64:
          mv.visitVarInsn(LLOAD, scalarLocal[src.index()]);
          break;
        default:
          throw new IllegalStateException("a 64-bit operand from " + src.from());
      }
    }

    /** Pushes the lane's bit (0 or 1) of a mask source. */
    private void pushBit(LaneFusion.Source src) {
      switch (src.from()) {
        case MASK_STEP:
          mv.visitVarInsn(ILOAD, stepBit[src.index()]);
          break;
        case MASK_ENTRY:
          mv.visitVarInsn(LLOAD, maskInLocal[src.index()]);
          mv.visitVarInsn(ILOAD, lane);
          mv.visitInsn(LUSHR);
          mv.visitInsn(L2I);
          mv.visitInsn(ICONST_1);
          mv.visitInsn(IAND);
          break;
        default:
          throw new IllegalStateException("a lane mask from " + src.from());
      }
    }

    /** Pushes the lane's value of VGPR {@code r}: from its local when the lane has it, else from the file. */
    private void readVgpr(int r) {
      if (unchecked[r] != null) test(r);
      if (regLocal[r] >= 0) {
        mv.visitVarInsn(ILOAD, regLocal[r]);
        return;
      }
      int l = intLocal();
      if (halfOf[r] >= 0) {
        pushHalf(r);
        halfOf[r] = -1;
      } else {
        pushLaneOf(r);
        mv.visitInsn(IALOAD);
      }
      mv.visitInsn(DUP);
      mv.visitVarInsn(ISTORE, l);
      regLocal[r] = l;
    }

    /** Pushes VGPR {@code r}'s int out of the 64-bit result that wrote it ({@link #halfOf}). */
    private void pushHalf(int r) {
      if (highHalf[r]) {
        pushHigh(halfOf[r]);
      } else {
        pushLow(halfOf[r]);
      }
    }

    /** Stores the int on the stack to VGPR {@code r} of the lane (and keeps it for the lane's later reads). */
    private void storeResult(int r) {
      int l = intLocal();
      mv.visitVarInsn(ISTORE, l);
      writeVgpr(r, l);
    }

    /** VGPR {@code r} of the lane is now in {@code local}; the file gets its last value at the lane's end. */
    private void writeVgpr(int r, int local) {
      regLocal[r] = local;
      halfOf[r] = -1;
      floatLocal[r] = -1;
      unchecked[r] = null;
      dirty[r] = true;
      pairLocal[r] = -1;
      if (r > 0) pairLocal[r - 1] = -1;
    }

    /**
     * Stores the last value of each VGPR the run wrote: once per register and lane, however many instructions of
     * the run wrote it (an accumulator that sixteen v_fmac update is stored once).
     */
    private void writeBack() {
      // A wave that ends right after the run never reads its registers again (the debugger, which could, steps
      // instructions one by one): the run's results live on only in its stores and lane masks.
      if (plan.endsWave()) return;
      for (int r = 0; r < dirty.length; r++) {
        if (!dirty[r]) continue;
        if (unchecked[r] != null) test(r);
        pushLaneOf(r);
        if (regLocal[r] >= 0) {
          mv.visitVarInsn(ILOAD, regLocal[r]);
        } else {
          pushHalf(r);
        }
        mv.visitInsn(IASTORE);
      }
    }

    /** Stores the long on the stack to the VGPR pair from {@code r}. */
    private void storeLong(int r) {
      int x = longLocal();
      mv.visitVarInsn(LSTORE, x);
      writePair(r, x);
    }

    /** The VGPR pair from {@code r} now holds the long in {@code local}; its halves are taken out when needed. */
    private void writePair(int r, int local) {
      writeHalf(r, local, false);
      writeHalf(r + 1, local, true);
      pairLocal[r] = local;
    }

    /** VGPR {@code r} now holds the low or high half of the long in {@code local}, taken out when needed. */
    private void writeHalf(int r, int local, boolean high) {
      writeVgpr(r, -1);
      halfOf[r] = local;
      highHalf[r] = high;
    }

    /**
     * A 64-bit add as compilers write it, v_add_co_u32 of the low halves then v_addc_co_u32 of the high halves with
     * the first's carry, made as one long add: the pair's long is kept for the 64-bit reads that follow (a global
     * address, mostly), and a step's carry bit is computed, from the halves, only when something reads it. Returns
     * false, having emitted nothing, for any other pair of steps.
     */
    private boolean addsWide(int index, LaneFusion.Step low, LaneFusion.Step high) {
      if (low.op().shape() != FusibleOp.Shape.CARRY || high.op().shape() != FusibleOp.Shape.CARRY_IN
          || low.op().jvmOpcode() != LADD || high.op().jvmOpcode() != LADD
          || high.c().from() != LaneFusion.From.MASK_STEP || high.c().index() != index
          || high.vdst() != low.vdst() + 1 || reads(high.a(), low.vdst()) || reads(high.b(), low.vdst())) {
        return false;
      }
      int sum = longLocal();
      pushWide(low.a(), high.a());
      pushWide(low.b(), high.b());
      mv.visitInsn(LADD);
      mv.visitVarInsn(LSTORE, sum);
      // The high step reads the low step's carry: the carry is needed when something else reads it too, or for
      // the high step's own carry when that is read. (The halves are read as ints only then: a local C1 would keep
      // alive otherwise.)
      boolean highCarry = bitReads[index + 1] > 0;
      if (bitReads[index] > 1 || highCarry) {
        int lowA = intLocalOf(low.a());
        int lowB = intLocalOf(low.b());
        // the low step's carry: bit 32 of the low halves' sum
        int carry = intLocal();
        pushUnsignedSum(lowA, lowB);
        mv.visitIntInsn(BIPUSH, 32);
        mv.visitInsn(LUSHR);
        mv.visitInsn(L2I);
        mv.visitVarInsn(ISTORE, carry);
        stepBit[index] = carry;
        accumulate(low.maskOut(), carry);
        if (highCarry) {
          // the high step's: bit 32 of the high halves' sum with that carry
          int highA = intLocalOf(high.a());
          int highB = intLocalOf(high.b());
          int carryOut = intLocal();
          pushUnsignedSum(highA, highB);
          mv.visitVarInsn(ILOAD, carry);
          mv.visitInsn(I2L);
          mv.visitInsn(LADD);
          mv.visitIntInsn(BIPUSH, 32);
          mv.visitInsn(LUSHR);
          mv.visitInsn(L2I);
          mv.visitInsn(ICONST_1);
          mv.visitInsn(IAND);
          mv.visitVarInsn(ISTORE, carryOut);
          stepBit[index + 1] = carryOut;
          accumulate(high.maskOut(), carryOut);
        }
      }
      writePair(low.vdst(), sum);
      return true;
    }

    /** Pushes the long sum of the ints in locals {@code a} and {@code b}, both zero-extended. */
    private void pushUnsignedSum(int a, int b) {
      mv.visitVarInsn(ILOAD, a);
      zeroExtend();
      mv.visitVarInsn(ILOAD, b);
      zeroExtend();
      mv.visitInsn(LADD);
    }

    /** A new int local holding the 32-bit source {@code src}. */
    private int intLocalOf(LaneFusion.Source src) {
      int l = intLocal();
      pushInt(src);
      mv.visitVarInsn(ISTORE, l);
      return l;
    }

    /** Whether {@code src} is VGPR {@code r}. */
    private static boolean reads(LaneFusion.Source src, int r) {
      return src.from() == LaneFusion.From.VGPR && src.index() == r;
    }

    /**
     * Pushes the long whose halves are the 32-bit sources {@code low} and {@code high}: the pair's long when they
     * are the halves of a VGPR pair known as one.
     */
    private void pushWide(LaneFusion.Source low, LaneFusion.Source high) {
      if (low.from() == LaneFusion.From.VGPR && high.from() == LaneFusion.From.VGPR
          && high.index() == low.index() + 1 && pairLocal[low.index()] >= 0) {
        mv.visitVarInsn(LLOAD, pairLocal[low.index()]);
        return;
      }
      Integer joined = scalarPairs.get(scalarPairKey(low, high));
      if (joined != null) {
        mv.visitVarInsn(LLOAD, joined);
        return;
      }
      pushInt(low);
      zeroExtend();
      pushInt(high);
      orHighHalf();
    }

    /** Stores a packed {value, carry in bit 32} result: the value to the VGPR, the carry as the step's bit. */
    private void storePacked(int index, LaneFusion.Step s) {
      int x = longLocal();
      mv.visitVarInsn(LSTORE, x);
      writeHalf(s.vdst(), x, false);
      if (bitReads[index] == 0) return;
      int bit = intLocal();
      pushHigh(x);
      mv.visitInsn(ICONST_1);
      mv.visitInsn(IAND);
      mv.visitVarInsn(ISTORE, bit);
      stepBit[index] = bit;
      accumulate(s.maskOut(), bit);
    }

    /** Sets the lane's bit of output mask {@code out} from the 0/1 in {@code bitLocal}. */
    private void accumulate(int out, int bitLocal) {
      if (out < 0) return; // a mask nothing reads after the run
      mv.visitVarInsn(LLOAD, maskOutLocal[out]);
      mv.visitVarInsn(ILOAD, bitLocal);
      mv.visitInsn(I2L);
      mv.visitVarInsn(ILOAD, lane);
      mv.visitInsn(LSHL);
      mv.visitInsn(LOR);
      mv.visitVarInsn(LSTORE, maskOutLocal[out]);
    }

    /** Pushes the array and index of VGPR {@code r}'s element for the lane in the register file. */
    private void pushLaneOf(int r) {
      mv.visitVarInsn(ALOAD, V);
      push(r * Wave.LANES);
      mv.visitVarInsn(ILOAD, lane);
      mv.visitInsn(IADD);
    }

    /** Ors the int on the stack, as the high half, into the long below it. */
    private void orHighHalf() {
      mv.visitInsn(I2L);
      mv.visitIntInsn(BIPUSH, 32);
      mv.visitInsn(LSHL);
      mv.visitInsn(LOR);
    }

    /** Pushes the low half of the long in {@code local}. */
    private void pushLow(int local) {
      mv.visitVarInsn(LLOAD, local);
      mv.visitInsn(L2I);
    }

    /** Pushes the high half of the long in {@code local}. */
    private void pushHigh(int local) {
      mv.visitVarInsn(LLOAD, local);
      mv.visitIntInsn(BIPUSH, 32);
      mv.visitInsn(LUSHR);
      mv.visitInsn(L2I);
    }

    /** Int on the stack to a long with the high half zero. */
    private void zeroExtend() {
      mv.visitInsn(I2L);
      mv.visitLdcInsn(0xffff_ffffL);
      mv.visitInsn(LAND);
    }

    private void push(int value) {
      if (value >= -1 && value <= 5) {
        mv.visitInsn(ICONST_0 + value);
      } else if (value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE) {
        mv.visitIntInsn(BIPUSH, value);
      } else if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
        mv.visitIntInsn(SIPUSH, value);
      } else {
        mv.visitLdcInsn(value);
      }
    }
  }
}
