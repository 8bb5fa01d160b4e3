package dev.hipsim.isa.exec;

/**
 * Which of the JVM's compilers runs the simulator, for the few paths whose best shape depends on it. C1 compiles
 * quickly but neither inlines through an interface call nor vectorises, so there a whole-wave loop beats a lane
 * loop calling a lane function; C2 inlines the lane function into a lane loop that skips inactive lanes.
 *
 * <p>libamdhip64 starts the program's JVM with C1 alone by default ({@code HIPSIM_JIT=quick}) and says so with the
 * system property {@code hipsim.jit=quick}; every other JVM (the command line, JMH, the tests) runs tiered
 * compilation, with C2 for hot code.
 */
public enum JitMode {
  /** C1 alone ({@code -XX:TieredStopAtLevel=1}). */
  QUICK,
  /** Tiered compilation: C1, then C2 for hot code. */
  FULL;

  /** The system property libamdhip64 sets from {@code HIPSIM_JIT}. */
  public static final String PROPERTY = "hipsim.jit";

  private static final JitMode CURRENT = of(System.getProperty(PROPERTY));

  /** This JVM's mode. */
  public static JitMode current() {
    return CURRENT;
  }

  /** The mode a value of {@link #PROPERTY} names: QUICK for "quick", FULL for anything else or none. */
  public static JitMode of(String property) {
    return "quick".equals(property) ? QUICK : FULL;
  }
}
