package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.disasm.InstructionPrinter;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.dispatch.DispatchGeometry;
import dev.hipsim.isa.dispatch.DispatchPacket;
import dev.hipsim.isa.dispatch.KernelDescriptor;
import dev.hipsim.isa.exec.KernelLaunch;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.exec.Workgroup;
import dev.hipsim.isa.fp.FpMode;
import dev.hipsim.isa.mem.FlatMemory;
import java.util.Random;

/**
 * One wave on a bare device, for tests that execute single instructions: decode the words an {@link Enc} built,
 * compile them with {@link OpCompiler}, run them on the wave, and compare the whole register state with what a
 * reference model says it must be (so that a stray write to another register or an inactive lane fails too).
 */
final class Machine {
  static final long MEM = 0x1_0000_0000L;
  static final int MEM_SIZE = 1 << 20;
  /** Scratch backing for the wave: 256 KiB from MEM + 128 KiB. */
  static final long SCRATCH = MEM + 0x20000;
  static final int SCRATCH_PER_LANE = 4096;
  static final int LDS_BYTES = 64 << 10;
  static final long PC = 0x1000;
  /** The accumulation offset tests use: AGPRs start at v[256] of the unified file. */
  static final int ACC_OFFSET = 256;

  final Target target;
  final FlatMemory memory = new FlatMemory(MEM, MEM_SIZE);
  final KernelLaunch launch;
  final Workgroup group;
  final Wave w;
  final Ctx cx;

  /** Register state saved by {@link #snapshot()}. */
  int[] savedV;
  int[] savedS;
  int savedScc;
  byte[] savedLds;

  Machine(Target target) {
    this.target = target;
    try {
      DispatchPacket p = new DispatchPacket(DispatchPacket.TYPE_KERNEL_DISPATCH, 1, 64, 1, 1, 64, 1, 1,
          SCRATCH_PER_LANE, LDS_BYTES, MEM, MEM, 0);
      KernelDescriptor kd = KernelDescriptor.parse(new byte[64], 0);
      this.launch = new KernelLaunch("test", p, MEM, MEM, 0, kd, DispatchGeometry.of(p, 64), SCRATCH,
          SCRATCH_PER_LANE, 1, true, target.isCdna3(), TestDevice.PRIVATE_APERTURE, TestDevice.SHARED_APERTURE,
          new int[0]);
    } catch (DispatchException e) {
      throw new IllegalStateException(e);
    }
    this.group = Workgroup.standalone(1, LDS_BYTES);
    this.w = group.wave(0);
    w.accOffset = ACC_OFFSET;
    w.vgprCount = Wave.MAX_VGPRS;
    w.mode = FpMode.DEFAULT;
    w.scratchBase = SCRATCH;
    w.scratchPerLane = SCRATCH_PER_LANE;
    w.pc = PC;
    this.cx = new Ctx(memory, launch);
  }

  /** Random registers (the first {@code vgprs} VGPRs and AGPRs, every SGPR), VCC, M0 0, EXEC all lanes. */
  void randomize(Random r, int vgprs) {
    for (int i = 0; i < vgprs * Wave.LANES; i++) {
      w.v[i] = r.nextInt();
      w.v[ACC_OFFSET * Wave.LANES + i] = r.nextInt();
    }
    for (int i = 0; i < Wave.SGPR_SLOTS; i++) w.s[i] = r.nextInt();
    w.s[Wave.M0] = 0;
    w.setExec(-1L);
    w.scc = r.nextInt(2);
    w.gprIdxMask = 0;
    w.mode = FpMode.DEFAULT;
    w.pc = PC;
  }

  Instruction decode(Enc e) {
    Instruction inst = e.decode(w.pc);
    if (!inst.isValid()) throw new IllegalArgumentException("not an instruction: " + Long.toHexString(e.bits));
    return inst;
  }

  /** Decodes, compiles and executes one instruction. */
  void run(Enc e) throws DispatchException {
    Op op = OpCompiler.compile(decode(e));
    if (op instanceof Unimplemented) throw new AssertionError("unimplemented: " + text(e));
    op.execute(w, cx);
  }

  String text(Enc e) {
    return InstructionPrinter.print(decode(e));
  }

  void snapshot() {
    savedV = w.v.clone();
    savedS = w.s.clone();
    savedScc = w.scc;
    savedLds = group.lds().read(0, group.lds().capacity());
  }

  int v(int reg, int lane) {
    return w.v[reg * Wave.LANES + lane];
  }

  void setV(int reg, int lane, int value) {
    w.v[reg * Wave.LANES + lane] = value;
  }

  long v64(int reg, int lane) {
    return (v(reg, lane) & 0xffff_ffffL) | (long) v(reg + 1, lane) << 32;
  }

  void setV64(int reg, int lane, long value) {
    setV(reg, lane, (int) value);
    setV(reg + 1, lane, (int) (value >>> 32));
  }

  /** The saved VGPR value (before the instruction). */
  int before(int reg, int lane) {
    return savedV[reg * Wave.LANES + lane];
  }

  long before64(int reg, int lane) {
    return (before(reg, lane) & 0xffff_ffffL) | (long) before(reg + 1, lane) << 32;
  }

  /**
   * Checks that the vector and scalar files equal {@code v} and {@code s} everywhere, reporting the first
   * difference with the instruction's text.
   */
  void assertState(int[] v, int[] s, String what) {
    for (int i = 0; i < v.length; i++) {
      if (v[i] != w.v[i]) {
        throw new AssertionError(String.format("%s: v%d lane %d is 0x%08x, expected 0x%08x", what, i / 64, i % 64,
            w.v[i], v[i]));
      }
    }
    for (int i = 0; i < s.length; i++) {
      if (s[i] != w.s[i]) {
        throw new AssertionError(String.format("%s: s[%d] is 0x%08x, expected 0x%08x", what, i, w.s[i], s[i]));
      }
    }
  }
}
