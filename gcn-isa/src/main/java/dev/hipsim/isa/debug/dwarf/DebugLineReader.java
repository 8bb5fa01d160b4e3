package dev.hipsim.isa.debug.dwarf;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Reads {@code .debug_line} (DWARF versions 2 to 5, 32- and 64-bit formats) into line tables, as LLVM 15 and 22
 * emit them for AMDGPU code objects: DWARF 5 headers with entry formats ({@code DW_FORM_line_strp},
 * {@code DW_FORM_string}, {@code DW_FORM_udata}, {@code DW_FORM_data16} MD5s …) and DWARF 4 headers with string
 * lists. Every unit of the section is read; a malformed one is an error naming its offset.
 */
public final class DebugLineReader {
  static final String SECTION = ".debug_line";

  // standard opcodes
  private static final int DW_LNS_COPY = 1;
  private static final int DW_LNS_ADVANCE_PC = 2;
  private static final int DW_LNS_ADVANCE_LINE = 3;
  private static final int DW_LNS_SET_FILE = 4;
  private static final int DW_LNS_SET_COLUMN = 5;
  private static final int DW_LNS_NEGATE_STMT = 6;
  private static final int DW_LNS_SET_BASIC_BLOCK = 7;
  private static final int DW_LNS_CONST_ADD_PC = 8;
  private static final int DW_LNS_FIXED_ADVANCE_PC = 9;
  private static final int DW_LNS_SET_PROLOGUE_END = 10;
  private static final int DW_LNS_SET_EPILOGUE_BEGIN = 11;
  private static final int DW_LNS_SET_ISA = 12;
  // extended opcodes
  private static final int DW_LNE_END_SEQUENCE = 1;
  private static final int DW_LNE_SET_ADDRESS = 2;
  private static final int DW_LNE_DEFINE_FILE = 3;
  private static final int DW_LNE_SET_DISCRIMINATOR = 4;
  // DWARF 5 line-number header entry content types
  private static final int DW_LNCT_PATH = 1;
  private static final int DW_LNCT_DIRECTORY_INDEX = 2;
  private static final int DW_LNCT_TIMESTAMP = 3;
  private static final int DW_LNCT_SIZE = 4;
  private static final int DW_LNCT_MD5 = 5;
  // forms that may appear in those entries
  private static final int DW_FORM_BLOCK2 = 0x03;
  private static final int DW_FORM_BLOCK4 = 0x04;
  private static final int DW_FORM_DATA2 = 0x05;
  private static final int DW_FORM_DATA4 = 0x06;
  private static final int DW_FORM_DATA8 = 0x07;
  private static final int DW_FORM_STRING = 0x08;
  private static final int DW_FORM_BLOCK = 0x09;
  private static final int DW_FORM_BLOCK1 = 0x0a;
  private static final int DW_FORM_DATA1 = 0x0b;
  private static final int DW_FORM_SDATA = 0x0d;
  private static final int DW_FORM_STRP = 0x0e;
  private static final int DW_FORM_UDATA = 0x0f;
  private static final int DW_FORM_DATA16 = 0x1e;
  private static final int DW_FORM_LINE_STRP = 0x1f;

  private final SectionCursor in;
  private final SectionCursor lineStr;
  private final SectionCursor str;

  private DebugLineReader(ByteBuffer debugLine, ByteBuffer debugLineStr, ByteBuffer debugStr) {
    this.in = new SectionCursor(SECTION, debugLine);
    this.lineStr = debugLineStr == null ? null : new SectionCursor(".debug_line_str", debugLineStr);
    this.str = debugStr == null ? null : new SectionCursor(".debug_str", debugStr);
  }

  /**
   * Reads every line table of a {@code .debug_line} section.
   *
   * @param debugLineStr the {@code .debug_line_str} section, or null when the object has none
   * @param debugStr the {@code .debug_str} section, or null when the object has none
   */
  public static List<LineTable> read(ByteBuffer debugLine, ByteBuffer debugLineStr, ByteBuffer debugStr)
      throws DwarfException {
    DebugLineReader r = new DebugLineReader(debugLine, debugLineStr, debugStr);
    List<LineTable> tables = new ArrayList<>();
    while (!r.in.atEnd()) tables.add(r.unit());
    return Collections.unmodifiableList(tables);
  }

