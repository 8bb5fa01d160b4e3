package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.exec.Wave;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Builds random VALU instructions of an operation in the encodings it has (VOP1/VOP2/VOPC, VOP3) with random
 * sources under the GFX9 operand rules, so that properties only state the lane semantics.
 */
final class ValuHarness {
  private ValuHarness() {}

  /** One generated instruction: its words, the source encodings and the literal. */
  record Built(Enc enc, int[] src, int literal, int vdst, boolean vop3) {}

  /** The 32-bit (VOP1/VOP2/VOPC) or VOP3 formats the target has for {@code op}. */
  static List<Format> formats(Target t, Operation op) {
    List<Format> out = new ArrayList<>();
    for (Format f : new Format[] {Format.VOP1, Format.VOP2, Format.VOPC, Format.VOP3}) {
      if (Enc.has(t, f, op)) out.add(f);
    }
    return out;
  }

  /**
   * A random instance of {@code op} with {@code arity} sources: VOP3 sources use at most one scalar value (the
   * GFX9 constant bus) and no literal; 32-bit encodings take any source 0 (literal included) and VGPR source 1.
   * Sources that must be VGPRs ({@code vectorOnly} bit i) are VGPRs; the destination is v0-v15.
   */
  static Built build(Random r, Target t, Operation op, int arity, int vectorOnly, boolean preferVop3) {
    List<Format> fs = formats(t, op);
    Format f = fs.get(r.nextInt(fs.size()));
    if (preferVop3 && fs.contains(Format.VOP3)) f = Format.VOP3;
    boolean vop3 = f == Format.VOP3;
    int[] src = new int[arity];
    int literal = r.nextInt();
    int scalar = -1;
    for (int i = 0; i < arity; i++) {
      boolean mustVector = (vectorOnly >>> i & 1) != 0 || (!vop3 && i > 0);
      int s;
      if (mustVector) {
        s = 256 + r.nextInt(16);
      } else {
        s = Sources.random(r, scalar < 0 || r.nextBoolean(), !vop3 && i == 0);
        if (s < 128) {
          if (scalar >= 0) s = scalar; // the same SGPR again is one constant-bus read
          scalar = s;
        } else if (s == Sources.LITERAL) {
          scalar = Integer.MAX_VALUE; // no SGPR may join a literal
        }
      }
      src[i] = s;
    }
    int vdst = r.nextInt(16);
    Enc e = Enc.of(t, f, op);
    if (f != Format.VOPC) e.vdst(vdst);
    if (arity > 0) e.src0(src[0]);
    if (arity > 1) e.src1(src[1]);
    if (arity > 2) e.src2(src[2]);
    if (src.length > 0 && src[0] == Sources.LITERAL) e.literal(literal);
    return new Built(e, src, literal, vdst, vop3);
  }

  /** Expected vector file after writing {@code values[lane]} to {@code reg} in the lanes of {@code exec}. */
  /** A random encoding of {@code op} with the sources its spec reads, in one of the target's formats for it. */
  static Built random(Random r, Target t, Operation op, ValuSpec spec) {
    List<Format> fs = formats(t, op);
    Format f = fs.get(r.nextInt(fs.size()));
    return build(r, t, op, spec.sourceCount(), 0, f == Format.VOP3);
  }

  /**
   * The instruction {@code b} encodes, decoded on {@code m}, when it is a plain form of {@code op}
   * ({@link ValuKernels#plain}); null when it is not, or not an instruction at all.
   */
  static Instruction plainInstruction(Machine m, Built b, Operation op, ValuSpec spec) {
    try {
      Instruction inst = m.decode(b.enc());
      return inst.operation() == op && ValuKernels.plain(inst, spec) ? inst : null;
    } catch (IllegalArgumentException notAnInstruction) {
      return null;
    }
  }

  static int[] expectWrite(Machine m, int reg, long exec, int[] values) {
    int[] v = m.savedV.clone();
    for (int l = 0; l < Wave.LANES; l++) {
      if ((exec >>> l & 1) != 0) v[reg * Wave.LANES + l] = values[l];
    }
    return v;
  }

  /** The expected register after a 16-bit result: zeroed high half, or the old high half kept. */
  static int half(Machine m, int reg, int lane, int result, boolean preserve) {
    return preserve ? (m.before(reg, lane) & 0xffff0000) | (result & 0xffff) : result & 0xffff;
  }
}
