package dev.hipsim.isa.alu;

/**
 * Where the elements of an MFMA's A, B, C and D matrices live in the registers, after the CDNA3/CDNA4 ISA guides'
 * general layout (section 7.1.4), which AMD's matrix instruction calculator confirms for every dense instruction
 * of both targets; for the f64 outputs the calculator's layout is used (it places the 4 blocks of
 * V_MFMA_F64_4X4X4_4B_F64 in lanes 4b..4b+3 of each 16-lane row, where the guide's formula would put them in
 * separate rows).
 *
 * <p>Inputs: with {@code K_L = K / (64 / (M * B))} consecutive K values per lane, A[b][i][k] is item
 * {@code k % K_L} of lane {@code i + M * (b + B * (k / K_L))}, and B[b][k][j] item {@code k % K_L} of lane
 * {@code j + N * (b + B * (k / K_L))}. Items pack little-endian into consecutive registers (two registers per f64
 * item).
 *
 * <p>Outputs: with {@code H = 4} (1 for f64), {@code B_I = ceil(64 / (N * M / H))}, {@code M_I = 64 / B_I / N},
 * {@code G = M / (H * M_I)}, D[b][i][j] is item {@code (i % H) + H * (i / (H * M_I) + G * (b / B_I))} of lane
 * {@code j + N * ((i / H) % M_I + M_I * (b % B_I))}.
 *
 * <p>Sparse A (SMFMAC): the two stored values of each group of four K positions are consecutive "compressed"
 * elements; the K/2 compressed elements follow the dense input layout, and the lane holding a group also holds
 * its two 2-bit positions in a nibble of the index register (nibble {@code group % groupsPerLane}).
 */
public final class MfmaLayout {
  private MfmaLayout() {}

  /** K values one lane holds for the (dense) A and B inputs. */
  public static int kPerLane(MfmaOp op) {
    return op.k / (64 / (op.m * op.blocks));
  }

  public static int aLane(MfmaOp op, int b, int i, int k) {
    return i + op.m * (b + op.blocks * (k / kPerLane(op)));
  }

  public static int aItem(MfmaOp op, int k) {
    return k % kPerLane(op);
  }

  public static int bLane(MfmaOp op, int b, int k, int j) {
    return j + op.n * (b + op.blocks * (k / kPerLane(op)));
  }

  public static int bItem(MfmaOp op, int k) {
    return k % kPerLane(op);
  }

  static int groupHeight(MfmaOp op) {
    return op.typeCd == MfmaType.F64 ? 1 : 4;
  }

  static int blocksPerItem(MfmaOp op) {
    int h = groupHeight(op);
    int perItem = op.n * op.m / h;
    return (64 + perItem - 1) / perItem;
  }

  public static int dLane(MfmaOp op, int b, int i, int j) {
    int h = groupHeight(op);
    int bi = blocksPerItem(op);
    int mi = 64 / bi / op.n;
    if (h == 1) return j + op.n * (b % bi) + op.n * bi * (i % mi);
    return j + op.n * ((i / h) % mi + mi * (b % bi));
  }

  public static int dItem(MfmaOp op, int b, int i, int j) {
    int h = groupHeight(op);
    int bi = blocksPerItem(op);
    int mi = 64 / bi / op.n;
    int g = op.m / (h * mi);
    return (i % h) + h * (i / (h * mi) + g * (b / bi));
  }

  /** First register (relative to the operand's base) of an item of type {@code t}. */
  public static int itemRegister(MfmaType t, int item) {
    return t.bits == 64 ? 2 * item : item * t.bits / 32;
  }

  /** Bit offset of an item inside its register (0 for 32- and 64-bit items). */
  public static int itemShift(MfmaType t, int item) {
    return t.bits >= 32 ? 0 : item * t.bits % 32;
  }

  // ---- sparse A

  /** Compressed A elements one lane holds (K/2 split over the lanes like a dense input). */
  public static int compressedPerLane(MfmaOp op) {
    return op.k / 2 / (64 / op.m);
  }

  /** Lane of compressed element {@code kc} (= 2 * group + slot) of row {@code i}. */
  public static int sparseALane(MfmaOp op, int i, int kc) {
    return i + op.m * (kc / compressedPerLane(op));
  }

  public static int sparseAItem(MfmaOp op, int kc) {
    return kc % compressedPerLane(op);
  }

  /** Bit offset, within the selected index set, of the nibble holding group {@code group}'s two positions. */
  public static int sparseIndexShift(MfmaOp op, int group) {
    return 4 * (group % (compressedPerLane(op) / 2));
  }
}
