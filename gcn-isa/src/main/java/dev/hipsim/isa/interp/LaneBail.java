package dev.hipsim.isa.interp;

/**
 * Thrown by a fused run's generated code when a lane's LDS address, checked inside the run because an earlier
 * instruction of the run computed it, is misaligned or out of bounds: {@link FusedRun} then puts back the
 * registers the run had overwritten and runs its instructions one by one, which handle or report the lane. One
 * shared instance without a stack trace: it is control flow, not an error.
 */
final class LaneBail extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The instance generated code throws ({@code GETSTATIC}, {@code ATHROW}). */
  static final LaneBail INSTANCE = new LaneBail();

  private LaneBail() {
    super("a fused run's lane left the fast path", null, false, false);
  }
}
