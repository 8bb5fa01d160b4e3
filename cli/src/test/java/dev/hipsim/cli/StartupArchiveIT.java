package dev.hipsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The class-data sharing archive the build makes (cli/src/build/startup-archive.sh): the command line's JVM and the
 * program's map it, and an archive that does not fit changes nothing the program prints.
 */
class StartupArchiveIT {
  private static final String PROGRAM = "testdata/gfx90a-v4/vector_add";

  @BeforeAll
  static void built() {
    PackagedHipsim.assumeBuilt();
  }

  @Test
  void theBuildsArchiveFitsTheJdkThatBuiltIt() throws Exception {
    assertThat(PackagedHipsim.HOME.resolve("cli/target/hipsim.jsa")).isRegularFile();
    // -Xshare:on makes a JVM that cannot map the archive refuse to start, the launcher's and the program's alike.
    // HIPSIM_NO_DIRECT_RUN: through the command line's JVM too, which bin/hipsim otherwise skips for `run`.
    for (Map<String, String> route : List.of(Map.<String, String>of(), Map.of("HIPSIM_NO_DIRECT_RUN", "1"))) {
      Map<String, String> env = new java.util.HashMap<>(route);
      env.put("HIPSIM_JAVA_OPTS", "-Xshare:on");
      PackagedHipsim.Result r = PackagedHipsim.run(env, "", "run", "--", PROGRAM);
      assertThat(r.exit()).as(r.toString()).isZero();
      assertThat(r.stdout()).as(r.toString()).contains("PASSED");
    }
  }

  @Test
  void anArchiveThatDoesNotFitIsDeclinedSilently() throws Exception {
    PackagedHipsim.Result plain = PackagedHipsim.run("", "run", "--", PROGRAM);
    Path bogus = Files.createTempFile("hipsim", ".jsa");
    try {
      Files.writeString(bogus, "not a class-data sharing archive");
      PackagedHipsim.Result declined = PackagedHipsim.run(Map.of("HIPSIM_CDS_ARCHIVE", bogus.toString()), "", "run",
          "--", PROGRAM);
      assertThat(declined.exit()).as(declined.toString()).isZero();
      assertThat(declined.stdout()).isEqualTo(plain.stdout());
      assertThat(declined.stderr()).isEqualTo(plain.stderr()).isEmpty();
    } finally {
      Files.deleteIfExists(bogus);
    }
  }

  @Test
  void noArchiveAtAllStillRuns() throws Exception {
    PackagedHipsim.Result r = PackagedHipsim.run(Map.of("HIPSIM_CDS_ARCHIVE", ""), "", "run", "--", PROGRAM);
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.stdout()).contains("PASSED");
    assertThat(r.stderr()).isEmpty();
  }
}
