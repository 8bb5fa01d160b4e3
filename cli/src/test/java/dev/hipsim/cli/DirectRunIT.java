package dev.hipsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.cli.PackagedHipsim.Result;
import dev.hipsim.testing.Corpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/hipsim starts the program of {@code hipsim run} itself when the command line and the program are plainly fine,
 * and leaves everything else to the Java command: the two routes give the same results, and every error is still
 * the Java command's message. A program printing its environment shows which route ran: only the Java command sets
 * HIPSIM_DEVICE when no device is asked for (without it, the runtime chooses from the program's code).
 */
class DirectRunIT {
  private static final Map<String, String> JAVA_ROUTE = Map.of("HIPSIM_NO_DIRECT_RUN", "1");
  private static final String SHOW_DEVICE = "echo \"device=${HIPSIM_DEVICE-unset} stats=${HIPSIM_STATS-unset} $*\"";

  @BeforeAll
  static void built() {
    PackagedHipsim.assumeBuilt();
  }

  private static Result hipsim(Map<String, String> env, String... args) throws Exception {
    return PackagedHipsim.run(env, "", args);
  }

  @Test
  void aHipProgramGivesTheSameResultsByBothRoutes() throws Exception {
    String saxpy = Corpus.root().resolve("gfx940-v5/saxpy").toString();
    Result direct = hipsim(Map.of(), "run", "--stats", "--", saxpy);
    Result java = hipsim(JAVA_ROUTE, "run", "--stats", "--", saxpy);
    assertThat(direct.exit()).as(direct.toString()).isZero();
    assertThat(direct.stdout()).isEqualTo(java.stdout()).isNotEmpty();
    // The device both chose from the program's gfx940 code, and the statistics header that names it.
    assertThat(direct.stderr().lines().findFirst()).isEqualTo(java.stderr().lines().findFirst());
    assertThat(direct.stderr()).startsWith("hipsim: kernel statistics on gfx940, AMD Instinct MI300A");
  }

  @Test
  void optionsReachTheProgramAsTheJavaCommandPassesThem() throws Exception {
    Result plain = hipsim(Map.of(), "run", "--", "/bin/sh", "-c", SHOW_DEVICE, "sh", "a b", "--stats");
    assertThat(plain.exit()).as(plain.toString()).isZero();
    assertThat(plain.stdout()).isEqualTo("device=unset stats=unset a b --stats\n");
    Result options = hipsim(Map.of(), "run", "--device=gfx942", "--stats", "/bin/sh", "-c", SHOW_DEVICE, "sh");
    assertThat(options.stdout()).isEqualTo("device=gfx942 stats=1 \n");
    Result separate = hipsim(Map.of(), "run", "--device", "gfx940", "sh", "-c", SHOW_DEVICE + "; exit 7", "sh");
    assertThat(separate.exit()).isEqualTo(7);
    assertThat(separate.stdout()).isEqualTo("device=gfx940 stats=unset \n");
    Result viaJava = hipsim(JAVA_ROUTE, "run", "--", "/bin/sh", "-c", SHOW_DEVICE, "sh", "x");
    assertThat(viaJava.stdout()).isEqualTo("device=gfx90a stats=unset x\n");
  }

  @Test
  void whatIsNotPlainlyFineGetsTheJavaCommandsMessage(@TempDir Path dir) throws Exception {
    byte[] whole = Files.readAllBytes(Corpus.root().resolve("gfx90a-v4/vector_add"));
    Path truncated = dir.resolve("truncated");
    Files.write(truncated, Arrays.copyOf(whole, 3000));
    assertThat(truncated.toFile().setExecutable(true)).isTrue();
    Result damaged = hipsim(Map.of(), "run", "--", truncated.toString());
    assertThat(damaged.exit()).isEqualTo(RunCommand.CANNOT_RUN);
    assertThat(damaged.stderr()).startsWith("hipsim: cannot run " + truncated + ": not a valid ELF file: ");

    Path script = dir.resolve("script");
    Files.writeString(script, "#!/bin/sh\nexit 3\n");
    assertThat(hipsim(Map.of(), "run", "--", script.toString()).stderr())
        .isEqualTo("hipsim: cannot run " + script + ": not executable\n");
    assertThat(hipsim(Map.of(), "run", "--", dir.resolve("missing").toString()).stderr())
        .startsWith("hipsim: cannot run " + dir.resolve("missing") + ": ");
    assertThat(hipsim(Map.of(), "run", "--", "no-such-program-anywhere").exit()).isEqualTo(RunCommand.CANNOT_RUN);

    Result device = hipsim(Map.of(), "run", "--device", "gfx1100", "--", "/bin/true");
    assertThat(device.exit()).isEqualTo(2);
    assertThat(device.stderr()).contains("--device");
    assertThat(hipsim(Map.of(), "run", "--stats", "--stats", "/bin/true").exit()).isEqualTo(2);
    assertThat(hipsim(Map.of(), "run", "--frobnicate", "/bin/true").exit()).isEqualTo(2);
    assertThat(hipsim(Map.of(), "run", "--help").stdout()).contains("Usage: hipsim run");
  }

  @Test
  void aTruncatedSegmentIsCaughtEvenWithTheSectionTableIntact(@TempDir Path dir) throws Exception {
    // The first PT_LOAD segment made to reach past the end of the file: only the program header table says so.
    byte[] elf = Files.readAllBytes(Corpus.root().resolve("gfx90a-v4/vector_add"));
    java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(elf).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    long phoff = b.getLong(32);
    int phnum = b.getShort(56) & 0xffff;
    int load = -1;
    for (int i = 0; i < phnum && load < 0; i++) {
      if (b.getInt((int) phoff + 56 * i) == 1) load = i;
    }
    assertThat(load).isNotNegative();
    b.putLong((int) phoff + 56 * load + 32, elf.length + 4096L);
    Path damaged = dir.resolve("long_segment");
    Files.write(damaged, elf);
    assertThat(damaged.toFile().setExecutable(true)).isTrue();
    Result r = hipsim(Map.of(), "run", "--", damaged.toString());
    assertThat(r.exit()).as(r.toString()).isEqualTo(RunCommand.CANNOT_RUN);
    assertThat(r.stderr()).startsWith("hipsim: cannot run " + damaged + ": not a valid ELF file: ");
  }
}
