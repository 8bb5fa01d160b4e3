package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.disasm.InstructionPrinter;
import dev.hipsim.isa.dispatch.WaveFault;
import dev.hipsim.isa.dispatch.WaveLocation;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.mem.GpuMemoryFault;

/** Builds the typed errors that stop a dispatch, with the wave's location and the instruction's text. */
final class Faults {
  private Faults() {}

  static WaveLocation location(Wave w, Ctx cx, Instruction inst, int lane) {
    return new WaveLocation(cx.launch.kernelName(), w.workgroupX, w.workgroupY, w.workgroupZ, w.waveInGroup, lane,
        inst.address(), InstructionPrinter.print(inst));
  }

  static WaveFault wave(WaveFault.Kind kind, Wave w, Ctx cx, Instruction inst, int lane, long address, String reason,
      Throwable cause) {
    return new WaveFault(kind, location(w, cx, inst, lane), address, reason, cause);
  }

  static WaveFault memory(Wave w, Ctx cx, Instruction inst, int lane, GpuMemoryFault f) {
    return new WaveFault(WaveFault.Kind.MEMORY_FAULT, location(w, cx, inst, lane), f.address(),
        f.reason() + " (" + f.kind().name().toLowerCase() + ")", f);
  }
}
