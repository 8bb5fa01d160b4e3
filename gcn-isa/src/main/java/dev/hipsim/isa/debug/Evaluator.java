package dev.hipsim.isa.debug;

import dev.hipsim.isa.debug.symbols.SourceLine;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.fp.FpMode;
import dev.hipsim.isa.fp.Half;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The debugger's expression language and its inspection commands, shared by the console ({@code print},
 * {@code x}, {@code info}) and the Debug Adapter Protocol's {@code evaluate}. Expressions are registers and slices
 * ({@code s4}, {@code s[4:5]}, {@code v3}, {@code v3[5]} for lane 5, {@code v[2:3][5]}, {@code a0}, {@code exec},
 * {@code vcc}, {@code scc}, {@code m0}, {@code mode}, {@code status}, {@code trapsts}, {@code pc},
 * {@code flat_scratch}, {@code ttmp0}; an optional {@code $} prefix), numbers, and {@code + - *} with parentheses.
 * Addresses for {@code x} are {@code global:EXPR}, {@code lds:EXPR}, {@code private:EXPR} (the selected lane) or
 * {@code private@LANE:EXPR}; a bare address is generic (flat): the apertures say whether it is LDS or private.
 */
public final class Evaluator {
  private static final Pattern PRINT = Pattern.compile("(?:print|p)(?:/(\\w+))?(?:\\s+(.*))?", Pattern.DOTALL);
  private static final Pattern EXAMINE = Pattern.compile("x(?:/(\\d*)([a-z]*))?\\s+(.+)", Pattern.DOTALL);
  private static final Pattern SPACE = Pattern.compile("(global|lds|private)(?:@(\\d+))?:(.+)", Pattern.DOTALL);

  /** A memory address with its address space (and the lane, for private memory). */
  public record Address(AddressSpace space, long address, int lane) {
    @Override
    public String toString() {
      return space == AddressSpace.PRIVATE ? String.format("private@%d:0x%x", lane, address)
          : String.format("%s:0x%x", space.prefix(), address);
    }
  }

  private final DispatchView view;
  private final Wave wave;
  private final int lane;

  /**
   * @param wave the selected wave (registers, LDS and private memory are its), or null when no wave is selected
   * @param lane the selected lane (for {@code private:} addresses)
   */
  public Evaluator(DispatchView view, Wave wave, int lane) {
    this.view = view;
    this.wave = wave;
    this.lane = lane;
  }

  /** Runs {@code print EXPR}, {@code x/NFMT ADDRESS}, {@code info waves|registers [GROUP]}, or prints an expression. */
  public String run(String input) throws DebugException {
    String s = input.strip();
    if (s.isEmpty()) throw new DebugException("nothing to evaluate");
    Matcher m = EXAMINE.matcher(s);
    if (m.matches()) return examine(m.group(1), m.group(2), m.group(3).strip());
    if (s.equals("x") || s.startsWith("x/")) throw new DebugException("usage: x/NFMT ADDRESS (formats x d u f i, sizes b h w g)");
    m = PRINT.matcher(s);
    if (m.matches()) {
      if (m.group(2) == null || m.group(2).isBlank()) throw new DebugException("usage: print[/x|d|u|f] EXPR");
      return print(m.group(2).strip(), format(m.group(1)));
    }
    if (s.equals("info waves") || s.equals("i w") || s.equals("info wave")) return infoWaves();
    if (s.startsWith("info registers") || s.startsWith("info reg") || s.startsWith("i r")) {
      String rest = s.replaceFirst("^(info registers|info reg|i r)", "").strip();
      return infoRegisters(rest);
    }
    if (s.startsWith("disassemble") || s.startsWith("disas")) {
      String rest = s.replaceFirst("^(disassemble|disas)", "").strip();
      long pc = rest.isEmpty() ? wave().pc : scalar(rest, "an address");
      StringBuilder sb = new StringBuilder();
      for (Disassembly.Line l : Disassembly.around(view, pc, 8, 16)) {
        sb.append(Disassembly.format(l, wave == null ? -1 : wave.pc)).append('\n');
      }
      return sb.toString().stripTrailing();
    }
    return print(s, 'n');
  }

