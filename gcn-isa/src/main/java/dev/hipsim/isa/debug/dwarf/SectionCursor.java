package dev.hipsim.isa.debug.dwarf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** Little-endian reading of a DWARF section with bounds checks that report the section and offset. */
final class SectionCursor {
  private final String section;
  private final ByteBuffer data;
  private int position;
  private int limit;

  SectionCursor(String section, ByteBuffer data) {
    this.section = section;
    this.data = data.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    this.data.position(0);
    this.limit = this.data.limit();
  }

  int position() {
    return position;
  }

  void seek(int offset) throws DwarfException {
    if (offset < 0 || offset > data.limit()) throw error(offset, "offset outside the section");
    position = offset;
  }

  /** Restricts reading to {@code [position, end)}: the current unit. */
  void limit(long end) throws DwarfException {
    if (end > data.limit() || end < position) {
      throw error(position, "unit length runs to 0x" + Long.toHexString(end) + ", past the section's "
          + data.limit() + " bytes");
    }
    limit = (int) end;
  }

  void clearLimit() {
    limit = data.limit();
  }

  int limit() {
    return limit;
  }

  boolean atEnd() {
    return position >= limit;
  }

  int remaining() {
    return limit - position;
  }

  DwarfException error(long at, String message) {
    return new DwarfException(section, at, message);
  }

  private void need(int bytes) throws DwarfException {
    if (bytes < 0 || position + bytes > limit) {
      throw error(position, "needs " + bytes + " more bytes, only " + (limit - position) + " remain");
    }
  }

  int u8() throws DwarfException {
    need(1);
    return data.get(position++) & 0xff;
  }

  int s8() throws DwarfException {
    need(1);
    return data.get(position++);
  }

  int u16() throws DwarfException {
    need(2);
    int v = data.getShort(position) & 0xffff;
    position += 2;
    return v;
  }

  long u32() throws DwarfException {
    need(4);
    long v = data.getInt(position) & 0xffff_ffffL;
    position += 4;
    return v;
  }

  long u64() throws DwarfException {
    need(8);
    long v = data.getLong(position);
    position += 8;
    return v;
  }

  /** An unsigned value of {@code size} bytes (1, 2, 4 or 8). */
  long unsigned(int size) throws DwarfException {
    switch (size) {
      case 1: return u8();
      case 2: return u16();
      case 4: return u32();
      case 8: return u64();
      default: throw error(position, "unsupported value size " + size);
    }
  }

  long uleb() throws DwarfException {
    long result = 0;
    int shift = 0;
    int start = position;
    while (true) {
      int b = u8();
      if (shift < 64) result |= (long) (b & 0x7f) << shift;
      shift += 7;
      if ((b & 0x80) == 0) return result;
      if (shift > 70) throw error(start, "LEB128 value longer than 10 bytes");
    }
  }

  long sleb() throws DwarfException {
    long result = 0;
    int shift = 0;
    int start = position;
    int b;
    do {
      b = u8();
      if (shift < 64) result |= (long) (b & 0x7f) << shift;
      shift += 7;
      if (shift > 70) throw error(start, "LEB128 value longer than 10 bytes");
    } while ((b & 0x80) != 0);
    if (shift < 64 && (b & 0x40) != 0) result |= -1L << shift;
    return result;
  }

  /** A LEB128 value that must fit an int (counts, indices). */
  int ulebInt(String what) throws DwarfException {
    int at = position;
    long v = uleb();
    if (v < 0 || v > Integer.MAX_VALUE) throw error(at, what + " " + Long.toUnsignedString(v) + " is too large");
    return (int) v;
  }

  String cstring() throws DwarfException {
    int start = position;
    int end = start;
    while (true) {
      if (end >= limit) throw error(start, "string not terminated within the unit");
      if (data.get(end) == 0) break;
      end++;
    }
    byte[] b = new byte[end - start];
    data.get(start, b);
    position = end + 1;
    return new String(b, StandardCharsets.UTF_8);
  }

  /** The NUL-terminated string at {@code offset} of this whole section (for string-table forms). */
  String stringAt(long offset) throws DwarfException {
    if (offset < 0 || offset >= data.limit()) throw error(offset, "string offset outside the section");
    int end = (int) offset;
    while (end < data.limit() && data.get(end) != 0) end++;
    if (end >= data.limit()) throw error(offset, "string not terminated");
    byte[] b = new byte[end - (int) offset];
    data.get((int) offset, b);
    return new String(b, StandardCharsets.UTF_8);
  }

  byte[] bytes(int n) throws DwarfException {
    need(n);
    byte[] b = new byte[n];
    data.get(position, b);
    position += n;
    return b;
  }

  void skip(long n) throws DwarfException {
    if (n < 0 || n > limit - position) throw error(position, "cannot skip " + n + " bytes");
    position += (int) n;
  }
}
