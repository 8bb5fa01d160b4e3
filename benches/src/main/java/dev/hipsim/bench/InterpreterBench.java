package dev.hipsim.bench;

import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.dispatch.DispatchGeometry;
import dev.hipsim.isa.dispatch.DispatchPacket;
import dev.hipsim.isa.dispatch.KernelDescriptor;
import dev.hipsim.isa.exec.KernelLaunch;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.exec.WaveStatus;
import dev.hipsim.isa.exec.Workgroup;
import dev.hipsim.isa.fp.FpMode;
import dev.hipsim.isa.interp.CodeCache;
import dev.hipsim.isa.interp.Interpreter;
import dev.hipsim.isa.mem.GpuMemoryFault;
import dev.hipsim.kfd.AllocFlags;
import dev.hipsim.kfd.AllocRequest;
import dev.hipsim.kfd.Kfd;
import dev.hipsim.kfd.KfdException;
import dev.hipsim.kfd.KfdProcess;
import dev.hipsim.kfd.topology.DeviceConfig;
import dev.hipsim.kfd.topology.GpuModel;
import dev.hipsim.kfd.vm.GpuVm;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The interpreter per instruction family, in wave-instructions per second: one wave64 with every lane active runs
 * {@value #N} instructions of the family (its body of a few typical instructions, repeated) and s_endpgm, from
 * gfx90a code in VRAM of a kfd-sim process; global memory is reached through that process's page tables and TLB.
 * Encodings are llvm-mc's ({@code llvm-mc -arch=amdgcn -mcpu=gfx90a -show-encoding}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class InterpreterBench {
  /** Wave-instructions per invocation (s_endpgm aside). */
  static final int N = 1024;
  private static final long VA = 0x10_0000_0000L;
  private static final long DATA = VA + 0x10000;
  private static final int SIZE = 1 << 20;
  private static final int S_ENDPGM = 0xbf810000;
  /** EXEC of the valuDivergent family: lanes 16..47 on. */
  static final long DIVERGENT_EXEC = 0x0000_ffff_ffff_0000L;

  @Param({"salu", "valuF32", "valuF64", "valuI64", "valuDivergent", "vop3p", "dpp", "lds", "globalLoad",
      "globalStore", "atomic", "mfma"})
  public String family;

  private KfdProcess process;
  private Interpreter interpreter;
  private Wave wave;

  /** A family's body: instructions as little-endian dwords, one int[] per instruction. */
  static int[][] body(String family) {
    switch (family) {
      case "salu": return new int[][] {
          {0x80141615}, // s_add_u32 s20, s21, s22
          {0x92171615}, // s_mul_i32 s23, s21, s22
          {0x86981c1a}, // s_and_b64 s[24:25], s[26:27], s[28:29]
          {0x8e1e8315}, // s_lshl_b32 s30, s21, 3
          {0xbf041615}, // s_cmp_lt_i32 s21, s22
          {0x851f1615}}; // s_cselect_b32 s31, s21, s22
      case "valuF32": return new int[][] {
          {0x02140501}, // v_add_f32_e32 v10, v1, v2
          {0x0a160701}, // v_mul_f32_e32 v11, v1, v3
          {0xd1cb000c, 0x04320501}, // v_fma_f32 v12, v1, v2, v12
          {0x761a0903}, // v_fmac_f32_e32 v13, v3, v4
          {0x161c0901}}; // v_max_f32_e32 v14, v1, v4
      case "valuF64": return new int[][] {
          {0xd2800014, 0x00023116}, // v_add_f64 v[20:21], v[22:23], v[24:25]
          {0xd281001a, 0x00023116}, // v_mul_f64 v[26:27], v[22:23], v[24:25]
          {0xd1cc001c, 0x04723116}}; // v_fma_f64 v[28:29], v[22:23], v[24:25], v[28:29]
      case "valuI64": return new int[][] {
          {0xd28f001e, 0x00024082}, // v_lshlrev_b64 v[30:31], 2, v[32:33]
          {0x32443d20}, // v_add_co_u32_e32 v34, vcc, v32, v30
          {0x38463f21}, // v_addc_co_u32_e32 v35, vcc, v33, v31, vcc
          {0xd1e82824, 0x04820501}}; // v_mad_u64_u32 v[36:37], s[40:41], v1, v2, v[32:33]
      case "valuDivergent": return new int[][] { // run with half the lanes off, as inside an if (DIVERGENT_EXEC)
          {0x02140501}, // v_add_f32_e32 v10, v1, v2
          {0x761a0903}, // v_fmac_f32_e32 v13, v3, v4
          {0xd28f001e, 0x00024082}, // v_lshlrev_b64 v[30:31], 2, v[32:33]
          {0x32443d20}, // v_add_co_u32_e32 v34, vcc, v32, v30
          {0x38463f21}, // v_addc_co_u32_e32 v35, vcc, v33, v31, vcc
          {0x7d880302}}; // v_cmp_gt_i32_e32 vcc, v2, v1
      case "vop3p": return new int[][] {
          {0xd3b04028, 0x1ca23116}, // v_pk_fma_f32 v[40:41], v[22:23], v[24:25], v[40:41]
          {0xd38f402a, 0x18020501}, // v_pk_add_f16 v42, v1, v2
          {0xd3b1402c, 0x18023116}}; // v_pk_mul_f32 v[44:45], v[22:23], v[24:25]
      case "dpp": return new int[][] {
          {0x021404fa, 0xff011101}, // v_add_f32_dpp v10, v1, v2 row_shr:1
          {0x7e1602fa, 0xff00b101}, // v_mov_b32_dpp v11, v1 quad_perm:[1,0,3,2]
          {0x681808fa, 0xaf014203}}; // v_add_u32_dpp v12, v3, v4 row_bcast:15 row_mask:0xa
      case "lds": return new int[][] {
          {0xd81a0000, 0x00000132}, // ds_write_b32 v50, v1
          {0xd86c0000, 0x33000032}, // ds_read_b32 v51, v50
          {0xd86e4000, 0x34000032}, // ds_read2_b32 v[52:53], v50 offset1:64
          {0xd9fe0100, 0x38000032}}; // ds_read_b128 v[56:59], v50 offset:256
      case "globalLoad": return new int[][] {
          {0xdc508000, 0x3c7f003e}, // global_load_dword v60, v[62:63], off
          {0xdc5c8400, 0x407f003e}}; // global_load_dwordx4 v[64:67], v[62:63], off offset:1024
      case "globalStore": return new int[][] {
          {0xdc708000, 0x007f013e}}; // global_store_dword v[62:63], v1, off
      case "atomic": return new int[][] {
          {0xdd088800, 0x007f013e}, // global_atomic_add v[62:63], v1, off offset:2048
          {0xdd098800, 0x3d7f013e}, // global_atomic_add v61, v[62:63], v1, off offset:2048 glc
          {0xd8000400, 0x00000132}}; // ds_add_u32 v50, v1 offset:1024
      case "mfma": return new int[][] {
          {0xd3cc8000, 0x04029146}}; // v_mfma_f32_32x32x8f16 a[0:15], v[70:71], v[72:73], a[0:15]
      default: throw new IllegalArgumentException(family);
    }
  }

  @Setup(Level.Trial)
  public void setUp() throws KfdException, GpuMemoryFault, DispatchException {
    Kfd kfd = Kfd.create(1L << 30, List.of(new DeviceConfig(GpuModel.GFX90A, 64L << 20)));
    int gpu = kfd.devices().get(0).gpuId();
    process = kfd.open();
    process.acquireVm(gpu);
    long h = process.allocMemoryOfGpu(AllocRequest.of(VA, SIZE, gpu,
        AllocFlags.VRAM | AllocFlags.WRITABLE | AllocFlags.EXECUTABLE)).handle();
    process.mapMemoryToGpu(h, gpu);
    GpuVm vm = process.gpuVm(gpu);

    int[][] body = body(family);
    long pc = VA;
    for (int i = 0; i < N; i++) {
      for (int word : body[i % body.length]) {
        vm.store32(pc, word);
        pc += 4;
      }
    }
    vm.store32(pc, S_ENDPGM);

    DispatchPacket p = new DispatchPacket(DispatchPacket.TYPE_KERNEL_DISPATCH, 1, 64, 1, 1, 64, 1, 1, 0, 65536, VA,
        DATA, 0);
    KernelLaunch launch = new KernelLaunch("bench", p, DATA, DATA, 0, KernelDescriptor.parse(new byte[64], 0),
        DispatchGeometry.of(p, 64), 0, 0, 0, true, false, 1L << 48, 2L << 48, new int[0]);
    interpreter = new Interpreter(new CodeCache(Target.GFX90A), vm, launch);
    wave = Workgroup.standalone(1, 65536).wave(0);
    wave.vgprCount = 256;
    wave.accOffset = 128;
    wave.mode = FpMode.DEFAULT;
    wave.setExec(family.equals("valuDivergent") ? DIVERGENT_EXEC : -1L);
    int[] v = wave.v;
    for (int l = 0; l < Wave.LANES; l++) {
      for (int r = 1; r <= 8; r++) v[r * 64 + l] = Float.floatToRawIntBits(0.25f * r + l / 256f);
      setDouble(v, 22, l, 1.5 + l);
      setDouble(v, 24, l, 0.5 - l / 64.0);
      v[32 * 64 + l] = l;
      v[33 * 64 + l] = 0;
      v[50 * 64 + l] = 4 * l;
      long address = DATA + 4L * l;
      v[62 * 64 + l] = (int) address;
      v[63 * 64 + l] = (int) (address >>> 32);
      v[70 * 64 + l] = 0x3c003c00; // f16 1.0 pairs
      v[71 * 64 + l] = 0x38003800;
      v[72 * 64 + l] = 0x3c003c00;
      v[73 * 64 + l] = 0x3c003c00;
    }
    wave.s[21] = 7;
    wave.s[22] = 9;
    run(); // compiles every instruction and fills the TLB
  }

  private static void setDouble(int[] v, int reg, int lane, double x) {
    long bits = Double.doubleToRawLongBits(x);
    v[reg * 64 + lane] = (int) bits;
    v[(reg + 1) * 64 + lane] = (int) (bits >>> 32);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    process.close();
  }

  private long run() throws DispatchException {
    wave.pc = VA;
    wave.status = WaveStatus.RUNNING;
    interpreter.run(wave, Integer.MAX_VALUE);
    if (wave.status != WaveStatus.DONE) throw new IllegalStateException("the wave did not reach s_endpgm");
    return wave.instructions;
  }

  @Benchmark
  @OperationsPerInvocation(N)
  public long waveInstructions() throws DispatchException {
    return run();
  }
}
