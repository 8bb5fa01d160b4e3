package dev.hipsim.hip.api;

/**
 * The per-host-thread last error that {@code hipGetLastError} / {@code hipPeekAtLastError} report. Follows CLR up to
 * ROCm 6.x ({@code HIP_RETURN} in hipamd/src/hip_internal.hpp): every {@code hipError_t} API call stores its result,
 * success included; {@code hipGetLastError} returns it and resets it to success.
 */
public final class LastError {
  private final ThreadLocal<int[]> slot = ThreadLocal.withInitial(() -> new int[1]);

  public void record(int code) {
    slot.get()[0] = code;
  }

  public int peek() {
    return slot.get()[0];
  }

  public int getAndClear() {
    int[] s = slot.get();
    int e = s[0];
    s[0] = 0;
    return e;
  }
}
