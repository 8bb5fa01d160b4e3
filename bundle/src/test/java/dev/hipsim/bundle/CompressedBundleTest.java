package dev.hipsim.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.elf.ByteSource;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CompressedBundleTest {
  private static final byte[] PLAIN = BundleWriter.plain(List.of(
      new BundleWriter.Input("host-x86_64-unknown-linux-gnu-", new byte[0]),
      new BundleWriter.Input("hipv4-amdgcn-amd-amdhsa--gfx90a", "a code object".repeat(100).getBytes())), 4096);

  @ParameterizedTest
  @CsvSource({"1, ZLIB", "1, ZSTD", "2, ZLIB", "2, ZSTD", "3, ZLIB", "3, ZSTD"})
  void headersAreLaidOutAsLlvmLaysThemOut(int version, CompressionMethod method) throws Exception {
    byte[] ccob = BundleWriter.compressed(PLAIN, version, method, 6);
    ByteBuffer b = ByteBuffer.wrap(ccob).order(ByteOrder.LITTLE_ENDIAN);
    assertThat(new String(ccob, 0, 4)).isEqualTo("CCOB");
    assertThat(b.getShort(4)).isEqualTo((short) version);
    assertThat(b.getShort(6)).isEqualTo((short) method.code());
    int headerSize = CompressedHeader.headerSize(version);
    switch (version) {
      case 1 -> assertThat(b.getInt(8)).isEqualTo(PLAIN.length);
      case 2 -> {
        assertThat(b.getInt(8)).isEqualTo(ccob.length);
        assertThat(b.getInt(12)).isEqualTo(PLAIN.length);
      }
      default -> {
        assertThat(b.getLong(8)).isEqualTo(ccob.length);
        assertThat(b.getLong(16)).isEqualTo(PLAIN.length);
      }
    }
    assertThat(b.getLong(headerSize - 8)).isEqualTo(BundleReader.md5Low64(PLAIN, PLAIN.length));
    if (method == CompressionMethod.ZLIB) assertThat(ccob[headerSize]).isEqualTo((byte) 0x78);
    else assertThat(b.getInt(headerSize)).isEqualTo(0xFD2FB528);
  }

  @Test
  void aHashMismatchIsReportedButNotFatal() throws Exception {
    byte[] ccob = BundleWriter.compressed(PLAIN, 3, CompressionMethod.ZSTD, 6);
    ccob[24] ^= 1;
    OffloadBundle b = BundleReader.read(ByteSource.of(ccob), 0, ccob.length, ReadOptions.DEFAULT);
    assertThat(b.hashMatches()).contains(false);
    assertThat(b.warnings()).singleElement().asString().contains("does not match the payload's MD5");
    assertThat(b.entries()).hasSize(2);
  }

  @Test
  void aDeclaredSizeAboveTheLimitIsRefusedBeforeAllocation() {
    // 4 GiB - 1 declared by a 40-byte v2 bundle: a bomb, refused from its header.
    byte[] ccob = BundleWriter.compressed(PLAIN, 2, CompressionMethod.ZLIB, 6);
    ByteBuffer.wrap(ccob).order(ByteOrder.LITTLE_ENDIAN).putInt(12, -1);
    assertThatThrownBy(() -> BundleReader.read(ByteSource.of(ccob), 0, ccob.length, ReadOptions.DEFAULT))
        .isInstanceOfSatisfying(DecompressionLimitException.class, e -> {
          assertThat(e.requested()).isEqualTo(0xffff_ffffL);
          assertThat(e.getMessage()).startsWith("at file offset 0x0: declared uncompressed size of 4294967295 bytes");
        });
    byte[] v3 = BundleWriter.compressed(PLAIN, 3, CompressionMethod.ZSTD, 6);
    ByteBuffer.wrap(v3).order(ByteOrder.LITTLE_ENDIAN).putLong(16, 1L << 40);
    assertThatThrownBy(() -> BundleReader.read(ByteSource.of(v3), 0, v3.length, ReadOptions.DEFAULT))
        .isInstanceOf(DecompressionLimitException.class);
  }

  @Test
  void theLimitIsConfigurable() throws Exception {
    byte[] ccob = BundleWriter.compressed(PLAIN, 3, CompressionMethod.ZSTD, 6);
    assertThatThrownBy(() -> BundleReader.read(ByteSource.of(ccob), 0, ccob.length, new ReadOptions(1000)))
        .isInstanceOf(DecompressionLimitException.class).hasMessageContaining("limit of 1000 bytes");
    assertThat(BundleReader.read(ByteSource.of(ccob), 0, ccob.length, new ReadOptions(PLAIN.length)).entries())
        .hasSize(2);
  }

  @Test
  void aPayloadLargerThanDeclaredIsAnErrorAndASmallerOneAWarning() throws Exception {
    for (CompressionMethod m : CompressionMethod.values()) {
      byte[] larger = BundleWriter.compressed(PLAIN, 3, m, 6);
      ByteBuffer.wrap(larger).order(ByteOrder.LITTLE_ENDIAN).putLong(16, PLAIN.length - 1);
      assertThatThrownBy(() -> BundleReader.read(ByteSource.of(larger), 0, larger.length, ReadOptions.DEFAULT))
          .isInstanceOf(BundleFormatException.class).hasMessageContaining("than the declared");
    }
    byte[] smaller = BundleWriter.compressed(PLAIN, 3, CompressionMethod.ZLIB, 6);
    ByteBuffer.wrap(smaller).order(ByteOrder.LITTLE_ENDIAN).putLong(16, PLAIN.length + 10);
    OffloadBundle b = BundleReader.read(ByteSource.of(smaller), 0, smaller.length, ReadOptions.DEFAULT);
    assertThat(b.warnings()).anyMatch(w -> w.contains("not the declared"));
  }

  @Test
  void version1FindsTheEndOfItsStreamWhenAnotherBundleFollows() throws Exception {
    for (CompressionMethod m : CompressionMethod.values()) {
      byte[] first = BundleWriter.compressed(PLAIN, 1, m, 6);
      byte[] second = BundleWriter.compressed(PLAIN, 1, m == CompressionMethod.ZLIB ? CompressionMethod.ZSTD
          : CompressionMethod.ZLIB, 6);
      ByteBuffer section = ByteBuffer.allocate(8192 + second.length);
      section.put(0, first).put(8192, second);
      List<BundleLocation> found = BundleReader.locate(ByteSource.of(section.array()), 0, section.capacity(),
          ReadOptions.DEFAULT);
      assertThat(found).extracting(BundleLocation::offset).containsExactly(0L, 8192L);
      assertThat(found).extracting(BundleLocation::length).containsExactly((long) first.length, (long) second.length);
    }
  }

  @Test
  void errorsNameTheFileOffset() {
    byte[] garbage = new byte[64];
    System.arraycopy("CCOB".getBytes(), 0, garbage, 16, 4);
    garbage[20] = 9;
    assertThatThrownBy(() -> BundleReader.locate(ByteSource.of(garbage), 0, garbage.length, ReadOptions.DEFAULT))
        .isInstanceOf(BundleFormatException.class)
        .hasMessage("at file offset 0x14: unknown compressed bundle version 9 (known: 1, 2, 3)");
    byte[] junk = new byte[100];
    junk[40] = 7;
    assertThatThrownBy(() -> BundleReader.locate(ByteSource.of(junk), 0, junk.length, ReadOptions.DEFAULT))
        .isInstanceOf(BundleFormatException.class).hasMessageStartingWith("at file offset 0x28: expected an offload");
  }
}
