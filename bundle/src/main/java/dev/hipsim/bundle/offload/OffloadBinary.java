package dev.hipsim.bundle.offload;

import dev.hipsim.bundle.BundleFormatException;
import dev.hipsim.elf.ByteSource;
import dev.hipsim.elf.ElfFormatException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * One LLVM OffloadBinary (magic {@code 0x10FF10AD}, versions 1–3), as the new offload driver embeds them in the
 * {@code .llvm.offloading} section of relocatable objects. Images of uncompressed binaries are views of the file.
 */
public final class OffloadBinary {
  public static final int MAGIC = 0x10FF10AD;
  public static final int ALIGNMENT = 8;

  private final int index;
  private final long offset;
  private final long length;
  private final int version;
  private final boolean compressed;
  private final List<OffloadImage> images;
  private final ByteSource body;
  private final long bodyBase;

  OffloadBinary(int index, long offset, long length, int version, boolean compressed, List<OffloadImage> images,
      ByteSource body, long bodyBase) {
    this.index = index;
    this.offset = offset;
    this.length = length;
    this.version = version;
    this.compressed = compressed;
    this.images = List.copyOf(images);
    this.body = body;
    this.bodyBase = bodyBase;
  }

  /** Position among the binaries of its section. */
  public int index() {
    return index;
  }

  /** File offset of the binary's magic. */
  public long offset() {
    return offset;
  }

  /** Bytes the binary occupies in the file (its {@code Size} field). */
  public long length() {
    return length;
  }

  public int version() {
    return version;
  }

  /** Whether the entries were stored compressed (version 3). */
  public boolean compressed() {
    return compressed;
  }

  public List<OffloadImage> images() {
    return images;
  }

  /** An image's bytes: a view of the file, or of the decompressed body for compressed binaries. */
  public ByteBuffer image(OffloadImage image) throws BundleFormatException {
    try {
      return body.slice(bodyBase + image.imageOffset(), image.imageSize());
    } catch (ElfFormatException e) {
      throw new BundleFormatException(offset, "image " + image.index() + " lies outside its binary", e);
    }
  }
}
