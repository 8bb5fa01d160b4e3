package dev.hipsim.isa.debug;

import dev.hipsim.isa.debug.symbols.CodeObjects;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.exec.KernelLaunch;
import dev.hipsim.isa.exec.Wave;
import java.util.List;

/**
 * The stopped dispatch, as an {@link Debugger#inspect inspection} sees it. Valid only during the inspection (it runs
 * on the dispatch's thread while the dispatch is stopped); waves are identified by their number in the dispatch:
 * {@code workgroup index × waves per workgroup + wave in workgroup}.
 */
public interface DispatchView {
  KernelLaunch launch();

  /** Counts the dispatches debugged in this process, from 1. */
  long dispatchNumber();

  /** Why the dispatch is stopped. */
  StopEvent stop();

  /** The waves of the resident workgroups (running, at a barrier, or done), in wave-number order. */
  List<Wave> waves();

  int number(Wave wave);

  /** The wave with this number among the resident ones. */
  Wave wave(int number) throws DebugException;

  CodeObjects code();

  /** The instruction at {@code pc} as the decoder reads it from device memory. */
  Instruction decode(long pc) throws DebugException;

  /**
   * Reads {@code length} bytes of {@code space}: global memory by GPU address; {@code wave}'s workgroup LDS by byte
   * offset; {@code lane}'s private memory of {@code wave} by the offset that lane sees. Returns fewer bytes when the
   * range runs into unreadable memory (none when its start is unreadable).
   */
  byte[] read(AddressSpace space, Wave wave, int lane, long address, int length) throws DebugException;

  /** Scalar registers the kernel allocates (s0 … s(n-1)), from its descriptor. */
  int sgprCount();

  /** Architectural VGPRs of every wave of this kernel. */
  int vgprCount();

  /** Accumulation registers (AGPRs) of every wave of this kernel. */
  int agprCount();
}
