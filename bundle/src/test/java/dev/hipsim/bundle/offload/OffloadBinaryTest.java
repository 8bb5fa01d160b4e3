package dev.hipsim.bundle.offload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.bundle.BundleFormatException;
import dev.hipsim.bundle.CompressionMethod;
import dev.hipsim.bundle.DecompressionLimitException;
import dev.hipsim.bundle.FatBinaryFile;
import dev.hipsim.bundle.ReadOptions;
import dev.hipsim.bundle.testing.BundleCorpus;
import dev.hipsim.elf.ByteSource;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class OffloadBinaryTest {
  /** The object clang 22 built with the new offload driver: what llvm-objdump --offloading printed, and the hashes. */
  @Test
  void relocatableObjectMatchesLlvmObjdumpOffloading() throws Exception {
    try (FatBinaryFile f = FatBinaryFile.open(BundleCorpus.extras().resolve("vector_add-rdc.o"), ReadOptions.DEFAULT)) {
      List<OffloadImage> images = new ArrayList<>();
      List<OffloadBinary> binaries = f.offloadBinaries();
      for (OffloadBinary b : binaries) images.addAll(b.images());
      assertThat(render(images)).isEqualTo(recordedObjdump());
      List<String> tsv = BundleCorpus.lines(BundleCorpus.extras().resolve("vector_add-rdc.o.images.tsv"));
      assertThat(tsv).hasSameSizeAs(images);
      int i = 0;
      for (OffloadBinary b : binaries) {
        assertThat(b.version()).isEqualTo(1);
        for (OffloadImage img : b.images()) {
          String[] fields = tsv.get(i++).split("\t");
          assertThat(img.arch()).isEqualTo(fields[1]);
          assertThat(img.triple()).isEqualTo(fields[2]);
          ByteBuffer bytes = b.image(img);
          assertThat(bytes.remaining()).isEqualTo(Integer.parseInt(fields[3]));
          assertThat(BundleCorpus.sha256(bytes)).isEqualTo(fields[4]);
          assertThat(bytes.isDirect()).as("images are views of the mapped file").isTrue();
        }
      }
    }
  }

  /** llvm-objdump's --offloading listing of our images. */
  static List<String> render(List<OffloadImage> images) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < images.size(); i++) {
      OffloadImage img = images.get(i);
      out.add("OFFLOADING IMAGE [" + i + "]:");
      out.add(String.format("%-16s%s", "kind", img.imageKind().objdumpName()));
      out.add(String.format("%-16s%s", "arch", img.arch()));
      out.add(String.format("%-16s%s", "triple", img.triple()));
      out.add(String.format("%-16s%s", "producer", img.producer().displayName()));
    }
    return out;
  }

  private static List<String> recordedObjdump() {
    List<String> out = new ArrayList<>();
    for (String line : BundleCorpus.lines(BundleCorpus.extras().resolve("vector_add-rdc.o.offloading.txt"))) {
      if (!line.isBlank() && !line.contains("file format")) out.add(line);
    }
    return out;
  }

  @Provide
  Arbitrary<List<OffloadBinaryWriter.ImageInput>> images() {
    Arbitrary<OffloadBinaryWriter.ImageInput> one = Combinators.combine(
        Arbitraries.of(ImageKind.OBJECT, ImageKind.BITCODE, ImageKind.SPIRV),
        Arbitraries.of(ImageProducer.HIP, ImageProducer.OPENMP),
        Arbitraries.of("gfx90a", "gfx942:xnack+", "gfx1100", ""),
        Arbitraries.strings().alpha().ofMaxLength(12),
        Arbitraries.bytes().array(byte[].class).ofMaxSize(5000)).as((kind, producer, arch, extra, bytes) -> {
          Map<String, String> strings = new LinkedHashMap<>();
          strings.put("triple", "amdgcn-amd-amdhsa");
          strings.put("arch", arch);
          if (!extra.isEmpty()) strings.put("note", extra);
          return new OffloadBinaryWriter.ImageInput(kind, producer, 0, strings, bytes);
        });
    return one.list().ofMinSize(1).ofMaxSize(4);
  }

  @Property(tries = 300)
  void writtenBinariesReadBackIdentically(@ForAll("images") List<OffloadBinaryWriter.ImageInput> images,
      @ForAll @IntRange(min = 1, max = 5) int mode) throws Exception {
    int version = Math.min(mode, 3);
    List<OffloadBinaryWriter.ImageInput> used = version == 1 ? images.subList(0, 1) : images;
    byte[] bytes = mode <= 3 ? OffloadBinaryWriter.write(version, used)
        : OffloadBinaryWriter.writeCompressed(used, mode == 4 ? CompressionMethod.ZLIB : CompressionMethod.ZSTD);
    // Two copies one after the other, as in a section.
    byte[] section = OffloadBinaryWriter.concatenate(List.of(bytes, bytes));
    List<OffloadBinary> read = OffloadBinaryReader.readAll(ByteSource.of(section), 0, section.length,
        ReadOptions.DEFAULT);
    assertThat(read).hasSize(2);
    for (OffloadBinary b : read) {
      assertThat(b.version()).isEqualTo(version);
      assertThat(b.compressed()).isEqualTo(mode > 3);
      assertThat(b.images()).hasSameSizeAs(used);
      for (int i = 0; i < used.size(); i++) {
        OffloadImage img = b.images().get(i);
        assertThat(img.imageKind()).isEqualTo(used.get(i).kind());
        assertThat(img.producer()).isEqualTo(used.get(i).producer());
        assertThat(img.strings()).isEqualTo(used.get(i).strings());
        ByteBuffer c = b.image(img);
        byte[] got = new byte[c.remaining()];
        c.get(got);
        assertThat(got).isEqualTo(used.get(i).image());
      }
    }
  }

  @Test
  void ourVersion1HeaderIsLaidOutAsLlvm22WritesIt() throws Exception {
    // LLVM 22's header for one image: version 1, entry right after the 32-byte header, entry size 40.
    byte[] ours = OffloadBinaryWriter.write(1, List.of(new OffloadBinaryWriter.ImageInput(ImageKind.BITCODE,
        ImageProducer.HIP, 0, Map.of("arch", "gfx90a"), new byte[10])));
    ByteBuffer b = ByteBuffer.wrap(ours).order(ByteOrder.LITTLE_ENDIAN);
    assertThat(b.getInt(4)).isEqualTo(1);
    assertThat(b.getLong(8)).isEqualTo(ours.length);
    assertThat(b.getLong(16)).isEqualTo(32);
    assertThat(b.getLong(24)).isEqualTo(40);
    assertThat(ours.length % 8).isZero();
  }

  @Test
  void forgedSizesAreTypedErrors() {
    byte[] good = OffloadBinaryWriter.write(2, List.of(new OffloadBinaryWriter.ImageInput(ImageKind.OBJECT,
        ImageProducer.HIP, 0, Map.of("arch", "gfx90a"), new byte[100])));
    byte[] count = good.clone();
    ByteBuffer.wrap(count).order(ByteOrder.LITTLE_ENDIAN).putLong(24, Long.MAX_VALUE);
    assertThatThrownBy(() -> OffloadBinaryReader.readAll(ByteSource.of(count), 0, count.length, ReadOptions.DEFAULT))
        .isInstanceOf(BundleFormatException.class).hasMessageStartingWith("at file offset 0x18: OffloadBinary declares");
    byte[] bomb = OffloadBinaryWriter.writeCompressed(List.of(new OffloadBinaryWriter.ImageInput(ImageKind.OBJECT,
        ImageProducer.HIP, 0, Map.of(), new byte[100])), CompressionMethod.ZSTD);
    ByteBuffer.wrap(bomb).order(ByteOrder.LITTLE_ENDIAN).putLong(32, 1L << 40);
    assertThatThrownBy(() -> OffloadBinaryReader.readAll(ByteSource.of(bomb), 0, bomb.length, ReadOptions.DEFAULT))
        .isInstanceOf(DecompressionLimitException.class);
  }
}
