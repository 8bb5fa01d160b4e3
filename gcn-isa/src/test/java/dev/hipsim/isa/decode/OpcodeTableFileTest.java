package dev.hipsim.isa.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The compact opcode table file holds exactly what the text tables say, and a damaged one is refused. */
class OpcodeTableFileTest {
  private static final OpcodeInfo[][][] TEXT = OpcodeTables.parseText();

  @Test
  void theBuiltFileHoldsWhatTheTextTablesSay() throws IOException {
    byte[] file = builtFile();
    assertThat(describe(read(file))).isEqualTo(describe(TEXT));
  }

  @Test
  void theTablesInUseEqualTheText() {
    assertThat(describe(OpcodeTables.get().rowsByFamily())).isEqualTo(describe(TEXT));
  }

  @Test
  void rowsTheTwoFamiliesShareStayOneObject() throws IOException {
    OpcodeInfo[][][] rows = read(write(TEXT));
    int shared = 0;
    for (int f = 0; f < rows[0].length; f++) {
      for (int op = 0; op < rows[0][f].length; op++) {
        boolean sharedInText = TEXT[0][f][op] != null && TEXT[0][f][op] == TEXT[1][f][op];
        assertThat(rows[0][f][op] != null && rows[0][f][op] == rows[1][f][op]).isEqualTo(sharedInText);
        if (sharedInText) shared++;
      }
    }
    assertThat(shared).isGreaterThan(1000);
  }

  @Property(tries = 200)
  void aTruncatedFileIsRefusedWithAnIoException(@ForAll @IntRange(min = 0, max = 1_000_000) int cut) throws IOException {
    byte[] file = write(TEXT);
    byte[] truncated = Arrays.copyOf(file, cut % file.length);
    assertThatThrownBy(() -> read(truncated)).isInstanceOf(IOException.class);
  }

  @Property(tries = 300)
  void aDamagedFileLoadsOrIsRefusedButNeverThrowsAnythingElse(@ForAll @IntRange(min = 0, max = 1_000_000) int at,
      @ForAll @IntRange(min = 1, max = 255) int flip) throws IOException {
    byte[] file = write(TEXT);
    file[at % file.length] ^= (byte) flip;
    try {
      read(file);
    } catch (IOException expected) {
      // refused: the caller parses the text instead
    }
  }

  @Test
  void extraBytesAfterTheLastRowAreRefused() throws IOException {
    byte[] file = write(TEXT);
    byte[] longer = Arrays.copyOf(file, file.length + 1);
    assertThatThrownBy(() -> read(longer)).isInstanceOf(IOException.class).hasMessageContaining("after the last row");
  }

  private static byte[] builtFile() throws IOException {
    try (InputStream in = OpcodeTables.class.getResourceAsStream(OpcodeTableFile.RESOURCE)) {
      assertThat(in).as("the build writes " + OpcodeTableFile.RESOURCE + " at process-classes").isNotNull();
      return in.readAllBytes();
    }
  }

  private static byte[] write(OpcodeInfo[][][] rows) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    OpcodeTableFile.write(rows, out);
    return out.toByteArray();
  }

  private static OpcodeInfo[][][] read(byte[] file) throws IOException {
    OpcodeInfo[][][] rows = new OpcodeInfo[2][Format.values().length][];
    for (Format f : Format.values()) {
      rows[0][f.ordinal()] = new OpcodeInfo[f.opcodeCount()];
      rows[1][f.ordinal()] = new OpcodeInfo[f.opcodeCount()];
    }
    OpcodeTableFile.read(new ByteArrayInputStream(file), rows);
    return rows;
  }

  /** Every field of every row, family by family, as text: equal descriptions mean equal tables. */
  private static List<String> describe(OpcodeInfo[][][] rows) {
    List<String> out = new ArrayList<>();
    for (int family = 0; family < 2; family++) {
      for (OpcodeInfo[] table : rows[family]) {
        for (OpcodeInfo row : table) {
          if (row == null) continue;
          out.add(family + " " + row.format() + " " + row.opcode() + " " + row.operation() + " " + row.mnemonic()
              + " " + Arrays.toString(row.zeroMaskArray()) + " " + row.liveMask() + " " + row.flagBits() + " "
              + row.immStyle() + " " + row.operands());
        }
      }
    }
    return out;
  }
}
