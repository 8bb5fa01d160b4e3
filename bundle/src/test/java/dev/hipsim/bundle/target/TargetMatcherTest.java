package dev.hipsim.bundle.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TargetMatcherTest {
  private static final String P = "hipv4-amdgcn-amd-amdhsa--";

  /** ROCm's rule: a feature left out of the entry is Any; + needs the device On; - needs it Off. */
  @ParameterizedTest(name = "entry {0} on device {1}: {2}")
  @CsvSource({
      "gfx90a, gfx90a:sramecc+:xnack-, true",
      "gfx90a:xnack-, gfx90a:sramecc+:xnack-, true",
      "gfx90a:xnack+, gfx90a:sramecc+:xnack-, false",
      "gfx90a:sramecc+:xnack-, gfx90a:sramecc+:xnack-, true",
      "gfx90a:sramecc-, gfx90a:sramecc+:xnack-, false",
      "gfx90a:xnack+, gfx90a:xnack+, true",
      "gfx90a:xnack+, gfx90a, false",
      "gfx942, gfx90a:xnack-, false",
      "gfx90a, gfx942, false",
      "gfx9-4-generic, gfx942:sramecc+:xnack-, true",
      "gfx9-4-generic, gfx90a, false",
      "gfx9-generic:xnack-, gfx906:xnack-, true",
  })
  void compatibility(String entry, String device, boolean compatible) throws Exception {
    Verdict v = TargetMatcher.check(P + entry, TargetId.parse(device));
    assertThat(v.isCompatible()).as(String.valueOf(v)).isEqualTo(compatible);
  }

  @Test
  void hostOpenmpAndForeignTriplesAreRejectedWithReasons() throws Exception {
    TargetId gfx90a = TargetId.parse("gfx90a");
    assertThat(TargetMatcher.check("host-x86_64-unknown-linux", gfx90a))
        .isEqualTo(new Verdict.Rejected("host entry (carries no device code)"));
    assertThat(((Verdict.Rejected) TargetMatcher.check("openmp-amdgcn-amd-amdhsa--gfx90a", gfx90a)).reason())
        .contains("openmp");
    assertThat(((Verdict.Rejected) TargetMatcher.check("hipv4-spirv64-amd-amdhsa--amdgcnspirv", gfx90a)).reason())
        .contains("spirv64");
    assertThat(((Verdict.Rejected) TargetMatcher.check("garbage", gfx90a)).reason()).startsWith("malformed");
    assertThat(TargetMatcher.check("hip-amdgcn-amd-amdhsa-gfx90a", gfx90a).isCompatible()).isTrue();
  }

  @Test
  void selectsTheMostSpecificCompatibleEntry() throws Exception {
    List<String> entries = List.of("host-x86_64-unknown-linux", P + "gfx90a", P + "gfx90a:xnack-",
        P + "gfx90a:xnack+", P + "gfx9-generic", P + "gfx942");
    TargetMatcher.Selection<String> s = TargetMatcher.select(entries, Function.identity(),
        TargetId.parse("gfx90a:sramecc+:xnack-"));
    assertThat(s.chosen()).isEqualTo(P + "gfx90a:xnack-");
    assertThat(s.judged()).hasSize(entries.size());

    TargetMatcher.Selection<String> generic = TargetMatcher.select(List.of(P + "gfx9-4-generic", P + "gfx942"),
        Function.identity(), TargetId.parse("gfx942:sramecc+:xnack-"));
    assertThat(generic.chosen()).as("an exact processor beats a generic one").isEqualTo(P + "gfx942");

    TargetMatcher.Selection<String> tie = TargetMatcher.select(List.of(P + "gfx90a:sramecc+", P + "gfx90a:xnack-"),
        Function.identity(), TargetId.parse("gfx90a:sramecc+:xnack-"));
    assertThat(tie.chosen()).as("among equals, the first").isEqualTo(P + "gfx90a:sramecc+");
  }

  @Test
  void whenNothingMatchesTheErrorListsEveryEntryAndWhy() throws Exception {
    List<String> entries = List.of("host-x86_64-unknown-linux", P + "gfx90a:xnack+", P + "gfx942");
    assertThatThrownBy(() -> TargetMatcher.select(entries, Function.identity(), TargetId.parse("gfx90a:xnack-")))
        .isInstanceOfSatisfying(NoCompatibleEntryException.class, e -> {
          assertThat(e.rejections()).extracting(NoCompatibleEntryException.Rejection::entryId)
              .containsExactlyElementsOf(entries);
          assertThat(e.getMessage())
              .contains("no entry is compatible with gfx90a:xnack-")
              .contains("host-x86_64-unknown-linux (host entry")
              .contains(P + "gfx90a:xnack+ (entry requires xnack+ but the device has xnack-)")
              .contains(P + "gfx942 (processor gfx942 does not run on gfx90a)");
        });
  }
}
