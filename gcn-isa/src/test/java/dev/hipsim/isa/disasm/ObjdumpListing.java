package dev.hipsim.isa.disasm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The instructions of an {@code llvm-objdump -d} listing of an AMDGPU code object. */
final class ObjdumpListing {
  /** One instruction line: address, encoding dwords and the instruction text with spacing normalised. */
  record Line(long address, int[] words, String text) {}

  private static final Pattern INSTRUCTION =
      Pattern.compile("^\\s+(.*?)\\s*//\\s*([0-9A-Fa-f]+):((?:\\s+[0-9A-Fa-f]{8})+)");

  private ObjdumpListing() {}

  static List<Line> read(Path path) throws IOException {
    return parse(Files.readAllLines(path));
  }

  static List<Line> parse(List<String> lines) {
    List<Line> out = new ArrayList<>();
    for (String line : lines) {
      if (!line.startsWith("\t") && !line.startsWith(" ")) continue;
      Matcher m = INSTRUCTION.matcher(line);
      if (!m.find()) continue;
      String[] hex = m.group(3).trim().split("\\s+");
      int[] words = new int[hex.length];
      for (int i = 0; i < hex.length; i++) words[i] = (int) Long.parseLong(hex[i], 16);
      out.add(new Line(Long.parseLong(m.group(2), 16), words, normalize(m.group(1))));
    }
    return out;
  }

  /** Collapses runs of whitespace: the text comparison ignores spacing. */
  static String normalize(String text) {
    return text.trim().replaceAll("\\s+", " ");
  }
}
