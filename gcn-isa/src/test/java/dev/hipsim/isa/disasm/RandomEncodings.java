package dev.hipsim.isa.disasm;

import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.OpcodeInfo;
import dev.hipsim.isa.decode.OpcodeTables;
import dev.hipsim.isa.decode.Target;
import java.util.List;
import java.util.Random;

/**
 * Random instruction words of a chosen format: the format's fixed bits and (mostly) an opcode the target knows,
 * with the other bits random. Most words keep the bits LLVM requires to be zero clear, so they decode; the rest
 * exercise rejection.
 */
final class RandomEncodings {
  private RandomEncodings() {}

  /** A batch of probes of one format, nine in ten kept valid. */
  static java.util.List<int[]> batch(Random rnd, Target target, Format format, int count) {
    java.util.List<int[]> out = new java.util.ArrayList<>(count);
    for (int i = 0; i < count; i++) out.add(draw(rnd, target, format, rnd.nextInt(10) != 0));
    return out;
  }

  /**
   * Three random dwords with any top bits, except the MIMG (image) encoding, which gfx90a has and hipsim does not
   * decode.
   */
  static int[] anyWords(Random rnd) {
    int w0;
    do {
      w0 = rnd.nextInt();
    } while ((w0 >>> 26) == 0x3c);
    return new int[] {w0, rnd.nextInt(), rnd.nextInt()};
  }

  /** Three dwords: the instruction (4 or 8 bytes) and a random literal after it. */
  static int[] draw(Random rnd, Target target, Format format, boolean keepValid) {
    long bits = rnd.nextLong();
    List<OpcodeInfo> rows = OpcodeTables.get().rows(target).stream().filter(r -> r.format() == format).toList();
    int opcode;
    OpcodeInfo row = null;
    if (!rows.isEmpty() && (keepValid || rnd.nextInt(4) != 0)) {
      row = rows.get(rnd.nextInt(rows.size()));
      opcode = row.opcode();
    } else {
      opcode = rnd.nextInt(format.opcodeCount());
    }
    bits = place(format, bits, opcode);
    bits = biasOperands(rnd, format, bits);
    if (row != null && (keepValid || rnd.nextInt(5) != 0)) {
      long zero = row.zeroMask(bits);
      if (zero != -1L) bits = place(format, bits & ~zero, opcode);
    }
    int literal = rnd.nextInt(4) == 0 ? rnd.nextInt(130) - 65 : rnd.nextInt();
    if (rnd.nextInt(4) == 0) literal = CONSTANTS[rnd.nextInt(CONSTANTS.length)];
    return new int[] {(int) bits, (int) (bits >>> 32), literal};
  }

  private static final int[] CONSTANTS = {
      0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983,
      0x3800, 0x3c00, 0xbc00, 0x4400, 0x3118, 0x3fe00000, 0xbff00000, 0x40100000, 0x3fc45f30, 0, 1, 64, 65, -1, -16,
      -17, 0xffff, 0xfff0, 0x10000, 0x3c003c00};

