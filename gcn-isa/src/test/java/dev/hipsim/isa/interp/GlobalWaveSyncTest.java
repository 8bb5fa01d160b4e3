package dev.hipsim.isa.interp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.exec.WaveStatus;
import org.junit.jupiter.api.Test;

/** ds_gws_*: grid-wide barriers and semaphores shared by all waves of a dispatch. */
class GlobalWaveSyncTest {
  private static final Target T = Target.GFX90A;

  private static Enc gws(Operation op) {
    return Enc.of(T, Format.DS, op).bit(16, true).set(40, 8, 0); // gds, data0 = v0
  }

  private static long put(Machine m, long at, Enc... code) throws Exception {
    for (Enc e : code) {
      byte[] b = e.bytes();
      m.memory.write(at, b, 0, b.length);
      at += b.length;
    }
    return at;
  }

  private static Wave wave(long pc, int v0) {
    Wave w = new Wave();
    w.pc = pc;
    w.setExec(-1L);
    for (int l = 0; l < 64; l++) w.v[l] = v0;
    return w;
  }

  @Test
  void aSemaphoreWaitWaitsForARelease() throws Exception {
    Machine m = new Machine(T);
    Enc end = ScalarProperties.sopp(T, Operation.S_ENDPGM, 0);
    put(m, Machine.MEM, gws(Operation.DS_GWS_SEMA_P), end);
    put(m, Machine.MEM + 0x100, gws(Operation.DS_GWS_SEMA_V), end);
    Interpreter it = new Interpreter(new CodeCache(T), m.memory, m.launch);
    Wave waiter = wave(Machine.MEM, 0);
    Wave releaser = wave(Machine.MEM + 0x100, 0);
    it.run(waiter, 100);
    assertThat(waiter.status).isEqualTo(WaveStatus.SLEEPING);
    assertThat(waiter.pc).as("retries the wait").isEqualTo(Machine.MEM);
    waiter.status = WaveStatus.RUNNING;
    it.run(waiter, 100);
    assertThat(waiter.status).as("still no unit").isEqualTo(WaveStatus.SLEEPING);
    it.run(releaser, 100);
    assertThat(releaser.status).isEqualTo(WaveStatus.DONE);
    waiter.status = WaveStatus.RUNNING;
    it.run(waiter, 100);
    assertThat(waiter.status).isEqualTo(WaveStatus.DONE);
  }

  @Test
  void aBarrierReleasesWhenTheExpectedWavesArrived() throws Exception {
    Machine m = new Machine(T);
    Enc end = ScalarProperties.sopp(T, Operation.S_ENDPGM, 0);
    put(m, Machine.MEM, gws(Operation.DS_GWS_BARRIER), end);
    Interpreter it = new Interpreter(new CodeCache(T), m.memory, m.launch);
    Wave first = wave(Machine.MEM, 1); // data0 + 1 = 2 waves
    Wave second = wave(Machine.MEM, 1);
    it.run(first, 100);
    assertThat(first.status).isEqualTo(WaveStatus.SLEEPING);
    it.run(second, 100);
    assertThat(second.status).as("the last arrival passes at once").isEqualTo(WaveStatus.DONE);
    first.status = WaveStatus.RUNNING;
    it.run(first, 100);
    assertThat(first.status).isEqualTo(WaveStatus.DONE);
  }

  @Test
  void releaseAllLetsEveryWaitingWavePass() throws Exception {
    Machine m = new Machine(T);
    Enc end = ScalarProperties.sopp(T, Operation.S_ENDPGM, 0);
    put(m, Machine.MEM, gws(Operation.DS_GWS_SEMA_P), end);
    put(m, Machine.MEM + 0x100, gws(Operation.DS_GWS_SEMA_RELEASE_ALL), end);
    Interpreter it = new Interpreter(new CodeCache(T), m.memory, m.launch);
    Wave a = wave(Machine.MEM, 0);
    Wave b = wave(Machine.MEM, 0);
    it.run(a, 100);
    it.run(b, 100);
    assertThat(a.status).isEqualTo(WaveStatus.SLEEPING);
    it.run(wave(Machine.MEM + 0x100, 0), 100);
    for (Wave w : new Wave[] {a, b}) {
      w.status = WaveStatus.RUNNING;
      it.run(w, 100);
      assertThat(w.status).isEqualTo(WaveStatus.DONE);
    }
  }
}
