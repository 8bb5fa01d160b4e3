package dev.hipsim.isa.fp;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/** Generators of floating-point encodings that reach the corners: specials, subnormals, boundaries, overflow. */
public final class FpGen {
  private FpGen() {}

  static long mask(int f) {
    return f == 3 ? -1L : (1L << (RefFloat.man(f) + RefFloat.expBits(f) + 1)) - 1;
  }

  /** Raw bits of format f: uniform, special, near the exponent extremes, or small "nice" values. */
  public static Arbitrary<Long> bits(int f) {
    int man = RefFloat.man(f);
    int maxExp = (1 << RefFloat.expBits(f)) - 1;
    long sign = RefFloat.sign(f);
    Arbitrary<Long> uniform = Arbitraries.longs().map(v -> v & mask(f));
    Arbitrary<Long> mantissa = Arbitraries.oneOf(Arbitraries.longs().between(0, (1L << man) - 1),
        Arbitraries.of(0L, 1L, 2L, (1L << man) - 1, (1L << man) - 2, 1L << (man - 1), (1L << (man - 1)) + 1));
    Arbitrary<Integer> exponent = Arbitraries.oneOf(Arbitraries.integers().between(0, maxExp),
        Arbitraries.of(0, 1, 2, maxExp - 1, maxExp - 2, maxExp, RefFloat.bias(f), RefFloat.bias(f) - 1,
            RefFloat.bias(f) + 1, RefFloat.bias(f) - man, RefFloat.bias(f) + man));
    Arbitrary<Long> structured = Combinators.combine(Arbitraries.of(0L, sign), exponent, mantissa)
        .as((s, e, m) -> s | ((long) e << man) | m);
    Arbitrary<Long> special = Arbitraries.of(0L, sign, RefFloat.allExp(f), sign | RefFloat.allExp(f),
        RefFloat.allExp(f) | 1, RefFloat.allExp(f) | (1L << (man - 1)), sign | RefFloat.allExp(f) | 5,
        RefFloat.defaultNaN(f), 1L, sign | 1, (1L << man) - 1, (1L << man), RefFloat.allExp(f) - 1,
        sign | (RefFloat.allExp(f) - 1), (long) RefFloat.bias(f) << man);
    return Arbitraries.frequencyOf(java.util.List.of(Tuple.of(4, uniform), Tuple.of(5, structured),
        Tuple.of(1, special)));
  }

  /** A MODE value with random rounding, denormal, IEEE, DX10_CLAMP and FP16_OVFL fields. */
  public static Arbitrary<Integer> modes() {
    return Arbitraries.integers().between(0, 0x3ff).map(m -> m | (m % 3 == 0 ? 1 << 23 : 0));
  }
}