  private static char format(String f) throws DebugException {
    if (f == null || f.isEmpty()) return 'n';
    char c = f.charAt(0);
    if (f.length() != 1 || "xduf".indexOf(c) < 0) throw new DebugException("print formats are /x /d /u /f, not /" + f);
    return c;
  }

  // ---- expressions

  /** Evaluates {@code expr}. */
  Value value(String expr) throws DebugException {
    Parser p = new Parser(expr);
    Value v = p.sum();
    p.end();
    return v;
  }

  /** Evaluates an expression that must give one number. */
  public long scalar(String expr, String what) throws DebugException {
    Value v = value(expr);
    if (v instanceof Value.Scalar s) return s.value();
    throw new DebugException(expr + " has a value per lane; " + what + " needs one (pick a lane: " + expr + "[N])");
  }

  /** Parses an address with an optional address-space prefix; a bare address is generic (flat). */
  public Address address(String text) throws DebugException {
    Matcher m = SPACE.matcher(text.strip());
    if (m.matches()) {
      AddressSpace space = AddressSpace.valueOf(m.group(1).toUpperCase(Locale.ROOT));
      int l = m.group(2) != null ? Integer.parseInt(m.group(2)) : lane;
      if (l < 0 || l >= Wave.LANES) throw new DebugException("lane " + l + " is not 0-63");
      return new Address(space, scalar(m.group(3), "an address"), l);
    }
    long a = scalar(text, "an address");
    long shared = view.launch().sharedApertureBase();
    long priv = view.launch().privateApertureBase();
    if (shared != 0 && (a - shared) >>> 32 == 0) return new Address(AddressSpace.LDS, a - shared, lane);
    if (priv != 0 && (a - priv) >>> 32 == 0) return new Address(AddressSpace.PRIVATE, a - priv, lane);
    return new Address(AddressSpace.GLOBAL, a, lane);
  }

  private Wave wave() throws DebugException {
    if (wave == null) throw new DebugException("no wave is selected (the dispatch has no waves now)");
    return wave;
  }

  private String print(String expr, char fmt) throws DebugException {
    Value v = value(expr);
    return expr + " = " + show(v, fmt, expr.startsWith("pc") || expr.startsWith("$pc"));
  }

  private String show(Value v, char fmt, boolean code) {
    if (v instanceof Value.Scalar s) {
      String text = number(s.value(), s.bits(), fmt);
      if (code && fmt == 'n') text = String.format("0x%x <%s>", s.value(), view.code().describe(s.value()));
      return text;
    }
    if (v instanceof Value.Dwords d) {
      StringBuilder sb = new StringBuilder("{");
      for (int i = 0; i < d.values().length; i++) {
        sb.append(i == 0 ? "" : ", ").append(number(d.values()[i] & 0xffff_ffffL, 32, fmt == 'n' ? 'x' : fmt));
      }
      return sb.append('}').toString();
    }
    Value.Lanes l = (Value.Lanes) v;
    char f = fmt == 'n' ? 'x' : fmt;
    int perLine = l.bits() == 64 ? 4 : 8;
    StringBuilder sb = new StringBuilder("{\n");
    for (int i = 0; i < Wave.LANES; i += perLine) {
      sb.append(String.format("  [%2d]", i));
      for (int j = i; j < i + perLine; j++) sb.append(' ').append(pad(number(l.values()[j], l.bits(), f), f, l.bits()));
      sb.append('\n');
    }
    sb.append('}');
    if (l.exec() != -1L) sb.append("  (lanes off in exec: ").append(lanesOff(l.exec())).append(')');
    return sb.toString();
  }

