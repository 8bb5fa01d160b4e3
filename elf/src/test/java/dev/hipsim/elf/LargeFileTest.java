package dev.hipsim.elf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files above 2 GiB (Debian's librocsparse0 ships a 1.3 GB section; bigger ones exist) are read through windowed
 * mappings, never copied onto the heap. The file here is sparse, so the test costs no disk.
 */
class LargeFileTest {
  private static final long FAR = (5L << 30) - 3; // 5 GiB - 3: straddles a 256 MiB window boundary

  @Test
  void readsSectionsBeyondTwoGiB(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("large.elf");
    byte[] payload = "payload beyond 4 GiB".getBytes();
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      long shoff = FAR + 64;
      ByteBuffer header = elfHeader(shoff, 3, 2);
      raf.write(header.array());
      raf.seek(FAR);
      raf.write(payload);
      raf.seek(FAR + 32);
      raf.write("\0.big\0.shstrtab\0".getBytes());
      raf.seek(shoff);
      raf.write(new byte[64]); // section 0
      raf.write(sectionHeader(1, SectionHeader.SHT_PROGBITS, FAR, payload.length).array());
      raf.write(sectionHeader(6, SectionHeader.SHT_STRTAB, FAR + 32, 16).array());
    }
    assertThat(Files.size(file)).isGreaterThan(1L << 32);
    try (ElfFile elf = ElfFile.open(file)) {
      SectionHeader big = elf.section(".big").orElseThrow();
      assertThat(big.offset()).isEqualTo(FAR);
      ByteBuffer data = elf.data(big);
      byte[] read = new byte[data.remaining()];
      data.get(read);
      assertThat(read).isEqualTo(payload);
      assertThat(elf.source().u64(FAR)).isEqualTo(ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN).getLong());
      assertThatThrownBy(() -> elf.source().u32(elf.source().size() - 2))
          .isInstanceOf(ElfFormatException.class).hasMessageContaining("does not fit");
    }
  }

  static ByteBuffer elfHeader(long shoff, int shnum, int shstrndx) {
    ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
    b.put(new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0});
    b.putShort(16, (short) ElfHeader.ET_DYN).putShort(18, (short) ElfHeader.EM_X86_64).putInt(20, 1);
    b.putLong(40, shoff).putShort(52, (short) 64).putShort(54, (short) 56).putShort(58, (short) 64);
    b.putShort(60, (short) shnum).putShort(62, (short) shstrndx);
    return b;
  }

  static ByteBuffer sectionHeader(int name, int type, long offset, long size) {
    ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0, name).putInt(4, type).putLong(24, offset).putLong(32, size).putLong(48, 1);
    return b;
  }
}
