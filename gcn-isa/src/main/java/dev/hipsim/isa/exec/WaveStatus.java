package dev.hipsim.isa.exec;

/** Scheduling state of a wave. */
public enum WaveStatus {
  /** Can execute. */
  RUNNING,
  /** Waiting at s_barrier for the other waves of its workgroup. */
  AT_BARRIER,
  /** Yielded with s_sleep (or a spin-wait hint): runs again after the other waves had a turn. */
  SLEEPING,
  /** Executed s_endpgm. */
  DONE
}
