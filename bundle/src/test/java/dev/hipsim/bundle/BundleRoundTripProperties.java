package dev.hipsim.bundle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.elf.ByteSource;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** What the writer writes, the reader reads back: every format, version and method, alone and concatenated. */
class BundleRoundTripProperties {
  /** How one bundle is written. */
  record Shape(int version, CompressionMethod method, int alignment) {
    byte[] write(List<BundleWriter.Input> entries) {
      byte[] plain = BundleWriter.plain(entries, alignment);
      return version == 0 ? plain : BundleWriter.compressed(plain, version, method, 6);
    }
  }

  @Provide
  Arbitrary<List<BundleWriter.Input>> entries() {
    Arbitrary<String> ids = Arbitraries.of("hipv4-amdgcn-amd-amdhsa--gfx90a", "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-",
        "hipv4-amdgcn-amd-amdhsa--gfx942:sramecc+:xnack+", "hip-amdgcn-amd-amdhsa--gfx906", "openmp-amdgcn-amd-amdhsa--gfx90a",
        "host-x86_64-unknown-linux-gnu-", "odd id with spaces");
    Arbitrary<byte[]> contents = Arbitraries.oneOf(
        Arbitraries.bytes().array(byte[].class).ofMaxSize(3000),
        Arbitraries.bytes().between((byte) 0, (byte) 3).array(byte[].class).ofMaxSize(20000));
    return Combinators.combine(ids, contents).as(BundleWriter.Input::new).list().ofMinSize(0).ofMaxSize(6)
        .uniqueElements(BundleWriter.Input::id);
  }

  @Provide
  Arbitrary<Shape> shapes() {
    return Combinators.combine(Arbitraries.integers().between(0, 3), Arbitraries.of(CompressionMethod.class),
        Arbitraries.of(1, 8, 4096)).as(Shape::new);
  }

  @Property(tries = 300)
  void writtenBundlesReadBackIdentically(@ForAll("entries") List<BundleWriter.Input> entries,
      @ForAll("shapes") Shape shape) throws Exception {
    byte[] bytes = shape.write(entries);
    ByteSource source = ByteSource.of(bytes);
    List<BundleLocation> found = BundleReader.locate(source, 0, bytes.length, ReadOptions.DEFAULT);
    assertThat(found).hasSize(1);
    assertThat(found.get(0).length()).isEqualTo(bytes.length);
    OffloadBundle bundle = BundleReader.open(source, found.get(0), ReadOptions.DEFAULT);
    assertSameEntries(bundle, entries);
    assertThat(bundle.warnings()).isEmpty();
    if (shape.version() > 0) {
      CompressedHeader h = bundle.compression().orElseThrow();
      assertThat(h.version()).isEqualTo(shape.version());
      assertThat(h.method()).isEqualTo(shape.method());
      assertThat(bundle.hashMatches()).contains(true);
    }
  }

  /** Several bundles in one section, zero-padded to 4096 as the linker places them, in any mix of formats. */
  @Property(tries = 150)
  void concatenatedBundlesAreAllFound(@ForAll @Size(min = 1, max = 4) List<@IntRange(min = 0, max = 7) Integer> kinds,
      @ForAll("entries") List<BundleWriter.Input> entries) throws Exception {
    List<byte[]> parts = new ArrayList<>();
    for (int k : kinds) {
      parts.add(new Shape(k % 4, k < 4 ? CompressionMethod.ZLIB : CompressionMethod.ZSTD, 4096).write(entries));
    }
    int total = 0;
    for (byte[] p : parts) total = align(total + p.length, 4096);
    ByteBuffer section = ByteBuffer.allocate(total);
    int at = 0;
    for (byte[] p : parts) {
      section.put(at, p);
      at = align(at + p.length, 4096);
    }
    ByteSource source = ByteSource.of(section.array());
    List<BundleLocation> found = BundleReader.locate(source, 0, total, ReadOptions.DEFAULT);
    assertThat(found).hasSize(parts.size());
    at = 0;
    for (int i = 0; i < parts.size(); i++) {
      assertThat(found.get(i).offset()).isEqualTo(at);
      assertThat(found.get(i).length()).isEqualTo(parts.get(i).length);
      assertSameEntries(BundleReader.open(source, found.get(i), ReadOptions.DEFAULT), entries);
      at = align(at + parts.get(i).length, 4096);
    }
  }

  private static int align(int v, int a) {
    return (v + a - 1) / a * a;
  }

  private static void assertSameEntries(OffloadBundle bundle, List<BundleWriter.Input> entries) throws Exception {
    assertThat(bundle.entries()).hasSameSizeAs(entries);
    for (int i = 0; i < entries.size(); i++) {
      BundleEntry e = bundle.entries().get(i);
      assertThat(e.id()).isEqualTo(entries.get(i).id());
      ByteBuffer c = bundle.contents(e);
      byte[] got = new byte[c.remaining()];
      c.get(got);
      assertThat(got).isEqualTo(entries.get(i).contents());
    }
  }
}
