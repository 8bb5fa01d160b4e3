package dev.hipsim.bundle.target;

import dev.hipsim.elf.AmdgpuTarget.FeatureState;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Decides which bundle entries a device can run, by the rules clang-offload-bundler, comgr and the HIP runtime
 * share: kind {@code hip}/{@code hipv4}, triple {@code amdgcn-amd-amdhsa}, the same processor (or a generic one
 * covering it), and for every feature the entry pins, the same setting on the device. A feature the entry leaves
 * out is Any and accepts both; a feature the device leaves out is unknown and satisfies only Any.
 */
public final class TargetMatcher {
  private static final int EXACT_PROCESSOR = 1000;

  private TargetMatcher() {}

  /** Judges one entry, given by its ID as written in the bundle. */
  public static Verdict check(String entryId, TargetId device) {
    EntryId id;
    try {
      id = EntryId.parse(entryId);
    } catch (EntryIdFormatException e) {
      return new Verdict.Rejected("malformed entry ID: " + e.getMessage());
    }
    return check(id, device);
  }

  public static Verdict check(EntryId entry, TargetId device) {
    if (entry.isHost()) return new Verdict.Rejected("host entry (carries no device code)");
    if (!entry.kind().isHip()) {
      return new Verdict.Rejected("offload kind " + entry.kind().spelling() + " is not hip or hipv4");
    }
    if (!entry.arch().equals("amdgcn") || !entry.vendor().equals("amd") || !entry.isAmdhsa()
        || !(entry.environment().isEmpty() || entry.environment().equals("unknown"))) {
      return new Verdict.Rejected("triple " + entry.triple() + " is not amdgcn-amd-amdhsa");
    }
    if (entry.target().isEmpty()) return new Verdict.Rejected("entry names no processor");
    TargetId code = entry.target().get();
    if (!code.processorServes(device.processor())) {
      return new Verdict.Rejected("processor " + code.processor() + " does not run on " + device.processor());
    }
    for (TargetFeature f : code.features()) {
      FeatureState on = device.feature(f.name());
      if (on == FeatureState.ANY) {
        return new Verdict.Rejected("entry requires " + f + " but the device target ID leaves " + f.name()
            + " unspecified");
      }
      if ((on == FeatureState.ON) != f.enabled()) {
        return new Verdict.Rejected("entry requires " + f + " but the device has " + f.name()
            + (on == FeatureState.ON ? '+' : '-'));
      }
    }
    int specificity = code.features().size() + (code.processor().equals(device.processor()) ? EXACT_PROCESSOR : 0);
    return new Verdict.Compatible(specificity);
  }

  /** One candidate and its verdict. */
  public record Judged<T>(T candidate, String entryId, Verdict verdict) {}

  /** The chosen candidate, with every candidate's verdict. */
  public record Selection<T>(T chosen, List<Judged<T>> judged) {}

  /**
   * Picks the most specific compatible candidate (the first one in order among equals).
   *
   * @throws NoCompatibleEntryException listing every candidate and why it was rejected
   */
  public static <T> Selection<T> select(List<T> candidates, Function<T, String> entryIdOf, TargetId device)
      throws NoCompatibleEntryException {
    List<Judged<T>> judged = new ArrayList<>(candidates.size());
    Judged<T> best = null;
    int bestScore = Integer.MIN_VALUE;
    for (T c : candidates) {
      String id = entryIdOf.apply(c);
      Verdict v = check(id, device);
      Judged<T> j = new Judged<>(c, id, v);
      judged.add(j);
      if (v instanceof Verdict.Compatible ok && ok.specificity() > bestScore) {
        best = j;
        bestScore = ok.specificity();
      }
    }
    if (best == null) {
      List<NoCompatibleEntryException.Rejection> rejections = new ArrayList<>();
      for (Judged<T> j : judged) {
        rejections.add(new NoCompatibleEntryException.Rejection(j.entryId(), ((Verdict.Rejected) j.verdict()).reason()));
      }
      throw new NoCompatibleEntryException(device, rejections);
    }
    return new Selection<>(best.candidate(), List.copyOf(judged));
  }
}
