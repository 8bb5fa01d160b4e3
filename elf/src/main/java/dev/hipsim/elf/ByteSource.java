package dev.hipsim.elf;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Bounds-checked little-endian random access to the bytes of a file or buffer, of any size (files above 2 GiB
 * included). Reads never copy the whole source: a file is memory-mapped in windows on demand, and {@link #slice}
 * returns a read-only view of a range without copying it.
 *
 * <p>Every read outside the source throws {@link ElfFormatException} naming the offset, so a corrupt size or offset
 * field read from a file can never become an unchecked exception.
 */
public abstract sealed class ByteSource implements Closeable permits ByteSource.OfBuffer, ByteSource.OfFile {

  /** Wraps a buffer (its position to its limit); the buffer is not copied. */
  public static ByteSource of(ByteBuffer buffer) {
    return new OfBuffer(buffer.slice().order(ByteOrder.LITTLE_ENDIAN));
  }

  public static ByteSource of(byte[] bytes) {
    return of(ByteBuffer.wrap(bytes));
  }

  /** Opens a file for reading; close the source to release the file and its mappings. */
  public static ByteSource open(Path path) throws IOException {
    FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
    try {
      return new OfFile(channel, channel.size());
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /** Total number of bytes. */
  public abstract long size();

  /**
   * A read-only little-endian view of {@code length} bytes at {@code offset}, without copying. The length must fit a
   * {@link ByteBuffer} (below 2 GiB).
   */
  public abstract ByteBuffer slice(long offset, long length) throws ElfFormatException;

  public abstract int u8(long offset) throws ElfFormatException;

  public abstract int u16(long offset) throws ElfFormatException;

  /** Unsigned 32-bit value, as a long. */
  public abstract long u32(long offset) throws ElfFormatException;

  public abstract long u64(long offset) throws ElfFormatException;

  /** Signed 32-bit value. */
  public int s32(long offset) throws ElfFormatException {
    return (int) u32(offset);
  }

  /** Copies {@code length} bytes into a new array (only for small, bounded ranges such as names and headers). */
  public byte[] bytes(long offset, int length) throws ElfFormatException {
    ByteBuffer view = slice(offset, length);
    byte[] out = new byte[length];
    view.get(out);
    return out;
  }

  /** Checks that {@code [offset, offset + length)} lies inside the source. */
  public void require(long offset, long length, String what) throws ElfFormatException {
    if (offset < 0 || length < 0 || offset > size() || length > size() - offset) {
      throw new ElfFormatException(
          offset,
          String.format("%s of %d bytes does not fit in the %d bytes available", what, length, size()));
    }
  }

  @Override
  public void close() throws IOException {}

  static final class OfBuffer extends ByteSource {
    private final ByteBuffer buffer;

    OfBuffer(ByteBuffer buffer) {
      this.buffer = buffer;
    }

    @Override
    public long size() {
      return buffer.limit();
    }

    @Override
    public ByteBuffer slice(long offset, long length) throws ElfFormatException {
      require(offset, length, "range");
      return buffer.slice((int) offset, (int) length).order(ByteOrder.LITTLE_ENDIAN).asReadOnlyBuffer()
          .order(ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public int u8(long offset) throws ElfFormatException {
      require(offset, 1, "byte");
      return buffer.get((int) offset) & 0xff;
    }

    @Override
    public int u16(long offset) throws ElfFormatException {
      require(offset, 2, "16-bit field");
      return buffer.getShort((int) offset) & 0xffff;
    }

    @Override
    public long u32(long offset) throws ElfFormatException {
      require(offset, 4, "32-bit field");
      return buffer.getInt((int) offset) & 0xffff_ffffL;
    }

    @Override
    public long u64(long offset) throws ElfFormatException {
      require(offset, 8, "64-bit field");
      return buffer.getLong((int) offset);
    }
  }

  /**
   * A file mapped in fixed windows. Small reads go through the window that holds them (a read straddling two windows
   * is assembled byte by byte); slices get their own mapping of exactly their range.
   */
  static final class OfFile extends ByteSource {
    private static final int WINDOW_SHIFT = 28; // 256 MiB windows
    private static final long WINDOW = 1L << WINDOW_SHIFT;

    private final FileChannel channel;
    private final long size;
    private final ByteBuffer[] windows;

    OfFile(FileChannel channel, long size) {
      this.channel = channel;
      this.size = size;
      this.windows = new ByteBuffer[(int) ((size + WINDOW - 1) >>> WINDOW_SHIFT)];
    }

    @Override
    public long size() {
      return size;
    }

    private ByteBuffer window(long offset) throws ElfFormatException {
      int index = (int) (offset >>> WINDOW_SHIFT);
      ByteBuffer w = windows[index];
      if (w == null) {
        long start = (long) index << WINDOW_SHIFT;
        try {
          w = channel.map(FileChannel.MapMode.READ_ONLY, start, Math.min(WINDOW, size - start))
              .order(ByteOrder.LITTLE_ENDIAN);
        } catch (IOException e) {
          throw new ElfFormatException(offset, "cannot map the file: " + e.getMessage());
        }
        windows[index] = w;
      }
      return w;
    }

    private long readSmall(long offset, int length, String what) throws ElfFormatException {
      require(offset, length, what);
      int within = (int) (offset & (WINDOW - 1));
      if (within + length <= WINDOW) {
        ByteBuffer w = window(offset);
        switch (length) {
          case 1: return w.get(within) & 0xff;
          case 2: return w.getShort(within) & 0xffff;
          case 4: return w.getInt(within) & 0xffff_ffffL;
          default: return w.getLong(within);
        }
      }
      long value = 0;
      for (int i = 0; i < length; i++) {
        value |= (long) (window(offset + i).get((int) ((offset + i) & (WINDOW - 1))) & 0xff) << (8 * i);
      }
      return value;
    }

    @Override
    public ByteBuffer slice(long offset, long length) throws ElfFormatException {
      require(offset, length, "range");
      if (length > Integer.MAX_VALUE) {
        throw new ElfFormatException(offset, "a range of " + length + " bytes is too large for one view");
      }
      int within = (int) (offset & (WINDOW - 1));
      if (within + length <= WINDOW) {
        return window(offset).slice(within, (int) length).asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
      }
      try {
        return channel.map(FileChannel.MapMode.READ_ONLY, offset, length).order(ByteOrder.LITTLE_ENDIAN);
      } catch (IOException e) {
        throw new ElfFormatException(offset, "cannot map " + length + " bytes: " + e.getMessage());
      }
    }

    @Override
    public int u8(long offset) throws ElfFormatException {
      return (int) readSmall(offset, 1, "byte");
    }

    @Override
    public int u16(long offset) throws ElfFormatException {
      return (int) readSmall(offset, 2, "16-bit field");
    }

    @Override
    public long u32(long offset) throws ElfFormatException {
      return readSmall(offset, 4, "32-bit field");
    }

    @Override
    public long u64(long offset) throws ElfFormatException {
      return readSmall(offset, 8, "64-bit field");
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }
}
