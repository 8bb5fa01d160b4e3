package dev.hipsim.hip.abi;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The ABI class of every type that appears by value in the API table (hip-types.tsv). */
public final class TypeTable {
  private final Map<String, CType> byName;

  private TypeTable(Map<String, CType> byName) {
    this.byName = Map.copyOf(byName);
  }

  static TypeTable parse(String source, List<String> lines) throws AbiFormatException {
    Map<String, CType> types = new HashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isBlank() || line.startsWith("#")) continue;
      String where = source + ":" + (i + 1);
      String[] f = line.split("\t", -1);
      if (f.length < 2) throw new AbiFormatException(where + ": expected 'type<TAB>kind'");
      AbiKind kind;
      try {
        kind = AbiKind.parse(f[1]);
      } catch (AbiFormatException e) {
        throw new AbiFormatException(where + ": " + e.getMessage());
      }
      CType type;
      if (kind == AbiKind.STRUCT) {
        if (f.length != 4) throw new AbiFormatException(where + ": a struct needs size and alignment");
        try {
          type = new CType(f[0], kind, Integer.parseInt(f[2]), Integer.parseInt(f[3]));
        } catch (IllegalArgumentException e) {
          throw new AbiFormatException(where + ": " + e.getMessage());
        }
      } else {
        type = CType.scalar(f[0], kind);
      }
      if (types.put(f[0], type) != null) throw new AbiFormatException(where + ": type " + f[0] + " listed twice");
    }
    return new TypeTable(types);
  }

  /** Resolves a spelling such as {@code const hipStream_t} or {@code void**}; null if the type is unknown. */
  public CType resolve(String spelling) {
    String s = spelling.trim();
    if (s.endsWith("*")) return CType.scalar(s, AbiKind.PTR);
    CType base = byName.get(s.replace("const ", "").trim());
    if (base == null) return null;
    return new CType(s, base.kind(), base.size(), base.alignment());
  }

  /** The struct types, for the generated typedefs. */
  public List<CType> structs() {
    return byName.values().stream().filter(CType::isStruct)
        .sorted((a, b) -> a.spelling().compareTo(b.spelling())).toList();
  }
}