  private LineTable unit() throws DwarfException {
    int start = in.position();
    long length = in.u32();
    boolean dwarf64 = false;
    if (length == 0xffff_ffffL) {
      dwarf64 = true;
      length = in.u64();
    } else if (length >= 0xffff_fff0L) {
      throw in.error(start, "reserved unit length 0x" + Long.toHexString(length));
    }
    if (length < 0 || length > in.remaining()) {
      throw in.error(start, "unit length " + Long.toUnsignedString(length) + " exceeds the " + in.remaining()
          + " bytes left in the section");
    }
    long end = in.position() + length;
    in.limit(end);
    int version = in.u16();
    if (version < 2 || version > 5) throw in.error(start, "unsupported line table version " + version);
    int addressSize = 8;
    if (version >= 5) {
      addressSize = in.u8();
      int segmentSelectorSize = in.u8();
      if (segmentSelectorSize != 0) throw in.error(start, "segment selectors are not supported");
      if (addressSize != 4 && addressSize != 8) throw in.error(start, "address size " + addressSize);
    }
    long headerLength = dwarf64 ? in.u64() : in.u32();
    long programStart = in.position() + headerLength;
    if (headerLength < 0 || programStart > end) throw in.error(start, "header length runs past the unit");
    int minInst = in.u8();
    int maxOps = version >= 4 ? in.u8() : 1;
    boolean defaultIsStmt = in.u8() != 0;
    int lineBase = in.s8();
    int lineRange = in.u8();
    int opcodeBase = in.u8();
    if (lineRange == 0) throw in.error(start, "line_range is 0");
    if (opcodeBase == 0) throw in.error(start, "opcode_base is 0");
    int[] opcodeLengths = new int[opcodeBase];
    for (int i = 1; i < opcodeBase; i++) opcodeLengths[i] = in.u8();

    List<String> directories = new ArrayList<>();
    List<FileEntry> files = new ArrayList<>();
    if (version >= 5) {
      int[][] dirFormat = entryFormat();
      int dirCount = in.ulebInt("directory count");
      for (int i = 0; i < dirCount; i++) directories.add(entry(dirFormat, dwarf64).name());
      int[][] fileFormat = entryFormat();
      int fileCount = in.ulebInt("file name count");
      for (int i = 0; i < fileCount; i++) files.add(entry(fileFormat, dwarf64));
    } else {
      directories.add(""); // the compilation directory: DW_AT_comp_dir, not part of the line table
      while (true) {
        String d = in.cstring();
        if (d.isEmpty()) break;
        directories.add(d);
      }
      files.add(null);
      while (true) {
        String name = in.cstring();
        if (name.isEmpty()) break;
        files.add(new FileEntry(name, in.ulebInt("directory index"), in.uleb(), in.uleb(), null));
      }
    }
    if (in.position() > programStart) throw in.error(start, "header entries run past header_length");
    in.seek((int) programStart);
    List<LineRow> rows = program(start, version, minInst, maxOps, defaultIsStmt, lineBase, lineRange, opcodeBase,
        opcodeLengths, addressSize, files);
    in.seek((int) end);
    in.clearLimit();
    return new LineTable(start, version, dwarf64, addressSize, minInst, maxOps, defaultIsStmt, lineBase, lineRange,
        opcodeBase, Collections.unmodifiableList(directories), Collections.unmodifiableList(files),
        Collections.unmodifiableList(rows));
  }

  private int[][] entryFormat() throws DwarfException {
    int count = in.u8();
    int[][] format = new int[count][2];
    for (int i = 0; i < count; i++) {
      format[i][0] = in.ulebInt("content type");
      format[i][1] = in.ulebInt("form");
    }
    return format;
  }

