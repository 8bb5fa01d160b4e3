package dev.hipsim.isa.exec;

/** Test access to the package-private parts of the wave scheduler: a workgroup outside any dispatch. */
public final class ExecTesting {
  private ExecTesting() {}

  /** A workgroup of {@code waves} waves with {@code ldsBytes} of LDS, all addressable. */
  public static Workgroup workgroup(int waves, int ldsBytes) {
    Workgroup g = new Workgroup(waves, ldsBytes);
    g.waveCount = waves;
    g.lds.reset(ldsBytes);
    for (int i = 0; i < waves; i++) g.waves[i].group = g;
    return g;
  }
}
