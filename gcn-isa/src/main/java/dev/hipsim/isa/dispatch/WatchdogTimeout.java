package dev.hipsim.isa.dispatch;

import java.util.List;

/** The watchdog stopped a dispatch that ran past its limit; lists the waves still running and their PCs. */
public final class WatchdogTimeout extends DispatchException {
  private static final long serialVersionUID = 1L;
  private final List<WaveLocation> running;

  public WatchdogTimeout(String limit, List<WaveLocation> running) {
    super("watchdog: the dispatch exceeded " + limit + "; " + running.size() + " wave(s) still running:"
        + summary(running));
    this.running = List.copyOf(running);
  }

  private static String summary(List<WaveLocation> running) {
    StringBuilder s = new StringBuilder();
    int shown = 0;
    for (WaveLocation w : running) {
      if (shown++ == 16) {
        s.append("\n  … and ").append(running.size() - 16).append(" more");
        break;
      }
      s.append("\n  ").append(w);
    }
    return s.toString();
  }

  public List<WaveLocation> running() {
    return running;
  }
}