  private FileEntry entry(int[][] format, boolean dwarf64) throws DwarfException {
    String name = null;
    int dir = 0;
    long time = 0;
    long size = 0;
    byte[] md5 = null;
    for (int[] f : format) {
      int at = in.position();
      int type = f[0];
      int form = f[1];
      switch (type) {
        case DW_LNCT_PATH: name = string(form, dwarf64, at); break;
        case DW_LNCT_DIRECTORY_INDEX: dir = (int) number(form, at); break;
        case DW_LNCT_TIMESTAMP: time = form == DW_FORM_BLOCK ? skipBlock(form, at) : number(form, at); break;
        case DW_LNCT_SIZE: size = number(form, at); break;
        case DW_LNCT_MD5:
          if (form != DW_FORM_DATA16) throw in.error(at, "MD5 in form 0x" + Integer.toHexString(form));
          md5 = in.bytes(16);
          break;
        default: skip(form, dwarf64, at); // vendor content (LLVM's source text, …)
      }
    }
    if (name == null) throw in.error(in.position(), "entry without a path");
    return new FileEntry(name, dir, time, size, md5);
  }

  private String string(int form, boolean dwarf64, int at) throws DwarfException {
    switch (form) {
      case DW_FORM_STRING: return in.cstring();
      case DW_FORM_LINE_STRP: {
        long off = dwarf64 ? in.u64() : in.u32();
        if (lineStr == null) throw in.error(at, "DW_FORM_line_strp without a .debug_line_str section");
        return lineStr.stringAt(off);
      }
      case DW_FORM_STRP: {
        long off = dwarf64 ? in.u64() : in.u32();
        if (str == null) throw in.error(at, "DW_FORM_strp without a .debug_str section");
        return str.stringAt(off);
      }
      default: throw in.error(at, "path in unsupported form 0x" + Integer.toHexString(form));
    }
  }

  private long number(int form, int at) throws DwarfException {
    switch (form) {
      case DW_FORM_DATA1: return in.u8();
      case DW_FORM_DATA2: return in.u16();
      case DW_FORM_DATA4: return in.u32();
      case DW_FORM_DATA8: return in.u64();
      case DW_FORM_UDATA: return in.uleb();
      case DW_FORM_SDATA: return in.sleb();
      default: throw in.error(at, "number in unsupported form 0x" + Integer.toHexString(form));
    }
  }

  private long skipBlock(int form, int at) throws DwarfException {
    skip(form, false, at);
    return 0;
  }

  private void skip(int form, boolean dwarf64, int at) throws DwarfException {
    switch (form) {
      case DW_FORM_STRING: in.cstring(); break;
      case DW_FORM_LINE_STRP: case DW_FORM_STRP: in.skip(dwarf64 ? 8 : 4); break;
      case DW_FORM_DATA1: in.skip(1); break;
      case DW_FORM_DATA2: in.skip(2); break;
      case DW_FORM_DATA4: in.skip(4); break;
      case DW_FORM_DATA8: in.skip(8); break;
      case DW_FORM_DATA16: in.skip(16); break;
      case DW_FORM_UDATA: in.uleb(); break;
      case DW_FORM_SDATA: in.sleb(); break;
      case DW_FORM_BLOCK: in.skip(in.uleb()); break;
      case DW_FORM_BLOCK1: in.skip(in.u8()); break;
      case DW_FORM_BLOCK2: in.skip(in.u16()); break;
      case DW_FORM_BLOCK4: in.skip(in.u32()); break;
      default: throw in.error(at, "entry in unsupported form 0x" + Integer.toHexString(form));
    }
  }

