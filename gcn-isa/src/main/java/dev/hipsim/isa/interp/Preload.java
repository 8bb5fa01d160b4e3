package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Decoder;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Target;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Readies the decoder's opcode tables and the interpreter's operation tables on a background thread when a device
 * comes up, so that a program's first dispatch does not wait for them. On a cold JVM they cost about as much as
 * the first dispatch of a small kernel (parsing the tables, linking the ALU lambdas, loading the op classes).
 * Class initialisation is thread-safe: a dispatch that needs a table before the background thread is done waits for
 * it rather than repeating the work, and nothing here changes what any instruction does.
 */
public final class Preload {
  private static final AtomicBoolean STARTED = new AtomicBoolean();

  /** A few instructions of each common family, in encodings gfx90a and gfx940/gfx942 share (llvm-mc's). */
  private static final int[] CODE = {
    0xc0060000, 0x00000000, // s_load_dwordx2 s[0:1], s[0:1], 0x0
    0x80141615, // s_add_u32 s20, s21, s22
    0x92171615, // s_mul_i32 s23, s21, s22
    0x86981c1a, // s_and_b64 s[24:25], s[26:27], s[28:29]
    0xbf041615, // s_cmp_lt_i32 s21, s22
    0x851f1615, // s_cselect_b32 s31, s21, s22
    0x02140501, // v_add_f32_e32 v10, v1, v2
    0x0a160701, // v_mul_f32_e32 v11, v1, v3
    0xd1cb000c, 0x04320501, // v_fma_f32 v12, v1, v2, v12
    0x761a0903, // v_fmac_f32_e32 v13, v3, v4
    0xd2800014, 0x00023116, // v_add_f64 v[20:21], v[22:23], v[24:25]
    0xd28f001e, 0x00024082, // v_lshlrev_b64 v[30:31], 2, v[32:33]
    0x32443d20, // v_add_co_u32_e32 v34, vcc, v32, v30
    0x38463f21, // v_addc_co_u32_e32 v35, vcc, v33, v31, vcc
    0xd1e82824, 0x04820501, // v_mad_u64_u32 v[36:37], s[40:41], v1, v2, v[32:33]
    0xdc508000, 0x3c7f003e, // global_load_dword v60, v[62:63], off
    0xdc708000, 0x007f013e, // global_store_dword v[62:63], v1, off
    0xd81a0000, 0x00000132, // ds_write_b32 v50, v1
    0xd86c0000, 0x33000032, // ds_read_b32 v51, v50
    0xbf8c0000, // s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
    0xbf8a0000, // s_barrier
    0xbf810000, // s_endpgm
  };

  private Preload() {}

  /** Starts readying the tables for {@code target} once per process; returns at once. */
  public static void startInBackground(Target target) {
    if (!STARTED.compareAndSet(false, true)) return;
    Thread t = new Thread(() -> run(target), "hipsim-preload");
    t.setDaemon(true);
    t.setPriority(Thread.MIN_PRIORITY);
    t.start();
  }

  /** The sample instructions decoded for {@code target}. */
  static List<Instruction> samples(Target target) {
    ByteBuffer b = ByteBuffer.allocate(CODE.length * 4).order(ByteOrder.LITTLE_ENDIAN);
    for (int word : CODE) b.putInt(word);
    byte[] code = b.array();
    Decoder decoder = new Decoder(target);
    List<Instruction> list = new ArrayList<>();
    for (int at = 0; at < code.length; ) {
      Instruction inst = decoder.decode(code, at, code.length, at);
      list.add(inst);
      at += inst.size();
    }
    return list;
  }

  /**
   * Decodes and compiles the sample instructions for {@code target}; returns how many compiled to an executable
   * operation. A failure here only means that the first dispatch does the work itself, so it is not reported.
   */
  static int run(Target target) {
    int compiled = 0;
    try {
      for (Instruction inst : samples(target)) {
        if (!(OpCompiler.compile(inst) instanceof Unimplemented)) compiled++;
      }
    } catch (RuntimeException e) {
      // The tables are loaded again, and any problem reported, by the dispatch that needs them.
    }
    return compiled;
  }
}
