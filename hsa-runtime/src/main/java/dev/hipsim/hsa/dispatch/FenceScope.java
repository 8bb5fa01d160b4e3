package dev.hipsim.hsa.dispatch;

/** {@code hsa_fence_scope_t}: how far an acquire or release fence of a packet reaches. */
public enum FenceScope {
  NONE,
  AGENT,
  SYSTEM
}
