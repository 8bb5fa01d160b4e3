package dev.hipsim.isa.debug;

/**
 * How to go on from a stop: continue; step the selected wave by instructions ({@code count} of them) or by source
 * lines (stepping over calls, or into functions that have line information); or finish the dispatch.
 */
public record Resume(Kind kind, int wave, int count) {
  public enum Kind { CONTINUE, STEP_INSTRUCTION, NEXT_LINE, STEP_LINE, FINISH }

  public static Resume proceed() {
    return new Resume(Kind.CONTINUE, -1, 0);
  }

  public static Resume finish() {
    return new Resume(Kind.FINISH, -1, 0);
  }

  public static Resume stepInstruction(int wave, int count) {
    return new Resume(Kind.STEP_INSTRUCTION, wave, Math.max(1, count));
  }

  public static Resume nextLine(int wave) {
    return new Resume(Kind.NEXT_LINE, wave, 1);
  }

  public static Resume stepLine(int wave) {
    return new Resume(Kind.STEP_LINE, wave, 1);
  }
}
