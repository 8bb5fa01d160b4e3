package dev.hipsim.bundle;

import dev.hipsim.bundle.metadata.CodeObjectInfo;
import dev.hipsim.bundle.metadata.MetadataDecoder;
import dev.hipsim.bundle.metadata.MetadataFormatException;
import dev.hipsim.bundle.offload.OffloadBinary;
import dev.hipsim.bundle.offload.OffloadImage;
import dev.hipsim.bundle.testing.BundleCorpus;
import dev.hipsim.elf.ByteSource;
import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.ElfFormatException;
import dev.hipsim.elf.ElfNote;
import dev.hipsim.elf.SectionHeader;
import dev.hipsim.testing.Corpus;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;

/**
 * Corrupted bundles, host binaries and metadata notes (bit flips, truncation, size/count/offset fields set to edge
 * values) either read or fail with one of the typed exceptions: {@link BundleFormatException} (with its
 * {@link DecompressionLimitException}), {@link ElfFormatException} for the code objects inside, and
 * {@link MetadataFormatException}. Nothing else escapes: no unchecked exception, no OutOfMemoryError.
 */
class HostileInputProperties {
  /** Small, so that forged sizes below it stay cheap to allocate 10,000 times. */
  private static final ReadOptions OPTIONS = new ReadOptions(4 << 20);
  private static final List<byte[]> BUNDLES = bundleSamples();
  private static final List<byte[]> HOSTS = List.of(
      Corpus.read(Corpus.binary("gfx90a-v4", "vector_add")),
      Corpus.read(Corpus.binary("gfx90a-v4", "vector_add-nopie")),
      Corpus.read(Corpus.binary("gfx942-v6-ccob3", "multi_tu")),
      Corpus.read(BundleCorpus.extras().resolve("vector_add-newdriver.o")),
      Corpus.read(BundleCorpus.extras().resolve("vector_add-rdc.o")));
  private static final List<byte[]> NOTES = noteSamples();

