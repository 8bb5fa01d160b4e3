package dev.hipsim.bench;

import dev.hipsim.isa.alu.F32Ops;
import dev.hipsim.isa.alu.Mfma;
import dev.hipsim.isa.alu.MfmaOp;
import dev.hipsim.isa.alu.PackedOps;
import dev.hipsim.isa.fp.FpMode;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Per-wave costs of the numeric core: one VALU instruction over 64 lanes, and one MFMA. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AluBench {
  int[] regs;
  int defaultMode = FpMode.DEFAULT;
  int towardZeroMode = FpMode.withRound(FpMode.DEFAULT, dev.hipsim.isa.fp.FpFormat.F32, FpMode.ROUND_TOWARD_ZERO);

  @Setup
  public void setup() {
    Random rnd = new Random(1);
    regs = new int[256 * 64];
    for (int i = 0; i < regs.length; i++) regs[i] = Float.floatToRawIntBits((float) rnd.nextGaussian());
  }

  /** V_FMA_F32 over a wave in the default mode (Java float fast path). */
  @Benchmark
  public int[] fmaF32WaveDefaultMode() {
    for (int lane = 0; lane < 64; lane++) {
      regs[10 * 64 + lane] = F32Ops.fma(regs[lane], regs[64 + lane], regs[128 + lane], defaultMode);
    }
    return regs;
  }

  /** V_FMA_F32 over a wave rounding toward zero (software path). */
  @Benchmark
  public int[] fmaF32WaveTowardZero() {
    for (int lane = 0; lane < 64; lane++) {
      regs[10 * 64 + lane] = F32Ops.fma(regs[lane], regs[64 + lane], regs[128 + lane], towardZeroMode);
    }
    return regs;
  }

  /** V_PK_FMA_F16 over a wave. */
  @Benchmark
  public int[] pkFmaF16Wave() {
    for (int lane = 0; lane < 64; lane++) {
      regs[10 * 64 + lane] = PackedOps.pk16(PackedOps.PK_FMA_F16, regs[lane], regs[64 + lane], regs[128 + lane], 0,
          7, 0, 0, false, defaultMode);
    }
    return regs;
  }

  /** One V_MFMA_F32_32X32X8_F16 (8192 multiply-adds). */
  @Benchmark
  public int[] mfma32x32x8f16() {
    Mfma.execute(MfmaOp.F32_32X32X8_F16, MfmaOp.GFX90A, regs, 100, 0, 2, 100, 0, 0, 0, defaultMode);
    return regs;
  }
}
