package dev.hipsim.isa.exec;

/**
 * State one dispatch shares across all its workgroups and worker threads: the global wave sync (GWS) resources that
 * ds_gws_* instructions use for grid-wide barriers in cooperative launches.
 */
public final class DispatchShared {
  /** One GWS barrier: waves arrive until the expected count is reached, then a new generation releases them. */
  public static final class GwsBarrier {
    private int arrived;
    private long generation;

    /**
     * A wave arrives at the barrier expecting {@code expected} waves in all; returns the generation the wave must
     * see pass before it continues (the current one, already passed if this wave completed the barrier).
     */
    public synchronized long arrive(int expected) {
      long mine = generation;
      if (++arrived >= expected) {
        arrived = 0;
        generation++;
      }
      return mine;
    }

    public synchronized boolean passed(long generationWaitedFor) {
      return generation > generationWaitedFor;
    }

    private long semaphore;
    private long releaseAll;

    /** ds_gws_init: resets the barrier and sets the semaphore to {@code value}. */
    public synchronized void init(int value) {
      arrived = 0;
      semaphore = value & 0xffff_ffffL;
    }

    /** ds_gws_sema_v / ds_gws_sema_br: releases {@code count} units. */
    public synchronized void release(long count) {
      semaphore += count;
    }

    /** ds_gws_sema_release_all: every wave waiting in P right now may pass. */
    public synchronized void releaseAll() {
      releaseAll++;
    }

    public synchronized long releaseAllGeneration() {
      return releaseAll;
    }

    /**
     * ds_gws_sema_p: takes one unit if the semaphore is positive, or lets the wave pass if a release-all happened
     * after it started waiting ({@code waitingSince}); returns whether the wave may continue.
     */
    public synchronized boolean tryAcquire(long waitingSince) {
      if (semaphore > 0) {
        semaphore--;
        return true;
      }
      return releaseAll > waitingSince;
    }
  }

  private final GwsBarrier[] gws = new GwsBarrier[64];

  public DispatchShared() {
    for (int i = 0; i < gws.length; i++) gws[i] = new GwsBarrier();
  }

  public GwsBarrier gws(int resource) {
    return gws[resource & 63];
  }
}
