package dev.hipsim.hip.device;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A C struct laid out the way GCC and Clang lay it out on x86-64 (natural alignment, fields in declaration order),
 * from a list of fields; writes named values into a buffer at the computed offsets. Lets us describe each ROCm
 * version of a struct by copying its field list from the header instead of hand-computing offsets.
 */
public final class StructLayout {
  /** The field types that occur in HIP's property structs. */
  public enum FieldType {
    INT(4), UINT(4), SIZE_T(8), POINTER(8), CHAR(1), BITFIELD32(4);

    final int size;

    FieldType(int size) {
      this.size = size;
    }
  }

  /** One field: {@code count} elements of {@code type} (count > 1 for arrays). */
  public record Field(String name, FieldType type, int count, int offset) {
    public int size() {
      return type.size * count;
    }
  }

  private final String name;
  private final Map<String, Field> fields;
  private final int size;

  private StructLayout(String name, Map<String, Field> fields, int size) {
    this.name = name;
    this.fields = fields;
    this.size = size;
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  public String name() {
    return name;
  }

  /** sizeof the struct. */
  public int size() {
    return size;
  }

  public List<Field> fields() {
    return List.copyOf(fields.values());
  }

  public Field field(String fieldName) {
    Field f = fields.get(fieldName);
    if (f == null) throw new IllegalArgumentException(name + " has no field " + fieldName);
    return f;
  }

  public boolean has(String fieldName) {
    return fields.containsKey(fieldName);
  }

  /**
   * Zeroes {@code size()} bytes at the buffer's position 0 and writes every value whose name is a field of this
   * struct: Integer/Long for scalars, int[] for int arrays, String for char arrays (NUL-terminated, truncated to fit),
   * byte[] for raw char arrays. Values for fields this version of the struct lacks are skipped.
   */
  public void write(ByteBuffer out, Map<String, Object> values) {
    for (int i = 0; i < size; i++) out.put(i, (byte) 0);
    for (Map.Entry<String, Object> e : values.entrySet()) {
      Field f = fields.get(e.getKey());
      if (f != null) put(out, f, e.getValue());
    }
  }

  private void put(ByteBuffer out, Field f, Object v) {
    int o = f.offset;
    switch (f.type) {
      case CHAR -> {
        byte[] bytes = v instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : (byte[]) v;
        int n = Math.min(bytes.length, v instanceof String ? f.count - 1 : f.count);
        for (int i = 0; i < n; i++) out.put(o + i, bytes[i]);
      }
      case INT, UINT, BITFIELD32 -> {
        if (v instanceof int[] a) {
          if (a.length != f.count) throw new IllegalArgumentException(name + "." + f.name + " has " + f.count + " elements, not " + a.length);
          for (int i = 0; i < a.length; i++) out.putInt(o + 4 * i, a[i]);
        } else {
          out.putInt(o, ((Number) v).intValue());
        }
      }
      case SIZE_T, POINTER -> out.putLong(o, ((Number) v).longValue());
    }
  }

  /** Declares fields in order, computing offsets. */
  public static final class Builder {
    private final String name;
    private final Map<String, Field> fields = new LinkedHashMap<>();
    private int offset;
    private int maxAlign = 1;

    private Builder(String name) {
      this.name = name;
    }

    public Builder add(String fieldName, FieldType type) {
      return add(fieldName, type, 1);
    }

    public Builder add(String fieldName, FieldType type, int count) {
      int align = type.size;
      offset = (offset + align - 1) / align * align;
      if (fields.put(fieldName, new Field(fieldName, type, count, offset)) != null) {
        throw new IllegalArgumentException(name + "." + fieldName + " declared twice");
      }
      offset += type.size * count;
      maxAlign = Math.max(maxAlign, align);
      return this;
    }

    public Builder chars(String fieldName, int count) {
      return add(fieldName, FieldType.CHAR, count);
    }

    public Builder ints(String... names) {
      for (String n : names) add(n, FieldType.INT);
      return this;
    }

    public Builder sizes(String... names) {
      for (String n : names) add(n, FieldType.SIZE_T);
      return this;
    }

    public StructLayout build() {
      int size = (offset + maxAlign - 1) / maxAlign * maxAlign;
      return new StructLayout(name, java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fields)), size);
    }
  }
}
