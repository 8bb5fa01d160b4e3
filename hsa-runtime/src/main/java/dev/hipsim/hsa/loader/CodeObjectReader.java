package dev.hipsim.hsa.loader;

import dev.hipsim.bundle.metadata.CodeObjectInfo;
import dev.hipsim.bundle.metadata.CodeObjectMetadata;
import dev.hipsim.bundle.metadata.MetadataFormatException;
import dev.hipsim.elf.ElfFormatException;
import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.HsaStatus;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code hsa_code_object_reader_t}: one code object, from memory or a file, checked (machine, OS/ABI, version,
 * segments, symbols, relocations) and with its metadata note decoded, ready to be loaded into executables.
 */
public final class CodeObjectReader {
  private final String source;
  private final CodeObject codeObject;
  private final Optional<CodeObjectMetadata> metadata;

  private CodeObjectReader(String source, ByteBuffer image) throws HsaException {
    this.source = source;
    try {
      this.codeObject = CodeObject.parse(image);
    } catch (CodeObjectException e) {
      throw new CodeObjectException(e.status(), source + ": " + e.detail(), e);
    }
    try {
      this.metadata = CodeObjectInfo.of(codeObject.elf()).metadata();
    } catch (ElfFormatException | MetadataFormatException e) {
      throw new CodeObjectException(source + ": bad metadata note: " + e.getMessage(), e);
    }
  }

  /** {@code hsa_code_object_reader_create_from_memory}: the bytes are used in place, not copied. */
  public static CodeObjectReader fromMemory(ByteBuffer image) throws HsaException {
    return new CodeObjectReader("memory", image.slice());
  }

  public static CodeObjectReader fromMemory(byte[] image) throws HsaException {
    return fromMemory(ByteBuffer.wrap(image));
  }

  /** {@code hsa_code_object_reader_create_from_file}. */
  public static CodeObjectReader fromFile(Path file) throws HsaException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new HsaException(HsaStatus.INVALID_FILE, file + ": " + e.getMessage(), e);
    }
    return new CodeObjectReader(file.toString(), ByteBuffer.wrap(bytes));
  }

  /** Where the code object came from: a file name, or {@code memory}. */
  public String source() {
    return source;
  }

  public CodeObject codeObject() {
    return codeObject;
  }

  /** The decoded {@code NT_AMDGPU_METADATA} note. */
  public Optional<CodeObjectMetadata> metadata() {
    return metadata;
  }
}
