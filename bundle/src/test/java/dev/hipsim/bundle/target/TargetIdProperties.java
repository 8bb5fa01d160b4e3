package dev.hipsim.bundle.target;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class TargetIdProperties {
  @Provide
  Arbitrary<TargetId> targetIds() {
    Arbitrary<String> processor = Arbitraries.of("gfx90a", "gfx942", "gfx906", "gfx1100", "gfx9-4-generic");
    Arbitrary<Integer> sramecc = Arbitraries.integers().between(0, 2);
    Arbitrary<Integer> xnack = Arbitraries.integers().between(0, 2);
    return Combinators.combine(processor, sramecc, xnack).as((p, s, x) -> {
      List<TargetFeature> f = new ArrayList<>();
      if (x > 0) f.add(new TargetFeature("xnack", x == 1));
      if (s > 0) f.add(new TargetFeature("sramecc", s == 1));
      return new TargetId(p, f);
    });
  }

  @Property(tries = 500)
  void canonicalSpellingParsesBackToTheSameTargetId(@ForAll("targetIds") TargetId id) throws Exception {
    assertThat(TargetId.parse(id.toString())).isEqualTo(id);
    EntryId e = EntryId.parse("hipv4-amdgcn-amd-amdhsa--" + id);
    assertThat(e.canonical()).isEqualTo("hipv4-amdgcn-amd-amdhsa--" + id);
  }

  /** A device always spells every feature; an entry is compatible iff each feature it pins agrees. */
  @Property(tries = 1000)
  void compatibilityFollowsRocmRules(@ForAll("targetIds") TargetId entry, @ForAll("targetIds") TargetId device) {
    boolean expected = entry.processorServes(device.processor());
    for (TargetFeature f : entry.features()) {
      expected &= device.findFeature(f.name()).map(d -> d.enabled() == f.enabled()).orElse(false);
    }
    assertThat(TargetMatcher.check(new EntryId(OffloadKind.HIPV4, "amdgcn", "amd", "amdhsa", "",
        java.util.Optional.of(entry)), device).isCompatible()).isEqualTo(expected);
  }
}