  /** Sets the format's fixed bits and opcode. */
  static long place(Format f, long bits, int op) {
    long w0 = bits & 0xffffffffL;
    long hi = bits & 0xffffffff00000000L;
    switch (f) {
      case SOP2 -> w0 = 0x80000000L | (long) (op & 0x7f) << 23 | (w0 & 0x007fffffL);
      case SOPK -> w0 = 0xb0000000L | (long) (op & 0x1f) << 23 | (w0 & 0x007fffffL);
      case SOP1 -> w0 = 0xbe800000L | (long) (op & 0xff) << 8 | (w0 & 0x007f00ffL);
      case SOPC -> w0 = 0xbf000000L | (long) (op & 0x7f) << 16 | (w0 & 0xffffL);
      case SOPP -> w0 = 0xbf800000L | (long) (op & 0x7f) << 16 | (w0 & 0xffffL);
      case SMEM -> w0 = 0xc0000000L | (long) (op & 0xff) << 18 | (w0 & 0x3ffffL);
      case VOP2 -> w0 = (long) (op & 0x3f) << 25 | (w0 & 0x1ffffffL);
      case VOP1 -> w0 = 0x7e000000L | (long) (op & 0xff) << 9 | (w0 & 0x1fe01ffL);
      case VOPC -> w0 = 0x7c000000L | (long) (op & 0xff) << 17 | (w0 & 0x1ffffL);
      case VOP3 -> w0 = 0xd0000000L | (long) (op & 0x3ff) << 16 | (w0 & 0xffffL);
      case VOP3P -> w0 = 0xd3800000L | (long) (op & 0x7f) << 16 | (w0 & 0xffffL);
      case VOP1_DPP -> w0 = 0x7e0000faL | (long) (op & 0xff) << 9 | (w0 & 0x1fe0000L);
      case VOP2_DPP -> w0 = 0xfaL | (long) (op & 0x3f) << 25 | (w0 & 0x1fffe00L);
      case VOP1_SDWA -> w0 = 0x7e0000f9L | (long) (op & 0xff) << 9 | (w0 & 0x1fe0000L);
      case VOP2_SDWA -> w0 = 0xf9L | (long) (op & 0x3f) << 25 | (w0 & 0x1fffe00L);
      case VOPC_SDWA -> w0 = 0x7c0000f9L | (long) (op & 0xff) << 17 | (w0 & 0x1fe00L);
      case DS -> w0 = 0xd8000000L | (long) (op & 0xff) << 17 | (w0 & 0x201ffffL);
      case MUBUF -> w0 = 0xe0000000L | (long) (op & 0x7f) << 18 | (w0 & 0x203ffffL);
      case MTBUF -> w0 = 0xe8000000L | (long) (op & 0xf) << 15 | (w0 & 0x3f87fffL);
      case FLAT -> w0 = 0xdc000000L | (long) (op & 0x7f) << 18 | (w0 & 0x2033fffL);
      case SCRATCH -> w0 = 0xdc004000L | (long) (op & 0x7f) << 18 | (w0 & 0x2033fffL);
      case GLOBAL -> w0 = 0xdc008000L | (long) (op & 0x7f) << 18 | (w0 & 0x2033fffL);
    }
    return hi | w0;
  }

  /**
   * Pulls 9-bit source fields towards the interesting encodings (registers, constants, the literal, specials) and
   * away from the unused ranges, so that most probes decode.
   */
  private static long biasOperands(Random rnd, Format f, long bits) {
    switch (f) {
      case VOP1, VOP2, VOPC -> bits = setField(bits, 0, 9, source(rnd));
      case VOP3 -> {
        // llvm-mc crashes on a 64-bit VALU encoding with a literal (the encoding has none), so avoid 255
        bits = setField(bits, 32, 9, noLiteral(rnd));
        bits = setField(bits, 41, 9, noLiteral(rnd));
        bits = setField(bits, 50, 9, noLiteral(rnd));
      }
      case VOP3P -> {
        // ... and on matrix instructions whose A/B operands are constants: keep those in the register ranges
        boolean matrix = ((bits >>> 22) & 1) != 0;
        bits = setField(bits, 32, 9, matrix ? 256 + rnd.nextInt(256) : noLiteral(rnd));
        bits = setField(bits, 41, 9, matrix ? 256 + rnd.nextInt(256) : noLiteral(rnd));
        bits = setField(bits, 50, 9, noLiteral(rnd));
      }
      case SOP1, SOP2, SOPC -> {
        bits = setField(bits, 0, 8, source(rnd) & 0xff);
        bits = setField(bits, 8, 8, rnd.nextBoolean() ? source(rnd) & 0xff : (bits >>> 8) & 0xff);
      }
      case VOP1_SDWA, VOP2_SDWA, VOPC_SDWA -> {
        // a select of 7 makes llvm-mc crash: keep the selects valid
        bits = setField(bits, 40, 3, rnd.nextInt(7));
        bits = setField(bits, 48, 3, rnd.nextInt(7));
        bits = setField(bits, 56, 3, rnd.nextInt(7));
      }
      default -> {
      }
    }
    return bits;
  }

  private static int noLiteral(Random rnd) {
    int v = source(rnd);
    return v == 255 ? 256 + rnd.nextInt(256) : v;
  }

  private static int source(Random rnd) {
    return switch (rnd.nextInt(8)) {
      case 0, 1 -> 256 + rnd.nextInt(256);
      case 2 -> rnd.nextInt(102);
      case 3 -> 128 + rnd.nextInt(81);
      case 4 -> 240 + rnd.nextInt(9);
      case 5 -> 255;
      case 6 -> new int[] {102, 103, 104, 105, 106, 107, 124, 125, 126, 127, 230, 231, 235, 236, 237, 238, 239, 251,
          252, 253, 254}[rnd.nextInt(21)];
      default -> rnd.nextInt(512);
    };
  }

  private static long setField(long bits, int lo, int width, long value) {
    long mask = ((1L << width) - 1) << lo;
    return (bits & ~mask) | ((value << lo) & mask);
  }
}
