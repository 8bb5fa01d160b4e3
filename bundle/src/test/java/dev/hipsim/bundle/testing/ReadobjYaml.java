package dev.hipsim.bundle.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The AMDGPU metadata YAML that {@code llvm-readobj --notes} prints, parsed into maps, lists and string scalars.
 * Handles the block style LLVM's YAML writer produces: nested maps, {@code - } sequences, plain and quoted scalars.
 */
public final class ReadobjYaml {
  private final List<String> lines;
  private int at;

  private ReadobjYaml(List<String> lines) {
    this.lines = lines;
  }

  /** The metadata document of a recorded {@code .notes.txt}: the text between {@code ---} and {@code ...}. */
  public static Map<String, Object> metadataOf(Path notes) {
    try {
      List<String> all = Files.readAllLines(notes);
      List<String> doc = new ArrayList<>();
      boolean in = false;
      for (String line : all) {
        if (!in && line.trim().endsWith("AMDGPU Metadata: ---")) {
          in = true;
          continue;
        }
        if (in && line.equals("...")) break;
        if (in) doc.add(line);
      }
      if (!in) throw new IllegalStateException("no AMDGPU metadata in " + notes);
      return parse(doc);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @SuppressWarnings("unchecked")
  public static Map<String, Object> parse(List<String> lines) {
    ReadobjYaml y = new ReadobjYaml(lines);
    return (Map<String, Object>) y.node(0);
  }

  private static int indent(String line) {
    int i = 0;
    while (i < line.length() && line.charAt(i) == ' ') i++;
    return i;
  }

  private Object node(int indent) {
    String line = lines.get(at);
    if (line.substring(indent).startsWith("- ")) return sequence(indent);
    return map(indent);
  }

  private List<Object> sequence(int indent) {
    List<Object> out = new ArrayList<>();
    while (at < lines.size() && indent(lines.get(at)) == indent && lines.get(at).substring(indent).startsWith("- ")) {
      String rest = lines.get(at).substring(indent + 2);
      if (keyEnd(rest) < 0) {
        out.add(scalar(rest.trim()));
        at++;
      } else {
        // A map item: treat the "- " as indentation for its first line.
        lines.set(at, " ".repeat(indent + 2) + rest);
        out.add(map(indent + 2));
      }
    }
    return out;
  }

  private Map<String, Object> map(int indent) {
    Map<String, Object> out = new LinkedHashMap<>();
    while (at < lines.size()) {
      String line = lines.get(at);
      if (line.isBlank()) {
        at++;
        continue;
      }
      int i = indent(line);
      if (i != indent || line.substring(i).startsWith("- ")) break;
      String body = line.substring(i);
      int colon = keyEnd(body);
      if (colon < 0) throw new IllegalStateException("not a key: " + line);
      String key = body.substring(0, colon);
      String value = body.substring(colon + 1).trim();
      at++;
      if (value.isEmpty()) {
        int child = indent(lines.get(at));
        boolean seq = lines.get(at).substring(child).startsWith("- ");
        if (child < indent || child == indent && !seq) throw new IllegalStateException("empty value: " + line);
        out.put(unquote(key), node(child));
      } else {
        out.put(unquote(key), scalar(value));
      }
    }
    return out;
  }

  /** The colon ending a mapping key (outside quotes, followed by a space or the end), or -1. */
  private static int keyEnd(String s) {
    if (s.startsWith("'") || s.startsWith("\"")) {
      int close = s.indexOf(s.charAt(0), 1);
      return close > 0 && close + 1 < s.length() && s.charAt(close + 1) == ':' ? close + 1 : -1;
    }
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) == ':' && (i + 1 == s.length() || s.charAt(i + 1) == ' ')) return i;
    }
    return -1;
  }

  private static Object scalar(String text) {
    if (text.startsWith("[") && text.endsWith("]")) {
      List<Object> items = new ArrayList<>();
      String inner = text.substring(1, text.length() - 1).trim();
      if (!inner.isEmpty()) for (String p : inner.split(",")) items.add(unquote(p.trim()));
      return items;
    }
    return unquote(text);
  }

  static String unquote(String s) {
    if (s.length() >= 2 && s.startsWith("'") && s.endsWith("'")) {
      return s.substring(1, s.length() - 1).replace("''", "'");
    }
    if (s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"")) {
      StringBuilder out = new StringBuilder();
      for (int i = 1; i < s.length() - 1; i++) {
        char c = s.charAt(i);
        if (c != '\\') {
          out.append(c);
          continue;
        }
        char e = s.charAt(++i);
        switch (e) {
          case 'n': out.append('\n'); break;
          case 't': out.append('\t'); break;
          case 'r': out.append('\r'); break;
          case '0': out.append('\0'); break;
          case 'x':
            out.append((char) Integer.parseInt(s.substring(i + 1, i + 3), 16));
            i += 2;
            break;
          default: out.append(e);
        }
      }
      return out.toString();
    }
    return s;
  }
}
