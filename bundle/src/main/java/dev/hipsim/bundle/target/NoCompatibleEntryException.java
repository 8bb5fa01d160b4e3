package dev.hipsim.bundle.target;

import java.util.List;

/** No bundle entry can run on the device; {@link #rejections()} says, for every entry, why not. */
public final class NoCompatibleEntryException extends Exception {
  private static final long serialVersionUID = 1L;

  /** One entry that was turned down. */
  public record Rejection(String entryId, String reason) {}

  private final transient TargetId device;
  private final transient List<Rejection> rejections;

  public NoCompatibleEntryException(TargetId device, List<Rejection> rejections) {
    super(message(device, rejections));
    this.device = device;
    this.rejections = List.copyOf(rejections);
  }

  private static String message(TargetId device, List<Rejection> rejections) {
    StringBuilder s = new StringBuilder("no entry is compatible with ").append(device);
    if (rejections.isEmpty()) return s.append(" (the bundle has no entries)").toString();
    s.append(':');
    for (Rejection r : rejections) s.append(' ').append(r.entryId()).append(" (").append(r.reason()).append(");");
    s.setLength(s.length() - 1);
    return s.toString();
  }

  public TargetId device() {
    return device;
  }

  public List<Rejection> rejections() {
    return rejections;
  }
}
