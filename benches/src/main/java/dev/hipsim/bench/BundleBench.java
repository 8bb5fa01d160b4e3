package dev.hipsim.bench;

import dev.hipsim.bundle.BundleEntry;
import dev.hipsim.bundle.BundleLocation;
import dev.hipsim.bundle.BundleReader;
import dev.hipsim.bundle.BundleWriter;
import dev.hipsim.bundle.CompressionMethod;
import dev.hipsim.bundle.OffloadBundle;
import dev.hipsim.bundle.ReadOptions;
import dev.hipsim.elf.ByteSource;
import dev.hipsim.elf.ElfFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Listing and extracting bundles: a plain section (zero-copy views) and the same code objects compressed with zstd
 * (CCOB v3, decompressed on every open). {@code corpus} is multi_tu's .hip_fatbin (three bundles, 42 KB); {@code
 * large} packs the gfx90a-debug code objects of the corpus (18 entries) into one bundle of 1.6 MB.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BundleBench {
  /** Distinct, valid target IDs for the entries of the large bundle. */
  private static final String[] PROCESSORS = {"gfx900", "gfx902", "gfx904", "gfx906", "gfx908", "gfx909", "gfx90a",
      "gfx90c", "gfx940", "gfx941", "gfx942", "gfx950", "gfx1010", "gfx1011", "gfx1012", "gfx1030", "gfx1031",
      "gfx1100", "gfx1101", "gfx1102", "gfx1200", "gfx1201"};

  @Param({"corpus", "large"})
  public String input;

  ByteSource plain;
  ByteSource zstd;
  byte[] sink;

  @Setup
  public void load() throws Exception {
    byte[] plainBytes;
    if (input.equals("corpus")) {
      plainBytes = section(BenchData.testdata().resolve("gfx90a-v4/multi_tu"));
    } else {
      List<BundleWriter.Input> entries = new ArrayList<>();
      entries.add(new BundleWriter.Input("host-x86_64-unknown-linux-gnu-", new byte[0]));
      try (Stream<Path> dirs = Files.list(BenchData.testdata().resolve("gfx90a-debug"))) {
        List<Path> codeObjects = dirs.filter(p -> p.toString().endsWith(".co")).sorted().toList();
        for (int i = 0; i < codeObjects.size() && i < PROCESSORS.length; i++) {
          entries.add(new BundleWriter.Input("hipv4-amdgcn-amd-amdhsa--" + PROCESSORS[i] + ":xnack-",
              Files.readAllBytes(codeObjects.get(i).resolve("0-gfx90a.hsaco"))));
        }
      }
      plainBytes = BundleWriter.plain(entries, BundleWriter.HIP_ALIGNMENT);
    }
    plain = ByteSource.of(plainBytes);
    // Re-pack each plain bundle as CCOB v3 zstd, one after the other at 4096-byte boundaries.
    List<byte[]> packed = new ArrayList<>();
    for (BundleLocation l : BundleReader.locate(plain, 0, plainBytes.length, ReadOptions.DEFAULT)) {
      byte[] one = new byte[(int) l.length()];
      plain.slice(l.offset(), l.length()).get(one);
      packed.add(BundleWriter.compressed(one, 3, CompressionMethod.ZSTD, 6));
    }
    int total = 0;
    for (byte[] p : packed) total = (total + p.length + 4095) & -4096;
    ByteBuffer all = ByteBuffer.allocate(total);
    int at = 0;
    for (byte[] p : packed) {
      all.put(at, p);
      at = (at + p.length + 4095) & -4096;
    }
    zstd = ByteSource.of(all.array());
    sink = new byte[4 << 20];
  }

  private static byte[] section(Path binary) throws IOException {
    try (ElfFile elf = ElfFile.open(binary)) {
      ByteBuffer v = elf.data(elf.section(".hip_fatbin").orElseThrow());
      byte[] b = new byte[v.remaining()];
      v.get(b);
      return b;
    }
  }

  @Benchmark
  public void listPlain(Blackhole bh) throws Exception {
    list(plain, bh);
  }

  @Benchmark
  public void extractPlain(Blackhole bh) throws Exception {
    extract(plain, bh);
  }

  @Benchmark
  public void listZstd(Blackhole bh) throws Exception {
    list(zstd, bh);
  }

  @Benchmark
  public void extractZstd(Blackhole bh) throws Exception {
    extract(zstd, bh);
  }

  private static void list(ByteSource source, Blackhole bh) throws Exception {
    for (BundleLocation l : BundleReader.locate(source, 0, source.size(), ReadOptions.DEFAULT)) {
      bh.consume(BundleReader.open(source, l, ReadOptions.DEFAULT).entries());
    }
  }

  /** Every device entry copied out, as writing it to a file would. */
  private void extract(ByteSource source, Blackhole bh) throws Exception {
    for (BundleLocation l : BundleReader.locate(source, 0, source.size(), ReadOptions.DEFAULT)) {
      OffloadBundle b = BundleReader.open(source, l, ReadOptions.DEFAULT);
      for (BundleEntry e : b.deviceEntries()) {
        ByteBuffer c = b.contents(e);
        int n = c.remaining();
        c.get(sink, 0, n);
        bh.consume(sink[n - 1]);
      }
    }
  }
}