  private static List<byte[]> bundleSamples() {
    List<byte[]> out = new ArrayList<>();
    try {
      out.add(section(Corpus.binary("gfx90a-v4", "vector_add")));
      out.add(section(Corpus.binary("gfx90a-v5-xnack", "saxpy")));
      out.add(section(Corpus.binary("gfx90a-v4", "multi_tu")));
      out.add(section(Corpus.binary("gfx942-v6-ccob3", "vector_add")));
      out.add(section(Corpus.binary("gfx942-v6-ccob2", "vector_add")));
      byte[] plain = section(Corpus.binary("gfx90a-v4", "saxpy"));
      plain = java.util.Arrays.copyOf(plain, (int) BundleReader.locate(ByteSource.of(plain), 0, plain.length,
          ReadOptions.DEFAULT).get(0).length());
      out.add(BundleWriter.compressed(plain, 1, CompressionMethod.ZLIB, 6));
      out.add(BundleWriter.compressed(plain, 1, CompressionMethod.ZSTD, 6));
      out.add(BundleWriter.compressed(plain, 2, CompressionMethod.ZLIB, 6));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return out;
  }

  private static List<byte[]> noteSamples() {
    List<byte[]> out = new ArrayList<>();
    for (Corpus.CodeObject c : Corpus.codeObjects()) {
      if (c.program().equals("device_globals") && !c.variant().equals("gfx90a-debug") || c.program().equals("mfma")
          && c.variant().equals("gfx90a-v5-xnack")) {
        try (ElfFile elf = ElfFile.parse(Corpus.read(c.hsaco()))) {
          ElfNote n = elf.amdgpuMetadataNote().orElseThrow();
          byte[] b = new byte[n.descriptor().remaining()];
          n.descriptorView().get(b);
          out.add(b);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }
    }
    return out;
  }

  private static byte[] section(java.nio.file.Path binary) throws Exception {
    try (ElfFile elf = ElfFile.open(binary)) {
      SectionHeader s = elf.section(".hip_fatbin").orElseThrow();
      ByteBuffer view = elf.data(s);
      byte[] b = new byte[view.remaining()];
      view.get(b);
      return b;
    }
  }

  /** A mutation: which sample, what to do, where, with which value, how many times. */
  record Mutation(int sample, int kind, int position, long value, int count) {}

  private static Arbitrary<Mutation> mutations(int samples) {
    return Combinators.combine(
        Arbitraries.integers().between(0, samples - 1),
        Arbitraries.integers().between(0, 4),
        Arbitraries.integers().greaterOrEqual(0),
        Arbitraries.longs().withDistribution(RandomDistribution.uniform())
            .edgeCases(c -> c.add(0L, 1L, -1L, Long.MAX_VALUE, 0x7fff_ffffL, 0xffff_ffffL, 1L << 31, 1L << 32)),
        Arbitraries.integers().between(1, 12)).as(Mutation::new);
  }

  @Provide
  Arbitrary<Mutation> bundleMutations() {
    return mutations(BUNDLES.size());
  }

  @Provide
  Arbitrary<Mutation> hostMutations() {
    return mutations(HOSTS.size());
  }

  @Provide
  Arbitrary<Mutation> noteMutations() {
    return mutations(NOTES.size());
  }

  @Property(tries = 10_000)
  void corruptBundlesOnlyFailWithTypedErrors(@ForAll("bundleMutations") Mutation m) throws Exception {
    byte[] bytes = mutate(BUNDLES.get(m.sample()), m, 256);
    try {
      ByteSource source = ByteSource.of(bytes);
      for (BundleLocation l : BundleReader.locate(source, 0, bytes.length, OPTIONS)) {
        OffloadBundle b = BundleReader.open(source, l, OPTIONS);
        exercise(b);
      }
    } catch (BundleFormatException | ElfFormatException | MetadataFormatException expected) {
      checkMessage(expected);
    }
  }

  @Property(tries = 3_000)
  void corruptHostBinariesOnlyFailWithTypedErrors(@ForAll("hostMutations") Mutation m) throws Exception {
    byte[] bytes = mutate(HOSTS.get(m.sample()), m, 8192);
    try (FatBinaryFile f = FatBinaryFile.of(ByteSource.of(bytes), OPTIONS)) {
      for (BundleLocation l : f.bundles()) exercise(f.openBundle(l));
      for (OffloadBinary b : f.offloadBinaries()) {
        for (OffloadImage i : b.images()) b.image(i).get(0);
      }
    } catch (BundleFormatException | ElfFormatException | MetadataFormatException expected) {
      checkMessage(expected);
    }
  }

  @Property(tries = 10_000)
  void corruptMetadataNotesOnlyFailWithMetadataFormatException(@ForAll("noteMutations") Mutation m) {
    byte[] bytes = mutate(NOTES.get(m.sample()), m, 512);
    try {
      MetadataDecoder.decode(bytes, 0x1234);
    } catch (MetadataFormatException expected) {
      checkMessage(expected);
    }
  }

  private static void exercise(OffloadBundle b) throws Exception {
    for (BundleEntry e : b.entries()) {
      ByteBuffer c = b.contents(e);
      if (!e.isHost() && c.remaining() > 64 && ElfFile.hasElfMagic(c, 0)) CodeObjectInfo.read(c);
    }
  }

  private static void checkMessage(Exception e) {
    if (e.getMessage() == null || !e.getMessage().startsWith("at file offset 0x")) {
      throw new AssertionError("error without a file offset: " + e.getMessage(), e);
    }
  }

  /** Flip bits (biased to the first {@code head} bytes), truncate, or overwrite 1, 2, 4 or 8 bytes. */
  static byte[] mutate(byte[] original, Mutation m, int head) {
    byte[] b = original.clone();
    switch (m.kind()) {
      case 0: {
        for (int i = 0; i < m.count(); i++) {
          int limit = i % 2 == 0 ? Math.min(b.length, head) : b.length;
          int at = Math.floorMod(m.position() + i * 7919, limit);
          b[at] ^= (byte) (1 << ((m.value() >>> (i * 3)) & 7));
        }
        return b;
      }
      case 1:
        return java.util.Arrays.copyOf(original, Math.floorMod(m.position(), original.length));
      default: {
        int width = 1 << (m.kind() - 1);
        int at = Math.floorMod(m.position(), Math.max(1, Math.min(b.length, head) - width + 1)) & ~(width - 1);
        if (m.count() % 3 == 0) at = Math.floorMod(m.position(), Math.max(1, b.length - width + 1));
        ByteBuffer w = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        if (at + width > b.length) return b;
        switch (width) {
          case 1 -> w.put(at, (byte) m.value());
          case 2 -> w.putShort(at, (short) m.value());
          case 4 -> w.putInt(at, (int) m.value());
          default -> w.putLong(at, m.value());
        }
        return b;
      }
    }
  }
}
