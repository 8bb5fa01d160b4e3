package dev.hipsim.isa.debug.symbols;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/** The demangler against llvm-cxxfilt on every function symbol of the corpus's code objects. */
class DemanglerTest {

  @Test
  void agreesWithLlvmCxxfiltOnTheCorpus() throws Exception {
    List<String[]> pairs = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(Objects.requireNonNull(
        getClass().getResourceAsStream("/debug/cxxfilt-corpus.tsv")), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        if (!line.startsWith("#")) pairs.add(line.split("\t"));
      }
    }
    assertThat(pairs).hasSizeGreaterThan(70);
    for (String[] p : pairs) assertThat(Demangler.demangle(p[0]).full()).as(p[0]).isEqualTo(p[1]);
  }

  @Test
  void namesWithoutParametersAndWhatItDoesNotKnow() {
    assertThat(Demangler.demangle("_Z4vaddPKfS0_Pfi").name()).isEqualTo("vadd");
    assertThat(Demangler.demangle("_ZN3foo3barEv").name()).isEqualTo("foo::bar");
    assertThat(Demangler.demangle("_Z3maxIiET_S0_S0_").full()).isEqualTo("max<int>(int, int)");
    assertThat(Demangler.demangle("__ockl_get_local_id").full()).isEqualTo("__ockl_get_local_id");
    assertThat(Demangler.demangle("_Zbogus").full()).isEqualTo("_Zbogus");
    assertThat(Demangler.demangle("_Z").full()).isEqualTo("_Z");
  }

  @Test
  void functionsMatchByAnyOfTheirNames() {
    FunctionSymbol f = new FunctionSymbol("_Z4vaddPKfS0_Pfi", Demangler.demangle("_Z4vaddPKfS0_Pfi"), 0x1000, 0xac);
    assertThat(f.matches("vadd")).isTrue();
    assertThat(f.matches("_Z4vaddPKfS0_Pfi")).isTrue();
    assertThat(f.matches("vadd(float const*, float const*, float*, int)")).isTrue();
    assertThat(f.matches("vad")).isFalse();
    FunctionSymbol m = new FunctionSymbol("_ZN3foo3barEi", Demangler.demangle("_ZN3foo3barEi"), 0x2000, 4);
    assertThat(m.matches("bar")).isTrue();
    assertThat(m.matches("foo::bar")).isTrue();
  }
}