  private static String pad(String s, char fmt, int bits) {
    int width = fmt == 'x' ? (bits == 64 ? 18 : 10) : (bits == 64 ? 20 : 11);
    return String.format("%" + width + "s", s);
  }

  static String lanesOff(long exec) {
    StringBuilder sb = new StringBuilder();
    int i = 0;
    while (i < 64) {
      if ((exec >>> i & 1) != 0) {
        i++;
        continue;
      }
      int j = i;
      while (j + 1 < 64 && (exec >>> (j + 1) & 1) == 0) j++;
      if (sb.length() > 0) sb.append(", ");
      sb.append(i == j ? String.valueOf(i) : i + "-" + j);
      i = j + 1;
    }
    return sb.toString();
  }

  /** A number as the format asks: n (hex and signed decimal), x, d, u, f (float or double). */
  static String number(long value, int bits, char fmt) {
    if (bits == 1) return String.valueOf(value & 1);
    long masked = bits == 64 ? value : value & ((1L << bits) - 1);
    long signed = bits == 64 ? value : (masked << (64 - bits)) >> (64 - bits);
    String hex = String.format("0x%0" + (bits / 4) + "x", masked);
    switch (fmt) {
      case 'x': return hex;
      case 'd': return Long.toString(signed);
      case 'u': return Long.toUnsignedString(masked);
      case 'f': return bits == 64 ? floatText(Double.longBitsToDouble(masked))
          : bits == 16 ? floatText(Half.toFloat((short) masked)) : floatText(Float.intBitsToFloat((int) masked));
      default: return hex + " (" + signed + ")";
    }
  }

  private static String floatText(double d) {
    return Double.toString(d);
  }

  private static String floatText(float f) {
    return Float.toString(f);
  }

  // ---- x

  private String examine(String countText, String letters, String where) throws DebugException {
    int count = countText == null || countText.isEmpty() ? 1 : Integer.parseInt(countText);
    if (count < 1 || count > 4096) throw new DebugException("x: count " + count + " is not 1-4096");
    char fmt = 'x';
    int size = 0;
    for (char c : (letters == null ? "" : letters).toCharArray()) {
      if ("xduf i".indexOf(c) >= 0 && c != ' ') fmt = c;
      else if (c == 'b') size = 1;
      else if (c == 'h') size = 2;
      else if (c == 'w') size = 4;
      else if (c == 'g') size = 8;
      else throw new DebugException("x: unknown format letter '" + c + "' (formats x d u f i, sizes b h w g)");
    }
    Address a = address(where);
    if (fmt == 'i') return instructions(a, count);
    if (size == 0) size = 4;
    if (fmt == 'f' && size == 1) throw new DebugException("x: no 1-byte floating-point format");
    byte[] bytes = view.read(a.space(), wave, a.lane(), a.address(), count * size);
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int perLine = size == 8 ? 2 : size == 4 ? 4 : 8;
    StringBuilder sb = new StringBuilder();
    int n = bytes.length / size;
    for (int i = 0; i < n; i++) {
      if (i % perLine == 0) {
        if (i > 0) sb.append('\n');
        sb.append(new Address(a.space(), a.address() + (long) i * size, a.lane())).append(':');
      }
      long v = size == 1 ? b.get(i) & 0xffL : size == 2 ? b.getShort(i * 2) & 0xffffL
          : size == 4 ? b.getInt(i * 4) & 0xffff_ffffL : b.getLong(i * 8);
      sb.append('\t').append(number(v, size * 8, fmt));
    }
    if (n < count) {
      if (n > 0) sb.append('\n');
      sb.append("Cannot access memory at ").append(new Address(a.space(), a.address() + (long) n * size, a.lane()));
    }
    return sb.toString();
  }

