package dev.hipsim.bundle.metadata;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.msgpack.core.MessageFormat;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePackException;
import org.msgpack.core.MessageUnpacker;

/**
 * Reads one MessagePack value with msgpack-core, checking every declared length and count against the bytes that
 * remain before allocating for it, and bounding the nesting depth, so hostile input fails with
 * {@link MetadataFormatException} rather than exhausting memory or stack.
 */
final class MsgPackTree {
  private static final int MAX_DEPTH = 32;

  private final MessageUnpacker unpacker;
  private final long total;
  private final long fileOffset;

  private MsgPackTree(byte[] data, long fileOffset) {
    this.unpacker = MessagePack.newDefaultUnpacker(data);
    this.total = data.length;
    this.fileOffset = fileOffset;
  }

  /** Decodes the single value in {@code data} (the note descriptor at {@code fileOffset}). */
  static MsgNode read(byte[] data, long fileOffset) throws MetadataFormatException {
    MsgPackTree tree = new MsgPackTree(data, fileOffset);
    try {
      MsgNode root = tree.value(0);
      tree.unpacker.close();
      return root;
    } catch (IOException | MessagePackException e) {
      if (e instanceof MetadataFormatException m) throw m;
      throw new MetadataFormatException(fileOffset, "malformed MessagePack near byte " + tree.position() + ": "
          + e.getMessage());
    }
  }

  private long position() {
    return unpacker.getTotalReadBytes();
  }

  private long remaining() {
    return total - unpacker.getTotalReadBytes();
  }

  private void require(long count, long bytesEach, String what) throws MetadataFormatException {
    if (count < 0 || count > remaining() / bytesEach) {
      throw new MetadataFormatException(fileOffset, what + " of " + count + " declared at byte " + position()
          + " exceeds the " + remaining() + " bytes left");
    }
  }

  private MsgNode value(int depth) throws IOException {
    if (depth > MAX_DEPTH) {
      throw new MetadataFormatException(fileOffset, "values nested deeper than " + MAX_DEPTH + " levels");
    }
    if (!unpacker.hasNext()) {
      throw new MetadataFormatException(fileOffset, "data ends at byte " + position() + " where a value should be");
    }
    MessageFormat format = unpacker.getNextFormat();
    if (format == MessageFormat.NEVER_USED) {
      throw new MetadataFormatException(fileOffset, "byte 0xc1 (never used) at byte " + position());
    }
    switch (format.getValueType()) {
      case NIL:
        unpacker.unpackNil();
        return new MsgNode.Nil();
      case BOOLEAN:
        return new MsgNode.Bool(unpacker.unpackBoolean());
      case INTEGER:
        if (format == MessageFormat.UINT64) {
          java.math.BigInteger big = unpacker.unpackBigInteger();
          if (big.bitLength() > 63) {
            throw new MetadataFormatException(fileOffset, "integer " + big + " is too large");
          }
          return new MsgNode.Int(big.longValue());
        }
        return new MsgNode.Int(unpacker.unpackLong());
      case FLOAT:
        return new MsgNode.Float(unpacker.unpackDouble());
      case STRING: {
        int length = unpacker.unpackRawStringHeader();
        require(length, 1, "string length");
        return new MsgNode.Str(new String(unpacker.readPayload(length), StandardCharsets.UTF_8));
      }
      case BINARY: {
        int length = unpacker.unpackBinaryHeader();
        require(length, 1, "binary length");
        return new MsgNode.Bin(unpacker.readPayload(length));
      }
      case ARRAY: {
        int count = unpacker.unpackArrayHeader();
        require(count, 1, "array length");
        List<MsgNode> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++) items.add(value(depth + 1));
        return new MsgNode.Arr(Collections.unmodifiableList(items));
      }
      case MAP: {
        int count = unpacker.unpackMapHeader();
        require(count, 2, "map size");
        Map<String, MsgNode> fields = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
          long keyAt = position();
          MsgNode key = value(depth + 1);
          if (!(key instanceof MsgNode.Str k)) {
            throw new MetadataFormatException(fileOffset, "map key at byte " + keyAt + " is not a string");
          }
          fields.put(k.value(), value(depth + 1));
        }
        return new MsgNode.Obj(Collections.unmodifiableMap(fields));
      }
      case EXTENSION: {
        var header = unpacker.unpackExtensionTypeHeader();
        require(header.getLength(), 1, "extension length");
        return new MsgNode.Bin(unpacker.readPayload(header.getLength()));
      }
      default:
        throw new MetadataFormatException(fileOffset, "unexpected MessagePack format " + format);
    }
  }
}
