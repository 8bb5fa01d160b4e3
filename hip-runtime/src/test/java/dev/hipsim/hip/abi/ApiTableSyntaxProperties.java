package dev.hipsim.hip.abi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The table's hand-written syntax checks accept exactly what the regular expressions they replace accept. */
class ApiTableSyntaxProperties {
  private static final Pattern SYMBOL = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern VERSION_NODE = Pattern.compile("hip_(\\d+)\\.(\\d+)");

  /** Strings over the characters that matter (letters, digits, '_', '.', and a few that never belong). */
  @Provide
  Arbitrary<String> words() {
    return Arbitraries.strings().withChars("aZz_09hip.-$ ").ofMinLength(0).ofMaxLength(9)
        .injectDuplicates(0.1).edgeCases(c -> c.add("hip_5.2"));
  }

  @Provide
  Arbitrary<String> nodes() {
    return Arbitraries.strings().withChars("0123456789.x").ofMaxLength(5).map(t -> "hip_" + t);
  }

  @Property(tries = 2000)
  void symbolsAreCIdentifiers(@ForAll("words") String s) {
    assertThat(ApiTable.isSymbol(s)).as(s).isEqualTo(SYMBOL.matcher(s).matches());
  }

  @Property(tries = 2000)
  void versionNodesAreHipMajorDotMinor(@ForAll("nodes") String s) {
    assertThat(ApiTable.isVersionNode(s)).as(s).isEqualTo(VERSION_NODE.matcher(s).matches());
  }

  @Property(tries = 500)
  void versionNodesFromAnyWord(@ForAll("words") String s) {
    assertThat(ApiTable.isVersionNode(s)).as(s).isEqualTo(VERSION_NODE.matcher(s).matches());
  }
}