  private String instructions(Address a, int count) throws DebugException {
    if (a.space() != AddressSpace.GLOBAL) throw new DebugException("x/i: instructions are in global memory");
    StringBuilder sb = new StringBuilder();
    for (Disassembly.Line l : Disassembly.from(view, a.address(), count)) {
      if (sb.length() > 0) sb.append('\n');
      sb.append(Disassembly.format(l, wave == null ? -1 : wave.pc));
    }
    return sb.toString();
  }

  // ---- info

  private String infoWaves() {
    List<Wave> waves = view.waves();
    if (waves.isEmpty()) return "No waves: " + describeStop();
    StringBuilder sb = new StringBuilder(String.format("  %-5s %-13s %-3s %-11s %-18s %s%n", "Wave", "Workgroup",
        "Id", "Status", "PC", "Location"));
    for (Wave w : waves) {
      String where = view.code().describe(w.pc);
      SourceLine line = view.code().lineAt(w.pc).orElse(null);
      if (line != null) where += " at " + line;
      String text = w.status == dev.hipsim.isa.exec.WaveStatus.DONE ? "" : instructionText(w.pc);
      sb.append(String.format("%s %-5d %-13s %-3d %-11s 0x%-16x %s%s%n", w == wave ? "*" : " ", view.number(w),
          "(" + w.workgroupX + "," + w.workgroupY + "," + w.workgroupZ + ")", w.waveInGroup,
          DebugDispatch.status(w), w.pc, where, text.isEmpty() ? "" : ": " + text));
    }
    return sb.toString().stripTrailing();
  }

  private String describeStop() {
    StopEvent e = view.stop();
    return e == null ? "" : e.description();
  }

  private String instructionText(long pc) {
    try {
      return Disassembly.line(view, pc).text();
    } catch (DebugException e) {
      return "(unreadable)";
    }
  }

  private String infoRegisters(String group) throws DebugException {
    Wave w = wave();
    switch (group) {
      case "": return specials(w) + "\n" + sgprs(w);
      case "special": case "specials": case "system": return specials(w);
      case "sgpr": case "sgprs": case "scalar": return sgprs(w);
      case "vgpr": case "vgprs": case "vector": return vectors(w, "v", view.vgprCount(), 0);
      case "agpr": case "agprs": case "acc":
        if (view.agprCount() == 0) return "This kernel allocates no AGPRs.";
        return vectors(w, "a", view.agprCount(), w.accOffset);
      default: return print(group, 'n');
    }
  }

  private String specials(Wave w) {
    StringBuilder sb = new StringBuilder();
    sb.append(row("pc", String.format("0x%016x", w.pc), view.code().describe(w.pc)
        + view.code().lineAt(w.pc).map(l -> " at " + l).orElse("")));
    sb.append(row("exec", String.format("0x%016x", w.exec()), w.exec() == -1L ? "" : "lanes off: " + lanesOff(w.exec())));
    sb.append(row("vcc", String.format("0x%016x", w.vcc()), ""));
    sb.append(row("scc", String.valueOf(w.scc), ""));
    sb.append(row("m0", String.format("0x%08x", w.s[Wave.M0]), ""));
    sb.append(row("mode", String.format("0x%08x", w.mode), modeText(w.mode)));
    int status = status(w);
    sb.append(row("status", String.format("0x%08x", status), statusText(status)));
    sb.append(row("trapsts", String.format("0x%08x", w.trapsts), ""));
    sb.append(row("flat_scratch", String.format("0x%016x", w.flatScratch()), ""));
    sb.append(row("wave", String.valueOf(view.number(w)), String.format("workgroup (%d,%d,%d), wave %d of the "
        + "workgroup, %s", w.workgroupX, w.workgroupY, w.workgroupZ, w.waveInGroup, DebugDispatch.status(w))));
    return sb.toString().stripTrailing();
  }

  private static String row(String name, String value, String note) {
    return String.format("%-13s %-18s %s%n", name, value, note).stripTrailing() + "\n";
  }

