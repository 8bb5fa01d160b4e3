package dev.hipsim.cli;

import java.io.PrintWriter;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A small streaming JSON writer (two-space indentation, keys in the order written), so that inspecting a library
 * with thousands of code objects never holds its whole report in memory.
 */
final class JsonWriter {
  private final PrintWriter out;
  /** For each open container: whether it has a first element yet. */
  private final Deque<boolean[]> open = new ArrayDeque<>();
  private boolean afterName;

  JsonWriter(PrintWriter out) {
    this.out = out;
  }

  JsonWriter beginObject() {
    prefix();
    out.print('{');
    open.push(new boolean[1]);
    return this;
  }

  JsonWriter endObject() {
    close('}');
    return this;
  }

  JsonWriter beginArray() {
    prefix();
    out.print('[');
    open.push(new boolean[1]);
    return this;
  }

  JsonWriter endArray() {
    close(']');
    return this;
  }

  JsonWriter name(String name) {
    prefix();
    quote(name);
    out.print(": ");
    afterName = true;
    return this;
  }

  JsonWriter value(String s) {
    prefix();
    if (s == null) out.print("null");
    else quote(s);
    return this;
  }

  JsonWriter value(long v) {
    prefix();
    out.print(v);
    return this;
  }

  JsonWriter value(boolean v) {
    prefix();
    out.print(v);
    return this;
  }

  JsonWriter nullValue() {
    prefix();
    out.print("null");
    return this;
  }

  JsonWriter field(String name, String v) {
    return name(name).value(v);
  }

  JsonWriter field(String name, long v) {
    return name(name).value(v);
  }

  JsonWriter field(String name, boolean v) {
    return name(name).value(v);
  }

  /** Ends the document with a newline. */
  void finish() {
    out.println();
    out.flush();
  }

  private void prefix() {
    if (afterName) {
      afterName = false;
      return;
    }
    if (open.isEmpty()) return;
    boolean[] first = open.peek();
    if (first[0]) out.print(',');
    first[0] = true;
    newline(open.size());
  }

  private void close(char c) {
    boolean[] first = open.pop();
    if (first[0]) newline(open.size());
    out.print(c);
  }

  private void newline(int depth) {
    out.print('\n');
    for (int i = 0; i < depth; i++) out.print("  ");
  }

  private void quote(String s) {
    out.print('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"': out.print("\\\""); break;
        case '\\': out.print("\\\\"); break;
        case '\n': out.print("\\n"); break;
        case '\r': out.print("\\r"); break;
        case '\t': out.print("\\t"); break;
        default:
          if (c < 0x20) out.printf("\\u%04x", (int) c);
          else out.print(c);
      }
    }
    out.print('"');
  }
}
