package dev.hipsim.bench;

import dev.hipsim.isa.debug.Debugger;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;

/**
 * {@link DispatchBench}'s dispatches with the kernel debugger attached and no breakpoint set: the deterministic
 * one-instruction-at-a-time scheduler with its breakpoint and watchpoint checks (what `hipsim debug` runs).
 */
public class DebuggedDispatchBench extends DispatchBench {
  @Override
  @Setup(Level.Trial)
  public void start() throws Exception {
    super.start();
    machine.engine().setDebugger(new Debugger());
  }
}
