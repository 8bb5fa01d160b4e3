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
 *
 * <p>{@link #parse} reads and checks every line. {@link #standard()}, the table every program's runtime starts
 * with, indexes the functions by symbol and parses each one the first time it is asked for: a program calls a few
 * dozen of the 562 functions and its runtime registers 151, and parsing the rest cost 15-20 ms of each program's
 * start in the JVM's bytecode interpreter. The build parses the same table whole to generate the native stubs, and
 * the tests check it.
 */
public final class ApiTable {
  public static final String API_RESOURCE = "hip-api.tsv";
  public static final String TYPES_RESOURCE = "hip-types.tsv";

  private final TypeTable types;
  private final long hash;
  /** Each function's line of hip-api.tsv, by id, and the line's number. */
  private final String[] lines;
  private final int[] lineNumbers;
  private final String[] symbols;
  private final Map<String, Integer> idBySymbol;
  /**
   * The functions parsed so far, by id. Racing threads may both parse a function; the two are equal, and a record's
   * final fields make either one safe to publish without a lock.
   */
  private final ApiFunction[] parsed;

  private ApiTable(TypeTable types, long hash, String[] lines, int[] lineNumbers, String[] symbols,
      Map<String, Integer> idBySymbol) {
    this.types = types;
    this.hash = hash;
    this.lines = lines;
    this.lineNumbers = lineNumbers;
    this.symbols = symbols;
    this.idBySymbol = idBySymbol;
    this.parsed = new ApiFunction[lines.length];
  }

  private static volatile ApiTable standard;

  /** The table shipped with hipsim (class-path resources next to this class), its functions parsed on first use. */
  public static ApiTable standard() {
    ApiTable t = standard;
    if (t == null) {
      try {
        t = index(read(API_RESOURCE), read(TYPES_RESOURCE));
      } catch (AbiFormatException | IOException e) {
        throw broken(e);
      }
      standard = t;
    }
    return t;
  }

  /** The table shipped with hipsim, every line read and checked now (the build generates the native stubs from it). */
  public static ApiTable standardChecked() throws IOException, AbiFormatException {
    return parse(read(API_RESOURCE), read(TYPES_RESOURCE));
  }

  /** The two tables indexed, their functions parsed on first use, as {@link #standard()} reads its own. */
  static ApiTable indexed(byte[] api, byte[] typeTable) throws AbiFormatException {
    return index(api, typeTable);
  }

  private static IllegalStateException broken(Exception e) {
    return new IllegalStateException("hipsim's own API table is broken: " + e.getMessage(), e);
  }

  private static byte[] read(String resource) throws IOException {
    try (InputStream in = ApiTable.class.getResourceAsStream(resource)) {
      if (in == null) throw new IOException("resource " + resource + " missing from the class path");
      return in.readAllBytes();
    }
  }

  /** Parses the two tables (contents of hip-api.tsv and hip-types.tsv), checking every function. */
  public static ApiTable parse(byte[] api, byte[] typeTable) throws AbiFormatException {
    ApiTable table = index(api, typeTable);
    for (int id = 0; id < table.lines.length; id++) table.parsed[id] = table.parseFunction(id);
    return table;
  }

  /**
   * The table with its functions found and numbered, each checked for a symbol seen only once, and parsed later
   * ({@link #function}).
   */
  private static ApiTable index(byte[] api, byte[] typeTable) throws AbiFormatException {
    TypeTable types = TypeTable.parse(TYPES_RESOURCE, lines(typeTable));
    List<String> all = lines(api);
    List<String> lines = new ArrayList<>();
    List<Integer> numbers = new ArrayList<>();
    List<String> symbols = new ArrayList<>();
    Map<String, Integer> idBySymbol = new HashMap<>();
    for (int i = 0; i < all.size(); i++) {
      String line = all.get(i);
      if (line.isBlank() || line.startsWith("#")) continue;
      int tab = line.indexOf('\t');
      String symbol = tab < 0 ? line : line.substring(0, tab);
      Integer previous = idBySymbol.put(symbol, lines.size());
      if (previous != null) {
        throw new AbiFormatException(API_RESOURCE + ":" + (i + 1) + ": " + symbol + " already listed at line "
            + numbers.get(previous));
      }
      lines.add(line);
      numbers.add(i + 1);
      symbols.add(symbol);
    }
    int[] lineNumbers = new int[numbers.size()];
    for (int k = 0; k < lineNumbers.length; k++) lineNumbers[k] = numbers.get(k);
    return new ApiTable(types, hashOf(api, typeTable), lines.toArray(new String[0]), lineNumbers,
        symbols.toArray(new String[0]), idBySymbol);
  }

  /** Function {@code id} from its line. */
  private ApiFunction parseFunction(int id) throws AbiFormatException {
    String line = lines[id];
    String where = API_RESOURCE + ":" + lineNumbers[id];
    String[] f = line.split("\t", -1);
    if (f.length != 4) throw new AbiFormatException(where + ": expected 4 tab-separated columns, found " + f.length);
    if (!isSymbol(f[0])) throw new AbiFormatException(where + ": bad symbol '" + f[0] + "'");
    if (!isVersionNode(f[1])) throw new AbiFormatException(where + ": bad version node '" + f[1] + "'");
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
    return new ApiFunction(id, f[0], f[1], ret, params, lineNumbers[id]);
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

  /** Every function, in id order (parses those not parsed yet). */
  public List<ApiFunction> functions() {
    List<ApiFunction> out = new ArrayList<>(lines.length);
    for (int id = 0; id < lines.length; id++) out.add(function(id));
    return List.copyOf(out);
  }

  /** The number of functions: ids run from 0 to this, less one. */
  public int size() {
    return lines.length;
  }

  /** The exported symbol of function {@code id}, without parsing its line. */
  public String symbol(int id) {
    return symbols[id];
  }

  public ApiFunction function(int id) {
    ApiFunction f = parsed[id];
    if (f == null) {
      try {
        f = parseFunction(id);
      } catch (AbiFormatException e) {
        throw broken(e);
      }
      parsed[id] = f;
    }
    return f;
  }

  public Optional<ApiFunction> find(String symbol) {
    Integer id = idBySymbol.get(symbol);
    return id == null ? Optional.empty() : Optional.of(function(id));
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
    for (ApiFunction f : functions()) nodes.add(f.versionNode());
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
