package dev.hipsim.hip.device;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class StructLayoutTest {
  /** One line of the golden tables: what gcc printed for the real ROCm headers. */
  record Golden(int offset, int size, String field) {}

  static List<Golden> golden(String resource) throws IOException {
    try (InputStream in = StructLayoutTest.class.getResourceAsStream(resource)) {
      List<Golden> out = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.isBlank() || line.startsWith("#")) continue;
        String[] f = line.split("\t");
        out.add(new Golden(Integer.parseInt(f[0]), Integer.parseInt(f[1]), f[2]));
      }
      return out;
    }
  }

  private static void assertMatches(StructLayout layout, String resource, int size) throws IOException {
    List<Golden> expected = golden(resource);
    assertThat(layout.fields()).extracting(StructLayout.Field::name).containsExactlyElementsOf(expected.stream().map(Golden::field).toList());
    for (Golden g : expected) {
      StructLayout.Field f = layout.field(g.field());
      assertThat(f.offset()).as(g.field() + " offset").isEqualTo(g.offset());
      assertThat(f.size()).as(g.field() + " size").isEqualTo(g.size());
    }
    assertThat(layout.size()).isEqualTo(size);
  }

  @Test
  void r0000MatchesTheRocm52Header() throws IOException {
    assertMatches(DevicePropertiesLayouts.R0000, "hipDeviceProp_tR0000.offsets.tsv", 792);
  }

  @Test
  void r0600MatchesTheRocm63Header() throws IOException {
    assertMatches(DevicePropertiesLayouts.R0600, "hipDeviceProp_tR0600.offsets.tsv", 1472);
  }

  @Test
  void writesValuesAndZeroesTheRest() {
    StructLayout l = StructLayout.builder("s").chars("name", 8).ints("a").sizes("b").add("c", StructLayout.FieldType.INT, 3).build();
    ByteBuffer b = ByteBuffer.allocate(l.size()).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < l.size(); i++) b.put(i, (byte) 0x5a);
    l.write(b, Map.of("name", "truncated!", "b", 1L << 40, "c", new int[] {1, 2, 3}, "notAField", 9));
    assertThat(l.size()).isEqualTo(40);
    assertThat(new String(b.array(), 0, 8, StandardCharsets.US_ASCII)).isEqualTo("truncat\0");
    assertThat(b.getInt(8)).isZero();
    assertThat(b.getLong(16)).isEqualTo(1L << 40);
    assertThat(b.getInt(24)).isEqualTo(1);
    assertThat(b.getInt(32)).isEqualTo(3);
    assertThat(b.getInt(36)).isZero(); // tail padding
    assertThat(b.getInt(12)).isZero(); // padding
  }

  @Property
  void fieldsAreAlignedAndDisjoint(@ForAll @Size(min = 1, max = 20) List<@IntRange(min = 0, max = 5) Integer> kinds) {
    StructLayout.Builder builder = StructLayout.builder("p");
    StructLayout.FieldType[] types = StructLayout.FieldType.values();
    for (int i = 0; i < kinds.size(); i++) builder.add("f" + i, types[kinds.get(i)], 1 + i % 3);
    StructLayout l = builder.build();
    int end = 0;
    int maxAlign = 1;
    for (StructLayout.Field f : l.fields()) {
      int align = f.type() == StructLayout.FieldType.CHAR ? 1 : f.size() / f.count();
      assertThat(f.offset() % align).isZero();
      assertThat(f.offset()).isGreaterThanOrEqualTo(end).isLessThan(end + align);
      end = f.offset() + f.size();
      maxAlign = Math.max(maxAlign, align);
    }
    assertThat(l.size()).isGreaterThanOrEqualTo(end).isLessThan(end + maxAlign);
    assertThat(l.size() % maxAlign).isZero();
  }
}
