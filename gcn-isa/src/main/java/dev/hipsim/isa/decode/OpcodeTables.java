package dev.hipsim.isa.decode;

import dev.hipsim.isa.decode.OperandSpec.FieldKind;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The opcode tables of every format, read once from the {@code *.tbl} resources next to this class. Lookups are
 * array indexing: {@link #lookup(Target, Format, int)} is on the decode hot path.
 */
public final class OpcodeTables {
  private static final OpcodeTables INSTANCE = load();

  /** [family][format][opcode]: family 0 is gfx90a, 1 is gfx940/gfx942. */
  private final OpcodeInfo[][][] rows;

  private OpcodeTables(OpcodeInfo[][][] rows) {
    this.rows = rows;
  }

  public static OpcodeTables get() {
    return INSTANCE;
  }

  /** The row for an opcode of a format on a target, or null when the target has no such instruction. */
  public OpcodeInfo lookup(Target target, Format format, int opcode) {
    OpcodeInfo[] table = rows[target.isCdna3() ? 1 : 0][format.ordinal()];
    return opcode >= 0 && opcode < table.length ? table[opcode] : null;
  }

  /** Every row a target knows, format by format, in opcode order. */
  public List<OpcodeInfo> rows(Target target) {
    List<OpcodeInfo> out = new ArrayList<>();
    for (OpcodeInfo[] table : rows[target.isCdna3() ? 1 : 0]) {
      for (OpcodeInfo row : table) {
        if (row != null) out.add(row);
      }
    }
    return out;
  }

  /**
   * Every operation the decoder knows on a target, each once, in enum order. This is the list COVERAGE.md is built
   * from (the interpreter adds whether each executes).
   */
  public List<Operation> operations(Target target) {
    Set<Operation> seen = java.util.EnumSet.noneOf(Operation.class);
    for (OpcodeInfo row : rows(target)) seen.add(row.operation());
    return List.copyOf(new LinkedHashSet<>(seen));
  }

  /**
   * The compact file the build writes ({@link OpcodeTableFile}), or, when it is missing or does not fit this build
   * (a class path without the build step), the text tables it is made from.
   */
  private static OpcodeTables load() {
    try (InputStream in = OpcodeTables.class.getResourceAsStream(OpcodeTableFile.RESOURCE)) {
      if (in != null) {
        OpcodeInfo[][][] rows = emptyRows();
        OpcodeTableFile.read(in, rows);
        return new OpcodeTables(rows);
      }
    } catch (IOException e) {
      // Parse the text instead: it is the source the file is made from.
    }
    return new OpcodeTables(parseText());
  }

  private static OpcodeInfo[][][] emptyRows() {
    OpcodeInfo[][][] rows = new OpcodeInfo[2][Format.values().length][];
    for (Format f : Format.values()) {
      rows[0][f.ordinal()] = new OpcodeInfo[f.opcodeCount()];
      rows[1][f.ordinal()] = new OpcodeInfo[f.opcodeCount()];
    }
    return rows;
  }

  /** The tables parsed from the {@code *.tbl} text resources ([family][format][opcode]). */
  static OpcodeInfo[][][] parseText() {
    OpcodeTables tables = new OpcodeTables(emptyRows());
    for (Format f : Format.values()) {
      try (InputStream in = OpcodeTables.class.getResourceAsStream(f.resource())) {
        if (in == null) throw new IllegalStateException("missing opcode table " + f.resource());
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        String line;
        int lineNo = 0;
        while ((line = r.readLine()) != null) {
          lineNo++;
          if (line.isBlank() || line.startsWith("#")) continue;
          tables.parseRow(f, line, lineNo);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return tables.rows;
  }

  /** The tables as this class holds them ([family][format][opcode]), for {@link OpcodeTableFile} and tests. */
  OpcodeInfo[][][] rowsByFamily() {
    return rows;
  }

  private void parseRow(Format format, String line, int lineNo) {
    String[] c = line.split("\t");
    if (c.length != 8) throw new IllegalStateException(format.resource() + ":" + lineNo + ": expected 8 columns");
    int opcode = Integer.parseInt(c[0]);
    Operation operation = Operation.valueOf(c[2]);
    String[] zs = c[4].split("\\|");
    if (zs.length != format.variantCount()) {
      throw new IllegalStateException(format.resource() + ":" + lineNo + ": expected " + format.variantCount()
          + " zero masks");
    }
    long[] zero = new long[zs.length];
    for (int i = 0; i < zs.length; i++) zero[i] = zs[i].equals("-") ? -1L : Long.parseUnsignedLong(zs[i], 16);
    long live = Long.parseUnsignedLong(c[5], 16);
    int flags = 0;
    ImmStyle style = null;
    boolean literal = false;
    if (!c[6].equals("-")) {
      for (String flag : c[6].split(",")) {
        switch (flag) {
          case "off2" -> flags |= OpcodeInfo.FLAG_TWO_OFFSETS;
          case "swz" -> flags |= OpcodeInfo.FLAG_SWIZZLE;
          case "literal" -> literal = true;
          case "packed" -> flags |= OpcodeInfo.FLAG_PACKED;
          case "dpalu" -> flags |= OpcodeInfo.FLAG_DP_ALU;
          default -> {
            if (!flag.startsWith("imm=")) throw new IllegalStateException(format.resource() + ":" + lineNo + ": flag " + flag);
            style = switch (flag.substring(4)) {
              case "none" -> ImmStyle.NONE;
              case "dec" -> ImmStyle.DECIMAL;
              case "endpgm" -> ImmStyle.ENDPGM;
              case "branch" -> ImmStyle.BRANCH;
              case "waitcnt" -> ImmStyle.WAITCNT;
              case "sendmsg" -> ImmStyle.SENDMSG;
              case "gpridx" -> ImmStyle.GPR_IDX;
              case "hwreg" -> ImmStyle.HWREG;
              case "hex16" -> ImmStyle.HEX16;
              default -> throw new IllegalStateException(format.resource() + ":" + lineNo + ": " + flag);
            };
          }
        }
      }
    }
    List<OperandSpec> ops = new ArrayList<>();
    if (!c[7].equals("-")) {
      for (String tok : c[7].split(" ")) ops.add(parseOperand(tok, format, lineNo));
    }
    if (literal) flags |= OpcodeInfo.FLAG_LITERAL;
    OpcodeInfo row = new OpcodeInfo(format, opcode, operation, c[3], zero, live, flags,
        style == null ? ImmStyle.NONE : style, ops.toArray(new OperandSpec[0]));
    boolean a = c[1].equals("all") || c[1].equals("gfx90a");
    boolean b = c[1].equals("all") || c[1].equals("gfx940");
    if (a) rows[0][format.ordinal()][opcode] = row;
    if (b) rows[1][format.ordinal()][opcode] = row;
  }

  private static OperandSpec parseOperand(String tok, Format format, int lineNo) {
    int eq = tok.indexOf('=');
    if (eq > 0) {
      return new OperandSpec(Slot.valueOf(tok.substring(0, eq)), null, FieldKind.FIXED, 2, null, tok.substring(eq + 1),
          -1, 0, -1);
    }
    String[] p = tok.split(":");
    Slot slot = Slot.valueOf(p[0]);
    if (p.length == 2 && p[1].equals("k")) {
      return new OperandSpec(slot, null, FieldKind.LITERAL, 1, ValueType.B32, null, -1, 0, -1);
    }
    if (p.length < 3) throw new IllegalStateException(format.resource() + ":" + lineNo + ": operand " + tok);
    String kindAndWidth = p[2];
    int digits = 0;
    while (digits < kindAndWidth.length() && !Character.isDigit(kindAndWidth.charAt(digits))) digits++;
    String k = kindAndWidth.substring(0, digits);
    int dwords = Integer.parseInt(kindAndWidth.substring(digits));
    FieldKind kind = switch (k) {
      case "v" -> FieldKind.VGPR;
      case "a" -> FieldKind.AGPR;
      case "s" -> FieldKind.SCALAR;
      case "x" -> FieldKind.SOURCE;
      case "xa" -> FieldKind.SOURCE_AGPR;
      case "i" -> FieldKind.IMMEDIATE;
      default -> throw new IllegalStateException(format.resource() + ":" + lineNo + ": kind " + k);
    };
    ValueType type = p.length > 3 ? ValueType.valueOf(p[3].toUpperCase(Locale.ROOT)) : null;
    int[] layout = FieldLayout.of(format, p[1]);
    if (layout == null) throw new IllegalStateException(format.resource() + ":" + lineNo + ": no field " + p[1]);
    return new OperandSpec(slot, p[1], kind, dwords, type, null, layout[0], layout[1], layout[2]);
  }
}
