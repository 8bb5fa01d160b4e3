package dev.hipsim.hip.abi;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.zip.CRC32;

/**
 * The HIP runtime's exported C ABI, read from {@code hip-api.tsv} and {@code hip-types.tsv}. The same table drives
 * the generated C stubs (at build time) and the Java dispatch (at run time); function ids are line order, and
 * {@link #hash()} lets the native library check at start-up that it was generated from the same table.
 */
public final class ApiTable {
  public static final String API_RESOURCE = "hip-api.tsv";
  public static final String TYPES_RESOURCE = "hip-types.tsv";

  private final List<ApiFunction> functions;
  private final Map<String, ApiFunction> bySymbol;
  private final TypeTable types;
  private final long hash;

  private ApiTable(List<ApiFunction> functions, TypeTable types, long hash) {
    this.functions = List.copyOf(functions);
    this.types = types;
    this.hash = hash;
    Map<String, ApiFunction> m = new HashMap<>();
    for (ApiFunction f : functions) m.put(f.symbol(), f);
    this.bySymbol = Map.copyOf(m);
  }

  private static volatile ApiTable standard;

  /** The table shipped with hipsim (class-path resources next to this class). */
  public static ApiTable standard() {
    ApiTable t = standard;
    if (t == null) {
      try {
        t = parse(read(API_RESOURCE), read(TYPES_RESOURCE));
      } catch (AbiFormatException | IOException e) {
        throw new IllegalStateException("hipsim's own API table is broken: " + e.getMessage(), e);
      }
      standard = t;
    }
    return t;
  }

  private static byte[] read(String resource) throws IOException {
    try (InputStream in = ApiTable.class.getResourceAsStream(resource)) {
      if (in == null) throw new IOException("resource " + resource + " missing from the class path");
      return in.readAllBytes();
    }
  }

  /** Parses the two tables (contents of hip-api.tsv and hip-types.tsv). */
  public static ApiTable parse(byte[] api, byte[] typeTable) throws AbiFormatException {
    TypeTable types = TypeTable.parse(TYPES_RESOURCE, lines(typeTable));
    List<String> lines = lines(api);
    List<ApiFunction> out = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isBlank() || line.startsWith("#")) continue;
      String where = API_RESOURCE + ":" + (i + 1);
      String[] f = line.split("\t", -1);
      if (f.length != 4) throw new AbiFormatException(where + ": expected 4 tab-separated columns, found " + f.length);
      if (!isSymbol(f[0])) throw new AbiFormatException(where + ": bad symbol '" + f[0] + "'");
      if (!isVersionNode(f[1])) throw new AbiFormatException(where + ": bad version node '" + f[1] + "'");
      Integer previous = seen.put(f[0], i + 1);
      if (previous != null) throw new AbiFormatException(where + ": " + f[0] + " already listed at line " + previous);
      CType ret = types.resolve(f[2]);
      if (ret == null) throw new AbiFormatException(where + ": unknown return type '" + f[2] + "'");
      List<Param> params = new ArrayList<>();
      int slot = 0;
      if (!f[3].isBlank()) {
        for (String decl : parameters(f[3])) {
          int space = decl.lastIndexOf(' ');
          if (space <= 0) throw new AbiFormatException(where + ": parameter '" + decl + "' needs a type and a name");
          String name = decl.substring(space + 1);
          if (!isSymbol(name)) throw new AbiFormatException(where + ": bad parameter name '" + name + "'");
          CType type = types.resolve(decl.substring(0, space));
          if (type == null || type.isVoid()) {
            throw new AbiFormatException(where + ": unknown parameter type '" + decl.substring(0, space) + "'");
          }
          params.add(new Param(name, type, slot));
          slot += type.slotCount();
        }
      }
      out.add(new ApiFunction(out.size(), f[0], f[1], ret, params, i + 1));
    }
    return new ApiTable(out, types, hashOf(api, typeTable));
  }

  /**
   * A C identifier: [A-Za-z_][A-Za-z0-9_]*. Checked by hand, as is {@link #isVersionNode}: every program parses this
   * table as its JVM starts, where regular expressions are slow to compile and to match.
   */
  static boolean isSymbol(String s) {
    if (s.isEmpty()) return false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
      if (!letter && (i == 0 || c < '0' || c > '9')) return false;
    }
    return true;
  }

  /** hip_MAJOR.MINOR, both decimal. */
  static boolean isVersionNode(String s) {
    if (!s.startsWith("hip_")) return false;
    int dot = s.indexOf('.', 4);
    return dot > 4 && dot < s.length() - 1 && digits(s, 4, dot) && digits(s, dot + 1, s.length());
  }

  private static boolean digits(String s, int from, int to) {
    for (int i = from; i < to; i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') return false;
    }
    return true;
  }

  /**
   * The declarations of a parameter list, split at ", " (by hand: String.split compiles a regular expression for a
   * two-character separator, once per call, and this runs once per function as every program starts).
   */
  private static List<String> parameters(String list) {
    List<String> out = new ArrayList<>();
    int from = 0;
    for (int at = list.indexOf(", "); at >= 0; at = list.indexOf(", ", from)) {
      out.add(list.substring(from, at));
      from = at + 2;
    }
    out.add(list.substring(from));
    return out;
  }

  private static List<String> lines(byte[] text) {
    return List.of(new String(text, StandardCharsets.UTF_8).split("\n", -1));
  }

  private static long hashOf(byte[] api, byte[] typeTable) {
    CRC32 a = new CRC32();
    a.update(api);
    CRC32 b = new CRC32();
    b.update(typeTable);
    return a.getValue() << 32 | b.getValue();
  }

  public List<ApiFunction> functions() {
    return functions;
  }

  public ApiFunction function(int id) {
    return functions.get(id);
  }

  public Optional<ApiFunction> find(String symbol) {
    return Optional.ofNullable(bySymbol.get(symbol));
  }

  public TypeTable types() {
    return types;
  }

  /** Fingerprint of the two table files; the generated C embeds it and checks it at start-up. */
  public long hash() {
    return hash;
  }

  /** The version nodes in order (hip_4.2 first); each inherits from the one before it. */
  public List<String> versionNodes() {
    TreeSet<String> nodes = new TreeSet<>(Comparator.comparingInt(ApiTable::major).thenComparingInt(ApiTable::minor));
    for (ApiFunction f : functions) nodes.add(f.versionNode());
    return List.copyOf(nodes);
  }

  /** MAJOR of a version node hip_MAJOR.MINOR, which {@link #isVersionNode} has checked. */
  private static int major(String node) {
    return Integer.parseInt(node.substring(4, node.indexOf('.')));
  }

  private static int minor(String node) {
    return Integer.parseInt(node.substring(node.indexOf('.') + 1));
  }
}
