package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Instruction;

/** ds_gws_*: the global wave sync barriers cooperative launches use. */
final class GlobalWaveSync {
  private GlobalWaveSync() {}

  static Op compile(Instruction inst) {
    return null;
  }
}