  /** Runs the line-number program to the end of the unit. */
  private List<LineRow> program(int unitStart, int version, int minInst, int maxOps, boolean defaultIsStmt,
      int lineBase, int lineRange, int opcodeBase, int[] opcodeLengths, int addressSize, List<FileEntry> files)
      throws DwarfException {
    List<LineRow> rows = new ArrayList<>();
    State s = new State(defaultIsStmt);
    int ops = Math.max(1, maxOps);
    while (!in.atEnd()) {
      int at = in.position();
      int opcode = in.u8();
      if (opcode >= opcodeBase) {
        int adjusted = opcode - opcodeBase;
        s.advance(adjusted / lineRange, minInst, ops);
        s.line += lineBase + adjusted % lineRange;
        rows.add(s.row(false));
        s.afterRow();
        continue;
      }
      switch (opcode) {
        case 0: {
          long len = in.uleb();
          if (len == 0 || len > in.remaining()) throw in.error(at, "extended opcode length " + len);
          int next = in.position() + (int) len;
          int sub = in.u8();
          switch (sub) {
            case DW_LNE_END_SEQUENCE:
              rows.add(s.row(true));
              s = new State(defaultIsStmt);
              break;
            case DW_LNE_SET_ADDRESS: {
              int size = (int) len - 1;
              if (size != addressSize && size != 4 && size != 8) {
                throw in.error(at, "DW_LNE_set_address with a " + size + "-byte operand");
              }
              s.address = in.unsigned(size);
              s.opIndex = 0;
              break;
            }
            case DW_LNE_DEFINE_FILE:
              if (version >= 5) throw in.error(at, "DW_LNE_define_file in a DWARF 5 unit");
              files.add(new FileEntry(in.cstring(), in.ulebInt("directory index"), in.uleb(), in.uleb(), null));
              break;
            case DW_LNE_SET_DISCRIMINATOR:
              s.discriminator = in.ulebInt("discriminator");
              break;
            default:
              break; // vendor extension: skipped by its length
          }
          in.seek(next);
          break;
        }
        case DW_LNS_COPY:
          rows.add(s.row(false));
          s.afterRow();
          break;
        case DW_LNS_ADVANCE_PC: s.advance(in.uleb(), minInst, ops); break;
        case DW_LNS_ADVANCE_LINE: s.line += (int) in.sleb(); break;
        case DW_LNS_SET_FILE: s.file = in.ulebInt("file index"); break;
        case DW_LNS_SET_COLUMN: s.column = in.ulebInt("column"); break;
        case DW_LNS_NEGATE_STMT: s.isStmt = !s.isStmt; break;
        case DW_LNS_SET_BASIC_BLOCK: s.basicBlock = true; break;
        case DW_LNS_CONST_ADD_PC: s.advance((255 - opcodeBase) / lineRange, minInst, ops); break;
        case DW_LNS_FIXED_ADVANCE_PC:
          s.address += in.u16();
          s.opIndex = 0;
          break;
        case DW_LNS_SET_PROLOGUE_END: s.prologueEnd = true; break;
        case DW_LNS_SET_EPILOGUE_BEGIN: s.epilogueBegin = true; break;
        case DW_LNS_SET_ISA: s.isa = in.ulebInt("isa"); break;
        default:
          // A standard opcode this reader does not know: the header says how many LEB128 operands it has.
          for (int i = 0; i < opcodeLengths[opcode]; i++) in.uleb();
      }
    }
    return rows;
  }

  /** The line-number state machine's registers. */
  private static final class State {
    long address;
    int opIndex;
    int file = 1;
    int line = 1;
    int column;
    boolean isStmt;
    boolean basicBlock;
    boolean prologueEnd;
    boolean epilogueBegin;
    int isa;
    int discriminator;

    State(boolean defaultIsStmt) {
      this.isStmt = defaultIsStmt;
    }

    void advance(long operationAdvance, int minInst, int maxOps) {
      if (maxOps == 1) {
        address += minInst * operationAdvance;
      } else {
        long total = opIndex + operationAdvance;
        address += minInst * (total / maxOps);
        opIndex = (int) (total % maxOps);
      }
    }

    LineRow row(boolean endSequence) {
      return new LineRow(address, line, column, file, isa, discriminator, opIndex, isStmt, basicBlock, endSequence,
          prologueEnd, epilogueBegin);
    }

    void afterRow() {
      discriminator = 0;
      basicBlock = false;
      prologueEnd = false;
      epilogueBegin = false;
    }
  }
}