  private String sgprs(Wave w) {
    StringBuilder sb = new StringBuilder();
    int n = view.sgprCount();
    for (int i = 0; i < n; i++) {
      sb.append(String.format("%-5s0x%08x", "s" + i, w.s[i]));
      sb.append(i % 4 == 3 || i == n - 1 ? "\n" : "   ");
    }
    return sb.toString().stripTrailing();
  }

  private String vectors(Wave w, String prefix, int count, int base) {
    StringBuilder sb = new StringBuilder();
    for (int r = 0; r < count; r++) {
      long[] lanes = new long[Wave.LANES];
      for (int l = 0; l < Wave.LANES; l++) lanes[l] = w.v[(base + r) * Wave.LANES + l] & 0xffff_ffffL;
      if (r > 0) sb.append('\n');
      sb.append(prefix).append(r).append(" = ").append(show(new Value.Lanes(lanes, 32, w.exec()), 'x', false));
    }
    return sb.toString();
  }

  /** The STATUS register as the wave's state implies it: SCC, EXECZ, VCCZ, IN_TG, IN_BARRIER, VALID. */
  public static int status(Wave w) {
    int s = w.scc & 1;
    if (w.exec() == 0) s |= 1 << 9;
    if (w.vcc() == 0) s |= 1 << 10;
    if (w.group != null && w.group.waveCount() > 1) s |= 1 << 11;
    if (w.status == dev.hipsim.isa.exec.WaveStatus.AT_BARRIER) s |= 1 << 12;
    if (w.status != dev.hipsim.isa.exec.WaveStatus.DONE) s |= 1 << 16;
    return s;
  }

  private static String statusText(int s) {
    List<String> f = new ArrayList<>();
    if ((s & 1) != 0) f.add("SCC");
    if ((s & 1 << 9) != 0) f.add("EXECZ");
    if ((s & 1 << 10) != 0) f.add("VCCZ");
    if ((s & 1 << 11) != 0) f.add("IN_TG");
    if ((s & 1 << 12) != 0) f.add("IN_BARRIER");
    if ((s & 1 << 16) != 0) f.add("VALID");
    return String.join(" ", f);
  }

  private static String modeText(int mode) {
    String[] round = {"nearest", "+inf", "-inf", "zero"};
    String[] denorm = {"flush", "flush-out", "flush-in", "keep"};
    StringBuilder sb = new StringBuilder();
    sb.append("round f32 ").append(round[FpMode.roundSingle(mode)]).append(", f64/f16 ")
        .append(round[FpMode.roundDouble(mode)]).append("; denorm f32 ").append(denorm[FpMode.denormSingle(mode)])
        .append(", f64/f16 ").append(denorm[FpMode.denormDouble(mode)]);
    if ((mode & FpMode.DX10_CLAMP_BIT) != 0) sb.append("; DX10_CLAMP");
    if ((mode & FpMode.IEEE_BIT) != 0) sb.append("; IEEE");
    if ((mode & FpMode.FP16_OVFL_BIT) != 0) sb.append("; FP16_OVFL");
    return sb.toString();
  }

  // ---- the parser

  private final class Parser {
    private final String text;
    private int p;

    Parser(String text) {
      this.text = text;
    }

    DebugException error(String what) {
      return new DebugException("cannot evaluate '" + text + "': " + what + (p < text.length() ? " at '"
          + text.substring(p) + "'" : ""));
    }

    void skip() {
      while (p < text.length() && Character.isWhitespace(text.charAt(p))) p++;
    }

    boolean eat(char c) {
      skip();
      if (p < text.length() && text.charAt(p) == c) {
        p++;
        return true;
      }
      return false;
    }

    void end() throws DebugException {
      skip();
      if (p != text.length()) throw error("unexpected text");
    }

    Value sum() throws DebugException {
      Value v = product();
      while (true) {
        if (eat('+')) v = combine(v, product(), '+');
        else if (eat('-')) v = combine(v, product(), '-');
        else return v;
      }
    }

