package dev.hipsim.isa.interp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * COVERAGE.md is generated from the opcode tables and the interpreter; this test fails when the committed file is
 * stale, and rewrites it when run with {@code -Dhipsim.coverage.write=true}.
 */
class CoverageDocumentTest {
  private static final Path FILE = Path.of("COVERAGE.md");

  @Test
  void committedCoverageDocumentIsCurrent() throws Exception {
    String now = Coverage.render();
    if (Boolean.getBoolean("hipsim.coverage.write")) {
      Files.writeString(FILE, now, StandardCharsets.UTF_8);
    }
    assertThat(Files.exists(FILE)).as("gcn-isa/COVERAGE.md exists (regenerate it, see README)").isTrue();
    assertThat(Files.readString(FILE, StandardCharsets.UTF_8))
        .as("gcn-isa/COVERAGE.md is stale: regenerate it with -Dhipsim.coverage.write=true (see README)")
        .isEqualTo(now);
  }

  @Test
  void everyTableRowHasADecodableSample() {
    for (var t : Coverage.TARGETS) {
      for (Coverage.Row r : Coverage.rows(t)) {
        assertThat(r.decoded()).as("%s %s", t, r.info()).isTrue();
      }
    }
  }
}
