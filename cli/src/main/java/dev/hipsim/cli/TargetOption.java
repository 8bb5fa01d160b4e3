package dev.hipsim.cli;

import dev.hipsim.bundle.target.EntryIdFormatException;
import dev.hipsim.bundle.target.TargetId;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** The {@code --target} value of the commands that pick the code object a device would load. */
final class TargetOption {
  private TargetOption() {}

  /** The device {@code target} names, or null when the option was not given; a bad value is a usage error. */
  static TargetId device(CommandSpec spec, String target) {
    if (target == null) return null;
    try {
      return TargetId.parseDevice(target);
    } catch (EntryIdFormatException e) {
      throw new ParameterException(spec.commandLine(), "--target: " + e.getMessage());
    }
  }
}
