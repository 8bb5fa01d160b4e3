package dev.hipsim.bundle.testing;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/** Debian's ROCm libraries used by the {@code real-world} test group, when they are installed. */
public final class RealWorld {
  public static final Path LIB = Paths.get("/usr/lib/x86_64-linux-gnu");
  public static final List<String> LIBRARIES = List.of("librocrand.so.1", "librocsparse.so.0");
  /** LLVM 15's bundler, for the entries LLVM 22's refuses (see testdata/build.sh). */
  public static final Path BUNDLER_15 = Paths.get("/usr/lib/llvm-15/bin/clang-offload-bundler");

  private RealWorld() {}

  /** The library's path; skips the test, saying so, when the package is not installed. */
  public static Path require(String name) {
    Path p = LIB.resolve(name);
    Assumptions.assumeTrue(Files.isRegularFile(p), "skipped: " + p + " is not installed (Debian's "
        + (name.startsWith("librocrand") ? "librocrand1" : "librocsparse0") + " package)");
    return p;
  }

  /** Resets the peak usage of every heap pool. */
  public static void resetHeapPeak() {
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP) p.resetPeakUsage();
    }
  }

  /** Sum of the heap pools' peak usage since the last reset (an upper bound of the peak heap). */
  public static long heapPeak() {
    long sum = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP) sum += p.getPeakUsage().getUsed();
    }
    return sum;
  }

  public static Optional<Path> bundler15() {
    return Files.isExecutable(BUNDLER_15) ? Optional.of(BUNDLER_15) : Optional.empty();
  }
}
