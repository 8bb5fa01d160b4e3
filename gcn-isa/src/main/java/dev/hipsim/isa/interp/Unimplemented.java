package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.dispatch.WaveFault;
import dev.hipsim.isa.exec.Wave;

/** An instruction the device cannot execute: invalid for the target, or not implemented by hipsim. */
final class Unimplemented extends Op {
  private final boolean valid;

  Unimplemented(Instruction inst, boolean valid) {
    super(inst);
    this.valid = valid;
  }

  @Override
  public void execute(Wave w, Ctx cx) throws DispatchException {
    throw Faults.wave(valid ? WaveFault.Kind.UNIMPLEMENTED_INSTRUCTION : WaveFault.Kind.ILLEGAL_INSTRUCTION, w, cx,
        instruction, -1, 0, valid ? "hipsim does not implement " + instruction.operation()
            : "not a valid instruction for " + instruction.target().processor(), null);
  }
}