    Value product() throws DebugException {
      Value v = unary();
      while (eat('*')) v = combine(v, unary(), '*');
      return v;
    }

    Value unary() throws DebugException {
      if (eat('-')) return combine(new Value.Scalar(0, 64), unary(), '-');
      if (eat('(')) {
        Value v = sum();
        if (!eat(')')) throw error("missing )");
        return v;
      }
      return atom();
    }

    Value combine(Value a, Value b, char op) throws DebugException {
      if (a instanceof Value.Dwords || b instanceof Value.Dwords) throw error("cannot do arithmetic on a wide slice");
      if (a instanceof Value.Scalar x && b instanceof Value.Scalar y) {
        return new Value.Scalar(apply(x.value(), y.value(), op), Math.max(64, Math.max(x.bits(), y.bits())));
      }
      long[] out = new long[Wave.LANES];
      long exec = -1L;
      int bits = 64;
      for (int l = 0; l < Wave.LANES; l++) out[l] = apply(laneOf(a, l), laneOf(b, l), op);
      if (a instanceof Value.Lanes la) exec &= la.exec();
      if (b instanceof Value.Lanes lb) exec &= lb.exec();
      return new Value.Lanes(out, bits, exec);
    }

    private long laneOf(Value v, int l) {
      return v instanceof Value.Lanes la ? la.values()[l] : ((Value.Scalar) v).value();
    }

    private long apply(long a, long b, char op) {
      return op == '+' ? a + b : op == '-' ? a - b : a * b;
    }

    Value atom() throws DebugException {
      skip();
      if (p >= text.length()) throw error("expected a register or a number");
      char c = text.charAt(p);
      if (Character.isDigit(c)) return new Value.Scalar(number(), 64);
      if (c == '$') p++;
      int start = p;
      while (p < text.length() && (Character.isLetterOrDigit(text.charAt(p)) || text.charAt(p) == '_')) p++;
      String name = text.substring(start, p).toLowerCase(Locale.ROOT);
      if (name.isEmpty()) throw error("expected a register or a number");
      return register(name);
    }

    long number() throws DebugException {
      skip();
      int start = p;
      while (p < text.length() && (Character.isLetterOrDigit(text.charAt(p)))) p++;
      String n = text.substring(start, p).toLowerCase(Locale.ROOT);
      try {
        if (n.startsWith("0x")) return Long.parseUnsignedLong(n.substring(2), 16);
        return Long.parseLong(n);
      } catch (NumberFormatException e) {
        p = start;
        throw error("'" + n + "' is not a number");
      }
    }

    int index() throws DebugException {
      long v = number();
      if (v < 0 || v > Integer.MAX_VALUE) throw error("index " + v);
      return (int) v;
    }

