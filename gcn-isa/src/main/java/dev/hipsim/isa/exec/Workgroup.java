package dev.hipsim.isa.exec;

import dev.hipsim.isa.dispatch.DispatchGeometry;

/**
 * One workgroup being executed by a compute unit: its waves, its LDS and its barrier. All of it is used by a single
 * thread at a time.
 */
public final class Workgroup {
  final Wave[] waves;
  final Lds lds;
  int waveCount;
  int x;
  int y;
  int z;
  /** Linear index of this workgroup in the dispatch (x fastest). */
  long index;
  /** Scratch slot (wave slots {@code slot * wavesPerGroup …}) held while resident. */
  int scratchSlot;

  Workgroup(int maxWaves, int ldsBytes) {
    this(maxWaves, new Lds(ldsBytes));
  }

  /** A workgroup with its own LDS implementation (the debugger's watches LDS addresses). */
  public Workgroup(int maxWaves, Lds lds) {
    this.waves = new Wave[maxWaves];
    for (int i = 0; i < maxWaves; i++) waves[i] = new Wave();
    this.lds = lds;
  }

  /**
   * Makes this object workgroup {@code index} of {@code geometry} (its coordinates and wave count follow from the
   * index, X fastest) with scratch slot {@code scratchSlot}; its waves are then initialised with
   * {@link WaveSetup#initialize}.
   */
  public void place(long index, DispatchGeometry geometry, int scratchSlot) {
    this.index = index;
    this.x = (int) (index % geometry.workgroupsX());
    this.y = (int) ((index / geometry.workgroupsX()) % geometry.workgroupsY());
    this.z = (int) (index / ((long) geometry.workgroupsX() * geometry.workgroupsY()));
    this.waveCount = geometry.wavesIn(x, y, z);
    this.scratchSlot = scratchSlot;
  }

  public int scratchSlot() {
    return scratchSlot;
  }

  /**
   * A workgroup of {@code waves} waves outside any dispatch, with {@code ldsBytes} of LDS all addressable: for
   * tools and benchmarks that run waves on an interpreter directly.
   */
  public static Workgroup standalone(int waves, int ldsBytes) {
    Workgroup g = new Workgroup(waves, ldsBytes);
    g.waveCount = waves;
    g.lds.reset(ldsBytes);
    for (int i = 0; i < waves; i++) g.waves[i].group = g;
    return g;
  }

  public Lds lds() {
    return lds;
  }

  public int waveCount() {
    return waveCount;
  }

  public Wave wave(int i) {
    return waves[i];
  }

  public int x() { return x; }

  public int y() { return y; }

  public int z() { return z; }

  public long index() { return index; }

  /** True when every wave has ended. */
  public boolean finished() {
    for (int i = 0; i < waveCount; i++) {
      if (waves[i].status != WaveStatus.DONE) return false;
    }
    return true;
  }

  /**
   * Releases the barrier if every wave that has not ended is waiting at it (s_barrier counts only live waves, so
   * waves that already ended do not block the others).
   *
   * @return whether waves were released
   */
  public boolean releaseBarrierIfComplete() {
    int waiting = 0;
    for (int i = 0; i < waveCount; i++) {
      WaveStatus st = waves[i].status;
      if (st == WaveStatus.AT_BARRIER) waiting++;
      else if (st != WaveStatus.DONE) return false;
    }
    if (waiting == 0) return false;
    for (int i = 0; i < waveCount; i++) {
      if (waves[i].status == WaveStatus.AT_BARRIER) waves[i].status = WaveStatus.RUNNING;
    }
    return true;
  }
}
