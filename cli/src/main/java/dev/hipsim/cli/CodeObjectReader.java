package dev.hipsim.cli;

import dev.hipsim.bundle.metadata.CodeObjectInfo;
import dev.hipsim.bundle.metadata.MetadataFormatException;
import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.ElfFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads embedded code objects and turns every input problem into one line naming the file and the offset. */
final class CodeObjectReader {
  private static final Pattern AT = Pattern.compile("^at file offset 0x([0-9a-f]+): (.*)$", Pattern.DOTALL);

  private CodeObjectReader() {}

  /**
   * The code object in {@code bytes}, or empty when they are not an ELF image (bitcode, an empty host entry).
   *
   * @param where how to name the code object in an error, e.g. "bundle 0 entry hipv4-…"
   * @param base the file offset of the code object, when it lies in the file as it is (plain bundles)
   */
  static Optional<CodeObjectInfo> read(Path file, ByteBuffer bytes, String where, OptionalLong base)
      throws InputException {
    if (!ElfFile.hasElfMagic(bytes, 0)) return Optional.empty();
    try {
      return Optional.of(CodeObjectInfo.read(bytes));
    } catch (ElfFormatException | MetadataFormatException e) {
      long inner = e instanceof ElfFormatException ef ? ef.offset() : ((MetadataFormatException) e).offset();
      String problem = problem(e.getMessage());
      if (base.isPresent()) {
        throw new InputException(String.format("%s: %s: at file offset 0x%x: %s", file, where,
            base.getAsLong() + inner, problem), e);
      }
      throw new InputException(String.format("%s: %s: at offset 0x%x of the code object: %s", file, where, inner,
          problem), e);
    }
  }

  /** The message without its leading "at file offset 0x…: ". */
  static String problem(String message) {
    Matcher m = AT.matcher(message == null ? "" : message);
    return m.matches() ? m.group(2) : String.valueOf(message);
  }

  /** An input problem as one line: "FILE: at file offset 0x…: what". */
  static InputException wrap(Path file, IOException e) {
    if (e instanceof NoSuchFileException) return new InputException(file + ": no such file", e);
    return new InputException(file + ": " + e.getMessage(), e);
  }
}