    Value register(String name) throws DebugException {
      Wave w = wave();
      switch (name) {
        case "exec": return new Value.Scalar(w.exec(), 64);
        case "exec_lo": return new Value.Scalar(w.s[Wave.EXEC_LO] & 0xffff_ffffL, 32);
        case "exec_hi": return new Value.Scalar(w.s[Wave.EXEC_HI] & 0xffff_ffffL, 32);
        case "vcc": return new Value.Scalar(w.vcc(), 64);
        case "vcc_lo": return new Value.Scalar(w.s[Wave.VCC_LO] & 0xffff_ffffL, 32);
        case "vcc_hi": return new Value.Scalar(w.s[Wave.VCC_HI] & 0xffff_ffffL, 32);
        case "scc": return new Value.Scalar(w.scc & 1, 1);
        case "m0": return new Value.Scalar(w.s[Wave.M0] & 0xffff_ffffL, 32);
        case "mode": return new Value.Scalar(w.mode & 0xffff_ffffL, 32);
        case "status": return new Value.Scalar(status(w) & 0xffff_ffffL, 32);
        case "trapsts": return new Value.Scalar(w.trapsts & 0xffff_ffffL, 32);
        case "pc": return new Value.Scalar(w.pc, 64);
        case "flat_scratch": return new Value.Scalar(w.flatScratch(), 64);
        case "flat_scratch_lo": return new Value.Scalar(w.s[Wave.FLAT_SCRATCH_LO] & 0xffff_ffffL, 32);
        case "flat_scratch_hi": return new Value.Scalar(w.s[Wave.FLAT_SCRATCH_HI] & 0xffff_ffffL, 32);
        case "xnack_mask": return new Value.Scalar(w.s64(Wave.XNACK_MASK_LO), 64);
        case "lane": return new Value.Scalar(lane, 32);
        default: break;
      }
      if (name.startsWith("ttmp") && name.length() > 4 && name.substring(4).chars().allMatch(Character::isDigit)) {
        int i = Integer.parseInt(name.substring(4));
        if (i > 11) throw error("there are ttmp0-ttmp11");
        return new Value.Scalar(w.s[Wave.TTMP0 + i] & 0xffff_ffffL, 32);
      }
      if (name.equals("s") || name.equals("v") || name.equals("a")) {
        // a slice: s[4:5], v[2:3]
        if (!eat('[')) throw error("expected [first:last] after " + name);
        int first = index();
        int last = first;
        if (eat(':')) last = index();
        if (!eat(']')) throw error("missing ]");
        if (last < first || last - first > 15) throw error("bad register range " + first + ":" + last);
        return name.equals("s") ? scalarRegs(w, first, last) : vectorRegs(w, name, first, last);
      }
      char kind = name.charAt(0);
      String digits = name.substring(1);
      if ((kind == 's' || kind == 'v' || kind == 'a') && !digits.isEmpty() && digits.chars().allMatch(Character::isDigit)) {
        int r = Integer.parseInt(digits);
        return kind == 's' ? scalarRegs(w, r, r) : vectorRegs(w, String.valueOf(kind), r, r);
      }
      throw error("unknown register " + name);
    }

    Value scalarRegs(Wave w, int first, int last) throws DebugException {
      if (last >= 102) throw error("there are s0-s101 (use vcc, m0, exec … for the others)");
      if (first == last) return new Value.Scalar(w.s[first] & 0xffff_ffffL, 32);
      if (last == first + 1) return new Value.Scalar(w.s64(first), 64);
      int[] d = new int[last - first + 1];
      for (int i = 0; i < d.length; i++) d[i] = w.s[first + i];
      return new Value.Dwords(d);
    }

    Value vectorRegs(Wave w, String kind, int first, int last) throws DebugException {
      int count = kind.equals("v") ? view.vgprCount() : view.agprCount();
      int base = kind.equals("v") ? 0 : w.accOffset;
      if (count == 0) throw error("this kernel allocates no AGPRs");
      if (last >= count) throw error(kind + last + " is not allocated (" + kind + "0-" + kind + (count - 1) + ")");
      if (last > first + 1) throw error("vector slices are one or two registers (v[N:N+1])");
      int laneIndex = -1;
      if (eat('[')) {
        laneIndex = index();
        if (!eat(']')) throw error("missing ]");
        if (laneIndex >= Wave.LANES) throw error("lane " + laneIndex + " is not 0-63");
      }
      int bits = last == first ? 32 : 64;
      long[] values = new long[Wave.LANES];
      for (int l = 0; l < Wave.LANES; l++) {
        long lo = w.v[(base + first) * Wave.LANES + l] & 0xffff_ffffL;
        long hi = bits == 64 ? (long) w.v[(base + last) * Wave.LANES + l] << 32 : 0;
        values[l] = lo | hi;
      }
      if (laneIndex >= 0) return new Value.Scalar(values[laneIndex], bits);
      return new Value.Lanes(values, bits, w.exec());
    }
  }
}
