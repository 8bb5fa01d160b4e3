package dev.hipsim.isa.mem;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.fp.Half;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class HalfTest {
  /** Every half widens exactly and narrows back to itself (NaNs to a NaN). */
  @Property(tries = 2000)
  void roundTripsEveryHalf(@ForAll @IntRange(min = 0, max = 0xffff) int half) {
    float f = Half.toFloat(half);
    if (Float.isNaN(f)) {
      assertThat(Half.fromFloat(f) & 0x7c00).isEqualTo(0x7c00);
    } else {
      assertThat(Half.fromFloat(f)).isEqualTo(half);
    }
  }

  /** Narrowing rounds to the nearest half, ties to even: compared with an exact double-based reference. */
  @Property(tries = 5000)
  void narrowsToTheNearestHalf(@ForAll float value) {
    if (Float.isNaN(value)) return;
    int got = Half.fromFloat(value);
    double exact = value;
    if ((got & 0x7fff) == 0x7c00) {
      // IEEE: magnitudes from 65520 (halfway between 65504 and 2^16) up round to infinity
      assertThat(Math.abs(exact)).isGreaterThanOrEqualTo(65520.0);
      return;
    }
    // Find the nearest by scanning neighbours of the result.
    double best = Math.abs(Half.toFloat(got) - exact);
    for (int d = -1; d <= 1; d += 2) {
      int neighbour = got + d;
      if ((neighbour & 0x7c00) == 0x7c00) continue;
      if (neighbour < 0 || neighbour > 0xffff || ((neighbour ^ got) & 0x8000) != 0) continue;
      double distance = Math.abs(Half.toFloat(neighbour) - exact);
      assertThat(distance).as("neighbour %x of %x for %s", neighbour, got, value).isGreaterThanOrEqualTo(best);
      if (distance == best && !Double.isInfinite(distance)) assertThat(got & 1).isZero();
    }
  }

  @Property(tries = 200)
  void examples(@ForAll boolean unused) {
    assertThat(Half.fromFloat(1.0f)).isEqualTo(0x3c00);
    assertThat(Half.fromFloat(65504f)).isEqualTo(0x7bff);
    assertThat(Half.fromFloat(65520f)).isEqualTo(0x7c00);
    assertThat(Half.fromFloat(0x1p-24f)).isEqualTo(1);
    assertThat(Half.fromFloat(0x1p-25f)).isEqualTo(0);
    assertThat(Half.fromFloat(0x1.8p-25f)).isEqualTo(1);
    assertThat(Half.toFloat(0xc000)).isEqualTo(-2f);
  }
}
