package dev.hipsim.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A strict JSON parser for the tests (objects keep key order; numbers become Long). */
final class Json {
  private final String s;
  private int at;

  private Json(String s) {
    this.s = s;
  }

  static Object parse(String text) {
    Json j = new Json(text);
    Object v = j.value();
    j.space();
    if (j.at != text.length()) throw new IllegalArgumentException("trailing text at " + j.at);
    return v;
  }

  private void space() {
    while (at < s.length() && Character.isWhitespace(s.charAt(at))) at++;
  }

  private Object value() {
    space();
    char c = s.charAt(at);
    if (c == '{') return object();
    if (c == '[') return array();
    if (c == '"') return string();
    if (s.startsWith("null", at)) {
      at += 4;
      return null;
    }
    if (s.startsWith("true", at)) {
      at += 4;
      return true;
    }
    if (s.startsWith("false", at)) {
      at += 5;
      return false;
    }
    int start = at;
    if (c == '-') at++;
    while (at < s.length() && Character.isDigit(s.charAt(at))) at++;
    if (start == at) throw new IllegalArgumentException("unexpected '" + c + "' at " + at);
    return Long.parseLong(s.substring(start, at));
  }

  private Map<String, Object> object() {
    Map<String, Object> out = new LinkedHashMap<>();
    at++;
    space();
    if (s.charAt(at) == '}') {
      at++;
      return out;
    }
    while (true) {
      space();
      String key = string();
      space();
      expect(':');
      if (out.put(key, value()) != null) throw new IllegalArgumentException("duplicate key " + key);
      space();
      if (s.charAt(at) == '}') {
        at++;
        return out;
      }
      expect(',');
    }
  }

  private List<Object> array() {
    List<Object> out = new ArrayList<>();
    at++;
    space();
    if (s.charAt(at) == ']') {
      at++;
      return out;
    }
    while (true) {
      out.add(value());
      space();
      if (s.charAt(at) == ']') {
        at++;
        return out;
      }
      expect(',');
    }
  }

  private String string() {
    expect('"');
    StringBuilder b = new StringBuilder();
    while (true) {
      char c = s.charAt(at++);
      if (c == '"') return b.toString();
      if (c != '\\') {
        if (c < 0x20) throw new IllegalArgumentException("control character in string at " + at);
        b.append(c);
        continue;
      }
      char e = s.charAt(at++);
      switch (e) {
        case 'n' -> b.append('\n');
        case 't' -> b.append('\t');
        case 'r' -> b.append('\r');
        case 'u' -> {
          b.append((char) Integer.parseInt(s.substring(at, at + 4), 16));
          at += 4;
        }
        default -> b.append(e);
      }
    }
  }

  private void expect(char c) {
    if (at >= s.length() || s.charAt(at) != c) throw new IllegalArgumentException("expected '" + c + "' at " + at);
    at++;
  }
}
