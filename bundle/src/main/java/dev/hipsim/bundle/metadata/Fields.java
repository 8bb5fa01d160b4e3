package dev.hipsim.bundle.metadata;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/** Typed access to one metadata map, naming the map and key in every error; remembers which keys were used. */
final class Fields {
  private final Map<String, MsgNode> map;
  private final String where;
  private final long fileOffset;
  private final Set<String> used = new HashSet<>();

  Fields(MsgNode node, String where, long fileOffset) throws MetadataFormatException {
    if (!(node instanceof MsgNode.Obj obj)) {
      throw new MetadataFormatException(fileOffset, where + " is " + kind(node) + ", expected a map");
    }
    this.map = obj.fields();
    this.where = where;
    this.fileOffset = fileOffset;
  }

  MetadataFormatException error(String key, String problem) {
    return new MetadataFormatException(fileOffset, where + ": " + key + " " + problem);
  }

  private Optional<MsgNode> get(String key) {
    used.add(key);
    return Optional.ofNullable(map.get(key));
  }

  private MsgNode require(String key) throws MetadataFormatException {
    MsgNode n = get(key).orElse(null);
    if (n == null) throw error(key, "is missing (it is required)");
    return n;
  }

  String string(String key) throws MetadataFormatException {
    return asString(key, require(key));
  }

  Optional<String> optionalString(String key) throws MetadataFormatException {
    Optional<MsgNode> n = get(key);
    return n.isEmpty() ? Optional.empty() : Optional.of(asString(key, n.get()));
  }

  long unsigned(String key) throws MetadataFormatException {
    return asUnsigned(key, require(key));
  }

  int smallUnsigned(String key) throws MetadataFormatException {
    return toInt(key, unsigned(key));
  }

  OptionalInt optionalSmallUnsigned(String key) throws MetadataFormatException {
    Optional<MsgNode> n = get(key);
    return n.isEmpty() ? OptionalInt.empty() : OptionalInt.of(toInt(key, asUnsigned(key, n.get())));
  }

  OptionalLong optionalUnsigned(String key) throws MetadataFormatException {
    Optional<MsgNode> n = get(key);
    return n.isEmpty() ? OptionalLong.empty() : OptionalLong.of(asUnsigned(key, n.get()));
  }

  Optional<Boolean> optionalBoolean(String key) throws MetadataFormatException {
    Optional<MsgNode> n = get(key);
    if (n.isEmpty()) return Optional.empty();
    if (n.get() instanceof MsgNode.Bool b) return Optional.of(b.value());
    throw error(key, "is " + kind(n.get()) + ", expected a boolean");
  }

  /** An array of small unsigned integers, of exactly {@code length} items when {@code length >= 0}. */
  Optional<List<Integer>> optionalIntegers(String key, int length) throws MetadataFormatException {
    Optional<MsgNode> n = get(key);
    if (n.isEmpty()) return Optional.empty();
    List<MsgNode> items = array(key, n.get());
    if (length >= 0 && items.size() != length) throw error(key, "has " + items.size() + " items, expected " + length);
    List<Integer> out = new ArrayList<>(items.size());
    for (MsgNode item : items) out.add(toInt(key, asUnsigned(key, item)));
    return Optional.of(Collections.unmodifiableList(out));
  }

  Optional<Dim3> optionalDim3(String key) throws MetadataFormatException {
    Optional<MsgNode> n = get(key);
    if (n.isEmpty()) return Optional.empty();
    List<MsgNode> items = array(key, n.get());
    if (items.size() != 3) throw error(key, "has " + items.size() + " items, expected 3");
    return Optional.of(new Dim3(asUnsigned(key, items.get(0)), asUnsigned(key, items.get(1)),
        asUnsigned(key, items.get(2))));
  }

  /** The array at {@code key}, or an empty list when absent. */
  List<MsgNode> optionalArray(String key) throws MetadataFormatException {
    Optional<MsgNode> n = get(key);
    return n.isEmpty() ? List.of() : array(key, n.get());
  }

  List<MsgNode> requiredArray(String key) throws MetadataFormatException {
    return array(key, require(key));
  }

  /** Keys not read so far, with their values as text (forward compatibility). */
  Map<String, String> rest() {
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, MsgNode> e : map.entrySet()) {
      if (!used.contains(e.getKey())) out.put(e.getKey(), e.getValue().display());
    }
    return Collections.unmodifiableMap(out);
  }

  private List<MsgNode> array(String key, MsgNode n) throws MetadataFormatException {
    if (n instanceof MsgNode.Arr a) return a.items();
    throw error(key, "is " + kind(n) + ", expected an array");
  }

  private String asString(String key, MsgNode n) throws MetadataFormatException {
    if (n instanceof MsgNode.Str s) return s.value();
    throw error(key, "is " + kind(n) + ", expected a string");
  }

  private long asUnsigned(String key, MsgNode n) throws MetadataFormatException {
    if (!(n instanceof MsgNode.Int i)) throw error(key, "is " + kind(n) + ", expected an integer");
    if (i.value() < 0) throw error(key, "is " + i.value() + ", expected a non-negative integer");
    return i.value();
  }

  private int toInt(String key, long v) throws MetadataFormatException {
    if (v > Integer.MAX_VALUE) throw error(key, "is " + v + ", too large");
    return (int) v;
  }

  static String kind(MsgNode n) {
    if (n instanceof MsgNode.Str) return "a string";
    if (n instanceof MsgNode.Int) return "an integer";
    if (n instanceof MsgNode.Bool) return "a boolean";
    if (n instanceof MsgNode.Arr) return "an array";
    if (n instanceof MsgNode.Obj) return "a map";
    if (n instanceof MsgNode.Nil) return "nil";
    if (n instanceof MsgNode.Float) return "a float";
    return "binary data";
  }
}
