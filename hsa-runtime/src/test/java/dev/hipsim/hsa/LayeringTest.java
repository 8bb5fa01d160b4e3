package dev.hipsim.hsa;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** ARCHITECTURE.md: the runtime reaches the device only through kfd-sim, never through gcn-isa's interpreter. */
class LayeringTest {
  @Test
  void noRuntimeClassUsesTheInterpreter() throws IOException {
    Path main = Paths.get("src/main/java");
    try (Stream<Path> files = Files.walk(main)) {
      List<Path> offenders = files.filter(p -> p.toString().endsWith(".java")).filter(p -> {
        try {
          String text = Files.readString(p);
          return text.contains("dev.hipsim.isa.exec") || text.contains("dev.hipsim.isa.alu");
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }).toList();
      assertThat(offenders).isEmpty();
    }
    assertThat(Files.isDirectory(main.resolve("dev/hipsim/hsa"))).as("run from the module directory").isTrue();
  }
}
