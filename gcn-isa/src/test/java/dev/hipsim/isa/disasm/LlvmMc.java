package dev.hipsim.isa.disasm;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * LLVM 22's {@code llvm-mc --disassemble} as an oracle for batches of instruction words.
 *
 * <p>llvm-mc reads its input as one byte stream, so a word it rejects can make it read the next bytes as a new
 * instruction. Each probe is therefore followed by {@code s_nop 5; s_nop 5; s_nop 6}: whatever the probe's tail
 * decodes to (12 bytes at most), the {@code s_nop 6} lines split the output back into probes. llvm-mc crashes on a few garbage encodings (MFMA with
 * constants, VOP3 with a literal); a batch that crashes is split until the culprit is isolated and reported as
 * {@link Result#crashed()}.
 */
final class LlvmMc {
  static final Path MC = Paths.get("/usr/lib/llvm-22/bin/llvm-mc");
  private static final int SEP_A = 0xBF800005;
  private static final int SEP_B = 0xBF800006;
  private static final Pattern WARNING =
      Pattern.compile("<stdin>:(\\d+):(\\d+): warning: invalid instruction encoding");

  /** What llvm-mc made of a probe: its text, or invalid, or a crash; and whether it used exactly the probe words. */
  record Result(String text, boolean invalid, boolean crashed, int bytes) {}

  private LlvmMc() {}

  static boolean available() {
    return Files.isExecutable(MC);
  }

  static List<Result> disassemble(String cpu, List<int[]> probes) throws IOException, InterruptedException {
    List<Result> out = new ArrayList<>(probes.size());
    for (int i = 0; i < probes.size(); i += 4000) {
      out.addAll(split(cpu, probes.subList(i, Math.min(probes.size(), i + 4000))));
    }
    return out;
  }

  private static List<Result> split(String cpu, List<int[]> probes) throws IOException, InterruptedException {
    List<Result> r = run(cpu, probes);
    if (r != null) return r;
    if (probes.size() == 1) return List.of(new Result(null, false, true, 0));
    int h = probes.size() / 2;
    List<Result> out = new ArrayList<>(split(cpu, probes.subList(0, h)));
    out.addAll(split(cpu, probes.subList(h, probes.size())));
    return out;
  }

  private static List<Result> run(String cpu, List<int[]> probes) throws IOException, InterruptedException {
    StringBuilder in = new StringBuilder(probes.size() * 64);
    for (int[] words : probes) {
      for (int w : words) appendWord(in, w);
      appendWord(in, SEP_A);
      appendWord(in, SEP_A);
      appendWord(in, SEP_B);
      in.setLength(in.length() - 1);
      in.append('\n');
    }
    Process p = new ProcessBuilder(MC.toString(), "--disassemble", "-triple=amdgcn-amd-amdhsa", "-mcpu=" + cpu)
        .start();
    byte[] input = in.toString().getBytes(StandardCharsets.US_ASCII);
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    Thread errReader = drain(p.getErrorStream(), stderr);
    Thread outReader = drain(p.getInputStream(), stdout);
    try (OutputStream os = p.getOutputStream()) {
      os.write(input);
    }
    outReader.join();
    errReader.join();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return null;
    }
    if (p.exitValue() != 0) return null;
    Map<Integer, Set<Integer>> bad = new HashMap<>();
    Matcher m = WARNING.matcher(stderr.toString(StandardCharsets.UTF_8));
    while (m.find()) {
      bad.computeIfAbsent(Integer.parseInt(m.group(1)) - 1, k -> new HashSet<>())
          .add((Integer.parseInt(m.group(2)) - 1) / 5);
    }
    List<List<String>> chunks = new ArrayList<>();
    List<String> cur = new ArrayList<>();
    for (String line : stdout.toString(StandardCharsets.UTF_8).split("\n")) {
      String t = line.trim();
      if (t.isEmpty() || t.startsWith(".amdgcn_target")) continue;
      if (t.equals("s_nop 6")) {
        chunks.add(cur);
        cur = new ArrayList<>();
      } else {
        cur.add(t);
      }
    }
    if (chunks.size() != probes.size()) return null;
    List<Result> out = new ArrayList<>(probes.size());
    for (int i = 0; i < probes.size(); i++) {
      Set<Integer> b = bad.getOrDefault(i, Set.of());
      List<String> ch = chunks.get(i);
      int n = probes.get(i).length * 4;
      int pads = 0;
      while (pads < ch.size() && ch.get(ch.size() - 1 - pads).equals("s_nop 5")) pads++;
      if (b.contains(0) || ch.isEmpty()) {
        out.add(new Result(null, true, false, 4));
      } else if (ch.size() == 3 && pads == 2 && b.isEmpty()) {
        out.add(new Result(ch.get(0), false, false, n));
      } else if (ch.size() == 2 && pads == 1 && b.isEmpty()) {
        out.add(new Result(ch.get(0), false, false, n + 4));
      } else {
        out.add(new Result(ch.get(0), false, false, -1));
      }
    }
    return out;
  }

  private static void appendWord(StringBuilder sb, int w) {
    for (int i = 0; i < 4; i++) {
      sb.append("0x");
      int b = (w >>> (8 * i)) & 0xff;
      sb.append(Character.forDigit(b >>> 4, 16)).append(Character.forDigit(b & 0xf, 16)).append(' ');
    }
  }

  private static Thread drain(InputStream in, ByteArrayOutputStream out) {
    Thread t = new Thread(() -> {
      try {
        in.transferTo(out);
      } catch (IOException e) {
        // the process died; the caller sees the exit status
      }
    });
    t.setDaemon(true);
    t.start();
    return t;
  }

  /** Removes the inline comments LLVM adds to invalid operands and normalises spacing. */
  static String normalize(String text) {
    return text.replaceAll("/\\*.*?\\*/", "").trim().replaceAll("\\s+", " ");
  }
}
