package dev.hipsim.bundle.metadata;

import java.util.List;
import java.util.Map;

/** A decoded MessagePack value (the metadata is small; a tree keeps the typed mapping simple). */
sealed interface MsgNode {
  record Nil() implements MsgNode {}

  record Bool(boolean value) implements MsgNode {}

  record Int(long value) implements MsgNode {}

  record Float(double value) implements MsgNode {}

  record Str(String value) implements MsgNode {}

  record Bin(byte[] value) implements MsgNode {}

  record Arr(List<MsgNode> items) implements MsgNode {}

  /** A map with string keys, in file order. */
  record Obj(Map<String, MsgNode> fields) implements MsgNode {}

  /** How the value reads in YAML (as llvm-readobj prints it), for fields this decoder keeps as text. */
  default String display() {
    if (this instanceof Str s) return s.value();
    if (this instanceof Int i) return Long.toString(i.value());
    if (this instanceof Bool b) return Boolean.toString(b.value());
    if (this instanceof Float f) return Double.toString(f.value());
    if (this instanceof Nil) return "~";
    if (this instanceof Bin b) return "<" + b.value().length + " bytes>";
    if (this instanceof Arr a) {
      StringBuilder s = new StringBuilder("[");
      for (MsgNode n : a.items()) s.append(s.length() > 1 ? ", " : "").append(n.display());
      return s.append(']').toString();
    }
    StringBuilder s = new StringBuilder("{");
    for (Map.Entry<String, MsgNode> e : ((Obj) this).fields().entrySet()) {
      s.append(s.length() > 1 ? ", " : "").append(e.getKey()).append(": ").append(e.getValue().display());
    }
    return s.append('}').toString();
  }
}
