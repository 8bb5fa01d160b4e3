package dev.hipsim.isa.debug;

/**
 * Why and where the program stopped: the wave that stopped (its number in the dispatch, or -1 when no wave is
 * involved, as at the end of a dispatch), its PC, the breakpoints it hit, and a one-line description.
 */
public record StopEvent(Reason reason, int wave, long pc, int[] hitBreakpoints, String description) {

  public enum Reason {
    /** A dispatch began (stop at kernel launch). */
    ENTRY,
    /** A breakpoint's instruction is next. */
    BREAKPOINT,
    /** A watched address was accessed by the instruction just executed. */
    WATCHPOINT,
    /** A step finished. */
    STEP,
    /** The front end asked to pause. */
    PAUSE,
    /** An instruction faulted; continuing ends the dispatch with that error. */
    FAULT,
    /** {@code finish}: the dispatch ran to its end. */
    FINISHED
  }
}
