package dev.hipsim.isa.alu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.fp.Fp8;
import dev.hipsim.isa.fp.FpMode;
import dev.hipsim.isa.fp.Half;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * MFMA/SMFMAC: instruction facts and register layouts against AMD's matrix instruction calculator, and the
 * arithmetic against a plain matrix multiply of the logical matrices gathered with the guide's layout formula.
 */
class MfmaProperties {
  static List<String[]> rows(String resource) throws IOException {
    List<String[]> rows = new ArrayList<>();
    try (InputStream in = MfmaProperties.class.getResourceAsStream("/mfma/" + resource)) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isEmpty() && !line.startsWith("#")) rows.add(line.split("\t"));
      }
    }
    return rows;
  }

  static int target(String arch) {
    return arch.equals("CDNA2") ? MfmaOp.GFX90A : MfmaOp.GFX940;
  }

  static MfmaOp byName(int target, String mnemonic) {
    for (MfmaOp op : MfmaOp.values()) {
      if (mnemonic.equals(op.mnemonic(target))) return op;
    }
    throw new AssertionError("no MfmaOp for " + mnemonic);
  }

  static String typeName(MfmaType t) {
    switch (t) {
      case F32:
      case XF32:
        return "FP32";
      case F16:
        return "FP16";
      case F64:
        return "FP64";
      case I8:
        return "int8";
      case I32:
        return "int32";
      default:
        return t.name();
    }
  }

  @Example
  void everyInstructionOfBothTargetsWithItsFacts() throws IOException {
    Set<MfmaOp> seen90a = EnumSet.noneOf(MfmaOp.class);
    Set<MfmaOp> seen940 = EnumSet.noneOf(MfmaOp.class);
    for (String[] r : rows("instructions.tsv")) {
      int t = target(r[0]);
      MfmaOp op = byName(t, r[1]);
      (t == MfmaOp.GFX90A ? seen90a : seen940).add(op);
      assertThat(op.opcode(t)).as(r[1]).isEqualTo(Integer.decode(r[2]));
      assertThat(new int[] {op.m, op.n, op.k, op.blocks}).as(r[1])
          .containsExactly(Integer.parseInt(r[3]), Integer.parseInt(r[4]), Integer.parseInt(r[5]),
              Integer.parseInt(r[6]));
      assertThat(op.registersA()).as(r[1]).isEqualTo(Integer.parseInt(r[7]));
      assertThat(op.registersB()).as(r[1]).isEqualTo(Integer.parseInt(r[8]));
      assertThat(op.registersCd()).as(r[1]).isEqualTo(Integer.parseInt(r[9]));
      assertThat(typeName(op.typeA)).isEqualTo(r[10]);
      assertThat(typeName(op.typeB)).isEqualTo(r[11]);
      assertThat(typeName(op.typeCd)).isEqualTo(r[12]);
      assertThat(op.sparse()).isEqualTo(Boolean.parseBoolean(r[15]));
      if (!op.sparse()) {
        assertThat(op.honoursCbszAbid()).as(r[1]).isEqualTo(Boolean.parseBoolean(r[13]));
        boolean blgp = op.typeCd == MfmaType.F64 ? t == MfmaOp.GFX940 : op.honoursBlgp(t);
        assertThat(blgp).as(r[1]).isEqualTo(Boolean.parseBoolean(r[14]));
      }
      assertThat(MfmaOp.forOpcode(t, op.opcode(t))).isEqualTo(op);
    }
    assertThat(seen90a).hasSize(27);
    assertThat(seen940).hasSize(46);
    for (MfmaOp op : MfmaOp.values()) {
      assertThat(op.existsOn(MfmaOp.GFX90A)).isEqualTo(seen90a.contains(op));
      assertThat(op.existsOn(MfmaOp.GFX940)).isEqualTo(seen940.contains(op));
    }
  }

  /** The full layout of every matrix of every instruction, compared by digest with the calculator's. */
  @Example
  void layoutsMatchTheCalculatorEverywhere() throws Exception {
    int checked = 0;
    for (String[] r : rows("layouts.tsv")) {
      MfmaOp op = byName(target(r[0]), r[1]);
      List<String> entries = listing(op, r[2]);
      for (String sample : r[5].split(";")) {
        String key = sample.substring(0, sample.indexOf('='));
        String mine = entries.stream().filter(e -> e.startsWith(key + "=")).findFirst().orElse("missing " + key);
        assertThat(mine).as("%s %s %s", r[0], r[1], r[2]).isEqualTo(sample);
      }
      assertThat(entries).as("%s %s %s", r[0], r[1], r[2]).hasSize(Integer.parseInt(r[3]));
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (String e : entries) sha.update((e + "\n").getBytes(StandardCharsets.US_ASCII));
      assertThat(HexFormat.of().formatHex(sha.digest())).as("%s %s %s", r[0], r[1], r[2]).isEqualTo(r[4]);
      checked += entries.size();
    }
    assertThat(checked).isGreaterThan(100_000);
  }

  static List<String> listing(MfmaOp op, String matrix) {
    List<String> out = new ArrayList<>();
    switch (matrix) {
      case "A":
        for (int b = 0; b < op.blocks; b++) {
          for (int i = 0; i < op.m; i++) {
            for (int k = 0; k < op.k; k++) {
              if (op.sparse()) {
                int c = 2 * (k / 4);
                int item = MfmaLayout.sparseAItem(op, c);
                out.add(entry(b, i, k, MfmaLayout.itemRegister(op.typeA, item), MfmaLayout.sparseALane(op, i, c),
                    MfmaLayout.itemShift(op.typeA, item), 2 * op.typeA.bits));
              } else {
                int item = MfmaLayout.aItem(op, k);
                out.add(entry(b, i, k, MfmaLayout.itemRegister(op.typeA, item), MfmaLayout.aLane(op, b, i, k),
                    MfmaLayout.itemShift(op.typeA, item), op.typeA.bits));
              }
            }
          }
        }
        break;
      case "B":
        for (int b = 0; b < op.blocks; b++) {
          for (int k = 0; k < op.k; k++) {
            for (int j = 0; j < op.n; j++) {
              int item = MfmaLayout.bItem(op, k);
              out.add(entry(b, k, j, MfmaLayout.itemRegister(op.typeB, item), MfmaLayout.bLane(op, b, k, j),
                  MfmaLayout.itemShift(op.typeB, item), op.typeB.bits));
            }
          }
        }
        break;
      case "D":
        for (int b = 0; b < op.blocks; b++) {
          for (int i = 0; i < op.m; i++) {
            for (int j = 0; j < op.n; j++) {
              out.add(entry(b, i, j, MfmaLayout.itemRegister(op.typeCd, MfmaLayout.dItem(op, b, i, j)),
                  MfmaLayout.dLane(op, b, i, j), 0, op.typeCd.bits));
            }
          }
        }
        break;
      default: // k: the sparse compression indices
        for (int i = 0; i < op.m; i++) {
          for (int k = 0; k < op.k; k++) {
            int g = k / 4;
            out.add(entry(0, i, k, 0, MfmaLayout.sparseALane(op, i, 2 * g), MfmaLayout.sparseIndexShift(op, g), 4));
          }
        }
    }
    return out;
  }

  static String entry(int b, int row, int col, int reg, int lane, int lo, int bits) {
    return b + "," + row + "," + col + "=" + reg + "," + lane + "," + lo + "," + bits;
  }

  /** The guide's worked example for v_mfma_f32_32x32x8f16. */
  @Example
  void documentedExample32x32x8f16() {
    MfmaOp op = MfmaOp.F32_32X32X8_F16;
    for (int i = 0; i < 32; i++) {
      for (int k = 0; k < 8; k++) {
        assertThat(MfmaLayout.aLane(op, 0, i, k)).isEqualTo(i + 32 * (k / 4));
        assertThat(MfmaLayout.aItem(op, k)).isEqualTo(k % 4);
      }
      for (int j = 0; j < 32; j++) {
        assertThat(MfmaLayout.itemRegister(MfmaType.F32, MfmaLayout.dItem(op, 0, i, j)))
            .isEqualTo((i % 4) + 4 * (i / 8));
        assertThat(MfmaLayout.dLane(op, 0, i, j)).isEqualTo(j + 32 * ((i / 4) % 2));
      }
    }
  }

  // ---- arithmetic against a plain matrix multiply

  static final int A_BASE = 64;
  static final int B_BASE = 80;
  static final int C_BASE = 96;
  static final int D_BASE = 160;

  /** A value of type t, kept small enough that f16/bf16/fp8 products and sums stay finite. */
  static int randomElement(MfmaType t, Random rnd) {
    switch (t) {
      case F16:
        return Half.fromFloat((float) (rnd.nextGaussian() * 4)) & 0xffff;
      case BF16:
        return Float.floatToRawIntBits((float) (rnd.nextGaussian() * 4)) >>> 16;
      case I8:
        return rnd.nextInt(256);
      case FP8:
      case BF8:
        int v = rnd.nextInt(256);
        return v == 0x80 ? 0 : v;
      case F64:
        return 0; // filled as pairs
      default:
        return Float.floatToRawIntBits((float) (rnd.nextGaussian() * 8));
    }
  }

  /** Fills the registers of an operand with random elements, packing sub-dword items. */
  static void fill(int[] regs, int base, int count, MfmaType t, Random rnd) {
    for (int r = 0; r < count; r++) {
      for (int lane = 0; lane < 64; lane++) {
        int word = 0;
        if (t.bits >= 32) {
          word = randomElement(t, rnd);
        } else {
          for (int s = 0; s < 32; s += t.bits) word |= randomElement(t, rnd) << s;
        }
        regs[(base + r) * 64 + lane] = word;
      }
    }
    if (t == MfmaType.F64) {
      for (int r = 0; r < count; r += 2) {
        for (int lane = 0; lane < 64; lane++) {
          long d = Double.doubleToRawLongBits(rnd.nextGaussian() * 8);
          regs[(base + r) * 64 + lane] = (int) d;
          regs[(base + r + 1) * 64 + lane] = (int) (d >>> 32);
        }
      }
    }
  }

  /** Reference: the guide's formulas written out again, then ordinary loops. */
  static int refKPerLane(MfmaOp op) {
    return op.k / (64 / (op.m * op.blocks));
  }

  static long refRead(int[] regs, int base, MfmaType t, int item, int lane) {
    if (t.bits == 64) {
      return (regs[(base + 2 * item) * 64 + lane] & 0xffffffffL) | (long) regs[(base + 2 * item + 1) * 64 + lane] << 32;
    }
    int perReg = 32 / t.bits;
    int word = regs[(base + item / perReg) * 64 + lane];
    return t.bits == 32 ? word : (word >>> (item % perReg * t.bits)) & ((1 << t.bits) - 1);
  }

  /** Element value as a double (exact for every input type). */
  static double refValue(MfmaType t, long raw) {
    switch (t) {
      case F16:
        return Half.toFloat((int) raw);
      case BF16:
        return Float.intBitsToFloat((int) raw << 16);
      case I8:
        return (byte) raw;
      case FP8:
        return Float.intBitsToFloat(Fp8.fp8ToF32((int) raw));
      case BF8:
        return Float.intBitsToFloat(Fp8.bf8ToF32((int) raw));
      case F64:
        return Double.longBitsToDouble(raw);
      case XF32:
        return Float.intBitsToFloat(Mfma.roundToXf32((int) raw));
      default:
        return Float.intBitsToFloat((int) raw);
    }
  }

  static int refDLane(MfmaOp op, int b, int i, int j, int[] itemOut) {
    int h = op.typeCd == MfmaType.F64 ? 1 : 4;
    int bi = (int) Math.ceil(64.0 / (op.n * op.m / (double) h));
    int mi = 64 / bi / op.n;
    int g = op.m / (h * mi);
    itemOut[0] = (i % h) + h * (i / (h * mi) + g * (b / bi));
    if (h == 1) return j + op.n * (b % bi) + op.n * bi * (i % mi); // the calculator's f64 layout
    return j + op.n * ((i / h) % mi + mi * (b % bi));
  }

  @Property(tries = 400)
  void denseMatchesPlainMatrixMultiply(@ForAll MfmaOp op, @ForAll long seed, @ForAll @IntRange(max = 4) int cbsz,
      @ForAll @IntRange(max = 15) int abid, @ForAll @IntRange(max = 7) int blgp) {
    if (op.sparse()) return;
    int target = op.existsOn(MfmaOp.GFX940) && (seed & 1) == 0 || !op.existsOn(MfmaOp.GFX90A) ? MfmaOp.GFX940
        : MfmaOp.GFX90A;
    Random rnd = new Random(seed);
    if (cbsz > 0 && (1 << cbsz) > op.blocks) cbsz = 0;
    abid = cbsz == 0 ? 0 : abid % (1 << cbsz);
    int[] regs = new int[256 * 64];
    fill(regs, A_BASE, op.registersA(), op.typeA, rnd);
    fill(regs, B_BASE, op.registersB(), op.typeB, rnd);
    fill(regs, C_BASE, op.registersCd(), op.typeCd, rnd);
    int[] before = regs.clone();
    Mfma.execute(op, target, regs, D_BASE, A_BASE, B_BASE, C_BASE, cbsz, abid, blgp, FpMode.DEFAULT);

    int kl = refKPerLane(op);
    boolean f64 = op.typeCd == MfmaType.F64;
    boolean neg940 = f64 && target == MfmaOp.GFX940;
    int[] item = new int[1];
    for (int b = 0; b < op.blocks; b++) {
      for (int i = 0; i < op.m; i++) {
        for (int j = 0; j < op.n; j++) {
          int lane = refDLane(op, b, i, j, item);
          int reg = f64 ? 2 * item[0] : item[0];
          double c = f64 ? Double.longBitsToDouble(refRead(before, C_BASE, MfmaType.F64, item[0], lane))
              : op.typeCd == MfmaType.I32 ? before[(C_BASE + reg) * 64 + lane]
              : Float.intBitsToFloat(before[(C_BASE + reg) * 64 + lane]);
          if (neg940 && (blgp & 4) != 0) c = -c;
          float accF = (float) c;
          double accD = c;
          int accI = (int) c;
          for (int k = 0; k < op.k; k++) {
            int laneA = i + op.m * (b + op.blocks * (k / kl));
            if (cbsz != 0 && op.honoursCbszAbid()) {
              int s = 64 >> cbsz;
              laneA = laneA % s + s * abid;
            }
            int laneB = j + op.n * (b + op.blocks * (k / kl));
            if (op.honoursBlgp(target)) {
              laneB = blgp == 0 ? laneB : blgp == 1 ? laneB % 32 : blgp == 2 ? laneB % 32 + 32
                  : blgp == 3 ? (laneB + 16) % 64 : laneB % 16 + 16 * (blgp - 4);
            }
            double a = refValue(op.typeA, refRead(before, A_BASE, op.typeA, k % kl, laneA));
            double bb = refValue(op.typeB, refRead(before, B_BASE, op.typeB, k % kl, laneB));
            if (neg940 && (blgp & 1) != 0) a = -a;
            if (neg940 && (blgp & 2) != 0) bb = -bb;
            if (f64) {
              accD = Math.fma(a, bb, accD);
            } else if (op.typeCd == MfmaType.I32) {
              accI += (int) a * (int) bb;
            } else {
              accF = Math.fma((float) a, (float) bb, accF);
            }
          }
          if (f64) {
            long got = (regs[(D_BASE + reg) * 64 + lane] & 0xffffffffL) | (long) regs[(D_BASE + reg + 1) * 64 + lane] << 32;
            assertThat(Double.longBitsToDouble(got)).as("%s b%d i%d j%d", op, b, i, j).isEqualTo(accD);
          } else if (op.typeCd == MfmaType.I32) {
            assertThat(regs[(D_BASE + reg) * 64 + lane]).as("%s b%d i%d j%d", op, b, i, j).isEqualTo(accI);
          } else {
            int got = regs[(D_BASE + reg) * 64 + lane];
            if (Float.isNaN(accF)) {
              assertThat(Float.isNaN(Float.intBitsToFloat(got))).isTrue();
            } else {
              assertThat(got).as("%s b%d i%d j%d", op, b, i, j).isEqualTo(Float.floatToRawIntBits(accF));
            }
          }
        }
      }
    }
    // Nothing but D changed.
    for (int r = 0; r < 256; r++) {
      if (r >= D_BASE && r < D_BASE + op.registersCd()) continue;
      assertThat(Arrays.copyOfRange(regs, r * 64, r * 64 + 64)).isEqualTo(Arrays.copyOfRange(before, r * 64, r * 64 + 64));
    }
  }

  /** SMFMAC equals the dense product of the decompressed A (zeros elsewhere), C being D itself. */
  @Property(tries = 150)
  void sparseMatchesDenseProductOfTheDecompressedA(@ForAll MfmaOp op, @ForAll long seed,
      @ForAll @IntRange(max = 3) int abid, @ForAll boolean useCbsz) {
    if (!op.sparse()) return;
    Random rnd = new Random(seed);
    int[] regs = new int[256 * 64];
    fill(regs, A_BASE, op.registersA(), op.typeA, rnd);
    fill(regs, B_BASE, op.registersB(), op.typeB, rnd);
    fill(regs, D_BASE, op.registersCd(), op.typeCd, rnd);
    int indexReg = 120;
    int[][] pairs = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    for (int lane = 0; lane < 64; lane++) {
      int word = 0;
      for (int nib = 0; nib < 8; nib++) {
        int[] p = pairs[rnd.nextInt(6)];
        word |= (p[0] | p[1] << 2) << (4 * nib);
      }
      regs[indexReg * 64 + lane] = word;
    }
    int cbsz = useCbsz ? 1 : 0;
    int[] before = regs.clone();
    Mfma.executeSparse(op, regs, D_BASE, A_BASE, B_BASE, indexReg, cbsz, abid, FpMode.DEFAULT);

    boolean eightBit = op.typeA.bits == 8;
    int set = cbsz != 0 ? 0 : eightBit ? abid & 1 : abid;
    int setBits = eightBit ? 16 : 8;
    int kc = op.k / 2;
    int perLane = kc / (64 / op.m);
    double[][] dense = new double[op.m][op.k];
    for (int i = 0; i < op.m; i++) {
      for (int c = 0; c < kc; c++) {
        int lane = i + op.m * (c / perLane);
        double v = refValue(op.typeA, refRead(before, A_BASE, op.typeA, c % perLane, lane));
        int g = c / 2;
        int nibble = before[indexReg * 64 + lane] >>> (setBits * set + 4 * (g % (perLane / 2))) & 15;
        int pos = (c % 2 == 0) ? nibble & 3 : nibble >>> 2;
        dense[i][4 * g + pos] = v;
      }
    }
    int kl = op.k / (64 / op.n);
    int[] item = new int[1];
    for (int i = 0; i < op.m; i++) {
      for (int j = 0; j < op.n; j++) {
        int lane = refDLane(op, 0, i, j, item);
        int c0 = before[(D_BASE + item[0]) * 64 + lane];
        float accF = Float.intBitsToFloat(c0);
        int accI = c0;
        for (int k = 0; k < op.k; k++) {
          double b = refValue(op.typeB, refRead(before, B_BASE, op.typeB, k % kl, j + op.n * (k / kl)));
          boolean stored = isStored(before, indexReg, op, i, k, set, setBits, perLane);
          if (!stored) continue;
          if (op.typeCd == MfmaType.I32) {
            accI += (int) dense[i][k] * (int) b;
          } else {
            accF = Math.fma((float) dense[i][k], (float) b, accF);
          }
        }
        int got = regs[(D_BASE + item[0]) * 64 + lane];
        if (op.typeCd == MfmaType.I32) {
          assertThat(got).as("%s i%d j%d", op, i, j).isEqualTo(accI);
        } else if (!Float.isNaN(accF)) {
          assertThat(got).as("%s i%d j%d", op, i, j).isEqualTo(Float.floatToRawIntBits(accF));
        }
      }
    }
  }

  /** Whether dense position k of row i is one of the two stored positions of its group. */
  static boolean isStored(int[] regs, int indexReg, MfmaOp op, int i, int k, int set, int setBits, int perLane) {
    int g = k / 4;
    int lane = i + op.m * ((2 * g) / perLane);
    int nibble = regs[indexReg * 64 + lane] >>> (setBits * set + 4 * (g % (perLane / 2))) & 15;
    return (nibble & 3) == k % 4 || (nibble >>> 2) == k % 4;
  }

  @Example
  void f32InputsHonourTheInputFlushMode() {
    MfmaOp op = MfmaOp.F32_32X32X2_F32;
    int[] regs = new int[256 * 64];
    Arrays.fill(regs, A_BASE * 64, A_BASE * 64 + 64, 0x00400000); // f32 denormal 2^-127
    Arrays.fill(regs, B_BASE * 64, B_BASE * 64 + 64, Float.floatToRawIntBits(0x1p100f));
    int flushIn = FpMode.withDenorm(FpMode.DEFAULT, dev.hipsim.isa.fp.FpFormat.F32, FpMode.DENORM_FLUSH_IN);
    Mfma.execute(op, MfmaOp.GFX90A, regs, D_BASE, A_BASE, B_BASE, C_BASE, 0, 0, 0, flushIn);
    assertThat(regs[D_BASE * 64]).isZero();
    Mfma.execute(op, MfmaOp.GFX90A, regs, D_BASE, A_BASE, B_BASE, C_BASE, 0, 0, 0, FpMode.DEFAULT);
    assertThat(Float.intBitsToFloat(regs[D_BASE * 64])).isEqualTo(0x1p-27f * 2); // two k terms of 2^-27
  }

  @Example
  void constantCIsBroadcast() {
    MfmaOp op = MfmaOp.F32_16X16X4_F32;
    int[] regs = new int[256 * 64];
    Mfma.executeConstantC(op, MfmaOp.GFX940, regs, D_BASE, A_BASE, B_BASE, Float.floatToRawIntBits(1.5f), 0, 0, 0,
        FpMode.DEFAULT);
    for (int r = 0; r < 4; r++) {
      for (int lane = 0; lane < 64; lane++) {
        assertThat(Float.intBitsToFloat(regs[(D_BASE + r) * 64 + lane])).isEqualTo(1.5f);
      }
    }
  }
}
