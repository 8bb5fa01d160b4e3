package dev.hipsim.isa.decode;

import dev.hipsim.isa.decode.OperandSpec.FieldKind;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The opcode tables in the compact binary form the build writes next to the text tables ({@value #RESOURCE}).
 *
 * <p>Why: parsing the 2015 text rows took about 80 ms on a cold JVM, on every start, and made the JIT compile the
 * parsing code (String.split alone took the C2 compiler 270 ms of wall time) just as the first dispatch needed the
 * compiler. Reading this form is a few reads per row. The text tables stay the source: the build runs
 * {@link #main} after compiling, and {@code OpcodeTableFileTest} checks that the file holds exactly what parsing the
 * text gives. Enum constants are stored by name, so a file from another build can only fail to load, never decode
 * differently.
 *
 * <p>Layout (big-endian, {@link DataOutputStream}): magic, version; the string table (count, then modified UTF-8
 * strings); the operand table (count, then slot, field, kind, dwords, type, fixed, lo, width, extraBit, strings as
 * indices, -1 for null); the rows (count, then family mask, format, opcode, operation, mnemonic, zero masks, live
 * mask, flags, immediate style, operand indices).
 */
public final class OpcodeTableFile {
  /** The resource name, next to this class. */
  public static final String RESOURCE = "opcodes.bin";
  private static final int MAGIC = 0x48534f54; // "HSOT"
  private static final int VERSION = 1;

  private OpcodeTableFile() {}

  /** Writes {@code rows} ([family][format][opcode], as {@link OpcodeTables} keeps them). */
  static void write(OpcodeInfo[][][] rows, OutputStream target) throws IOException {
    Map<String, Integer> strings = new LinkedHashMap<>();
    Map<OperandSpec, Integer> operands = new LinkedHashMap<>();
    List<OpcodeInfo> distinct = new ArrayList<>();
    List<Integer> families = new ArrayList<>();
    for (int f = 0; f < rows[0].length; f++) {
      for (int op = 0; op < rows[0][f].length; op++) {
        OpcodeInfo a = rows[0][f][op];
        OpcodeInfo b = rows[1][f][op];
        if (a != null) {
          distinct.add(a);
          families.add(a == b ? 3 : 1);
        }
        if (b != null && b != a) {
          distinct.add(b);
          families.add(2);
        }
      }
    }
    for (OpcodeInfo row : distinct) {
      intern(strings, row.format().name());
      intern(strings, row.operation().name());
      intern(strings, row.mnemonic());
      intern(strings, row.immStyle().name());
      for (OperandSpec s : row.operandArray()) {
        if (operands.containsKey(s)) continue;
        operands.put(s, operands.size());
        intern(strings, s.slot().name());
        intern(strings, s.field());
        intern(strings, s.kind().name());
        intern(strings, s.type() == null ? null : s.type().name());
        intern(strings, s.fixed());
      }
    }
    DataOutputStream out = new DataOutputStream(new BufferedOutputStream(target));
    out.writeInt(MAGIC);
    out.writeInt(VERSION);
    out.writeInt(strings.size());
    for (String s : strings.keySet()) out.writeUTF(s);
    out.writeInt(operands.size());
    for (OperandSpec s : operands.keySet()) {
      out.writeShort(index(strings, s.slot().name()));
      out.writeShort(index(strings, s.field()));
      out.writeShort(index(strings, s.kind().name()));
      out.writeByte(s.dwords());
      out.writeShort(index(strings, s.type() == null ? null : s.type().name()));
      out.writeShort(index(strings, s.fixed()));
      out.writeByte(s.lo());
      out.writeByte(s.width());
      out.writeByte(s.extraBit());
    }
    out.writeInt(distinct.size());
    for (int i = 0; i < distinct.size(); i++) {
      OpcodeInfo row = distinct.get(i);
      out.writeByte(families.get(i));
      out.writeShort(index(strings, row.format().name()));
      out.writeShort(row.opcode());
      out.writeShort(index(strings, row.operation().name()));
      out.writeShort(index(strings, row.mnemonic()));
      long[] zero = row.zeroMaskArray();
      out.writeByte(zero.length);
      for (long z : zero) out.writeLong(z);
      out.writeLong(row.liveMask());
      out.writeInt(row.flagBits());
      out.writeShort(index(strings, row.immStyle().name()));
      OperandSpec[] ops = row.operandArray();
      out.writeByte(ops.length);
      for (OperandSpec s : ops) out.writeShort(operands.get(s));
    }
    out.flush();
  }

  /**
   * Reads a file {@link #write} made into {@code rows} ([family][format][opcode], sized by the formats).
   *
   * @throws IOException if the file is truncated, from another version, or names a constant this build lacks
   */
  static void read(InputStream source, OpcodeInfo[][][] rows) throws IOException {
    DataInputStream in = new DataInputStream(new BufferedInputStream(source, 1 << 16));
    if (in.readInt() != MAGIC || in.readInt() != VERSION) throw new IOException(RESOURCE + ": not version " + VERSION);
    String[] strings = new String[count(in)];
    for (int i = 0; i < strings.length; i++) strings[i] = in.readUTF();
    OperandSpec[] operands = new OperandSpec[count(in)];
    try {
      for (int i = 0; i < operands.length; i++) {
        Slot slot = Slot.valueOf(string(strings, in.readShort()));
        String field = string(strings, in.readShort());
        FieldKind kind = FieldKind.valueOf(string(strings, in.readShort()));
        int dwords = in.readByte();
        String type = string(strings, in.readShort());
        String fixed = string(strings, in.readShort());
        int lo = in.readByte();
        int width = in.readByte();
        int extraBit = in.readByte();
        operands[i] = new OperandSpec(slot, field, kind, dwords, type == null ? null : ValueType.valueOf(type), fixed,
            lo, width, extraBit);
      }
      int count = count(in);
      for (int i = 0; i < count; i++) {
        int families = in.readByte();
        Format format = Format.valueOf(string(strings, in.readShort()));
        int opcode = in.readShort();
        Operation operation = Operation.valueOf(string(strings, in.readShort()));
        String mnemonic = string(strings, in.readShort());
        long[] zero = new long[in.readByte()];
        for (int z = 0; z < zero.length; z++) zero[z] = in.readLong();
        long live = in.readLong();
        int flags = in.readInt();
        ImmStyle style = ImmStyle.valueOf(string(strings, in.readShort()));
        OperandSpec[] ops = new OperandSpec[in.readByte()];
        for (int k = 0; k < ops.length; k++) ops[k] = operands[in.readShort()];
        OpcodeInfo row = new OpcodeInfo(format, opcode, operation, mnemonic, zero, live, flags, style, ops);
        if ((families & 1) != 0) rows[0][format.ordinal()][opcode] = row;
        if ((families & 2) != 0) rows[1][format.ordinal()][opcode] = row;
      }
    } catch (RuntimeException e) {
      // An unknown constant name, an index out of range, a negative size: a file that is not this build's.
      throw new IOException(RESOURCE + " does not match this build: " + e, e);
    }
    if (in.read() != -1) throw new IOException(RESOURCE + ": data after the last row");
  }

  /** A table size; the tables have a few thousand entries, so anything beyond 16 bits is a damaged file. */
  private static int count(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > 0xffff) throw new IOException(RESOURCE + ": table size " + n);
    return n;
  }

  /** The build step: parses the text tables and writes the file to {@code args[0]}. */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) throw new IllegalArgumentException("usage: OpcodeTableFile OUTPUT");
    Path target = Path.of(args[0]);
    Files.createDirectories(target.toAbsolutePath().getParent());
    try (OutputStream out = Files.newOutputStream(target)) {
      write(OpcodeTables.parseText(), out);
    }
  }

  private static void intern(Map<String, Integer> strings, String s) {
    if (s != null) strings.putIfAbsent(s, strings.size());
  }

  private static int index(Map<String, Integer> strings, String s) {
    return s == null ? -1 : strings.get(s);
  }

  private static String string(String[] strings, int index) {
    return index < 0 ? null : strings[index];
  }
}
